import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import {
  callRoutes,
  verifyWithPasswordRequestSchema,
  type PublicUser,
  type VerifyWithPasswordRequest,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { Button, Spinner, TextField } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';
import { rememberFirstRun } from './first-run';
import { signedInAs } from './pending-sign-up';

/** Spec §9: the success view redirects to /login after 3 seconds. */
export const VERIFY_REDIRECT_MS = 3000;

const NETWORK_FAILURE = 'Failed to verify email. Please try again.';

/**
 * The spec's loading, success and error states, and one more (issue 35, docs/security.md): a
 * link opened elsewhere than in the browser that registered proves the mailbox but not the
 * password typed at registration, so its holder chooses the password here first.
 */
type Verification =
  | { state: 'loading' }
  | { state: 'password'; message: string }
  | { state: 'success'; signedInAs?: PublicUser; firstSignIn?: boolean }
  | { state: 'error'; message: string };

const Links = styled.div`
  display: flex;
  justify-content: center;
  gap: ${({ theme }) => theme.space(4)};
`;

function serverError(error: ApiError): string {
  try {
    const body = JSON.parse(error.body) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string' && body.error) return body.error;
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON: fall through to the raw text
  }
  return error.body || error.message;
}

async function verify(token: string): Promise<Verification> {
  try {
    const result = await callApi(callRoutes.verifyEmail, { params: { token } });
    if (result?.error) return { state: 'error', message: result.error };
    if (result?.passwordRequired) return { state: 'password', message: result.message };
    // The browser that registered is signed in by its own link (issue 41).
    return result?.user
      ? { state: 'success', signedInAs: result.user, firstSignIn: result.firstSignIn === true }
      : { state: 'success' };
  } catch (error) {
    if (error instanceof ApiError) return { state: 'error', message: serverError(error) };
    return { state: 'error', message: NETWORK_FAILURE };
  }
}

/** Whether a failed answer says the link itself is dead (the spec's error state), not the input. */
function linkRefused(error: ApiError): boolean {
  try {
    const body = JSON.parse(error.body) as { error?: unknown };
    return typeof body.error === 'string' && body.error !== '';
  } catch {
    return false;
  }
}

/**
 * The password to verify with (same rules as registration). Done: the spec's success state. A
 * dead link: the spec's error state. Anything else is announced and the form stays; a password
 * the rules refuse takes the focus to the field, which reads its message (aria-describedby).
 */
function ChoosePasswordForm({
  token,
  message,
  onDone,
}: {
  token: string;
  message: string;
  onDone: (verification: Verification) => void;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<VerifyWithPasswordRequest>({
    resolver: zodResolver(verifyWithPasswordRequestSchema),
    defaultValues: { password: '' },
  });

  const onValid = async (body: VerifyWithPasswordRequest) => {
    setFailure(null);
    try {
      const result = await callApi(callRoutes.verifyEmailWithPassword, {
        params: { token },
        body,
      });
      if (result?.error) onDone({ state: 'error', message: result.error });
      else onDone({ state: 'success' });
    } catch (error) {
      if (error instanceof ApiError && linkRefused(error)) {
        onDone({ state: 'error', message: serverError(error) });
      } else if (error instanceof ApiError) {
        setFailure(error.serverMessage ?? NETWORK_FAILURE);
      } else {
        setFailure(NETWORK_FAILURE);
      }
    }
  };

  return (
    <AuthCard title="Email verification">
      <p>{message}</p>
      <Muted style={{ textAlign: 'left' }}>
        You will sign in with this password. A password typed when the account was registered no
        longer counts.
      </Muted>
      {failure && <p role="alert">{failure}</p>}
      <form noValidate onSubmit={handleSubmit(onValid)}>
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          autoFocus
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" size="lg" fullWidth disabled={isSubmitting}>
          {isSubmitting ? 'Verifying...' : 'Verify and set password'}
        </Button>
      </form>
    </AuthCard>
  );
}

/** Spec §2 "E-mail verification" (/verify/:token). */
export function VerifyEmailPage() {
  const { token } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const [result, setResult] = useState<{ token: string; verification: Verification } | null>(null);

  useEffect(() => {
    if (!token) return;
    let current = true;
    void verify(token).then((verification) => {
      if (current) setResult({ token, verification });
    });
    return () => {
      current = false;
    };
  }, [token]);

  const verification: Verification = !token
    ? { state: 'error', message: 'Invalid verification link' }
    : result?.token === token
      ? result.verification
      : { state: 'loading' };

  // Signed in by the link: after the spec's 3 seconds, home as that member, with no sign-in page
  // (and no second toast) between. Otherwise the spec's redirect to sign in.
  const member = verification.state === 'success' ? verification.signedInAs : undefined;
  const firstSignIn = verification.state === 'success' && verification.firstSignIn === true;
  const { login } = session;
  useEffect(() => {
    if (verification.state !== 'success') return;
    const timer = setTimeout(() => {
      if (!member) {
        navigate('/login', { replace: true });
        return;
      }
      signedInAs(member.email);
      rememberFirstRun(member.id, firstSignIn);
      navigate('/', { replace: true });
      login({
        user: {
          id: member.id,
          name: member.name,
          email: member.email,
          avatarUrl: member.avatarUrl,
        },
      });
    }, VERIFY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verification.state, member, firstSignIn, navigate, login]);

  if (verification.state === 'loading') {
    return (
      <AuthCard title="Email verification">
        <Spinner label="Verifying your email..." />
      </AuthCard>
    );
  }
  if (verification.state === 'password' && token) {
    return (
      <ChoosePasswordForm
        token={token}
        message={verification.message}
        onDone={(done) => setResult({ token, verification: done })}
      />
    );
  }
  if (verification.state === 'success') {
    return (
      <AuthCard title="Email verification">
        <p role="status">Email verified successfully! You can now log in.</p>
        <Muted>
          {member
            ? `You are signed in as ${member.email}. Taking you to Campus...`
            : 'Taking you to the sign-in page...'}
        </Muted>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email verification">
      <p role="alert">{verification.message}</p>
      <Links>
        <Link to="/register">Register Again</Link>
        <Link to="/login">Go to Login</Link>
      </Links>
    </AuthCard>
  );
}
