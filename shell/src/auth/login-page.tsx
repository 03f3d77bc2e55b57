import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import {
  ACCOUNT_SUSPENDED_MESSAGE,
  callRoutes,
  loginRequestSchema,
  type LoginRequest,
  type SuspensionNotice as Notice,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { AuthCard, LinkButton, Muted, SignedOutNotice } from './auth-card';
import { rememberFirstRun } from './first-run';
import { pendingSignUp, signedInAs } from './pending-sign-up';
import { SuspensionNotice, suspensionOf } from './suspension-notice';

/** Shown whatever the API found, so the sign-in screen tells nobody who has an account. */
export const VERIFICATION_RESENT =
  'If that address has an account waiting for verification, we have sent it a new link.';

/**
 * Why the member is on the sign-in page, when they chose it themselves (the navigation's state;
 * what the API ended is `session.signOutMessage`).
 */
export type SignInReason = { signedOut: 'everywhere' };

/** Said after "Sign out of all devices" (issue 41), where its button lands. */
export const SIGNED_OUT_EVERYWHERE =
  'You signed out of all devices. Sign in again on each device you use.';

function signedOutEverywhere(state: unknown): boolean {
  return (state as Partial<SignInReason> | null)?.signedOut === 'everywhere';
}

/** Spec §2 "Login": shown at every signed-out path except /register and /verify. */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  // Shown at any signed-out path: signing in from a deep link (/post/338) lands on that link.
  const location = useLocation();
  const destination =
    location.pathname === '/login' ? '/' : `${location.pathname}${location.search}${location.hash}`;
  // The address sign-in was refused for because it is not verified yet (the API's 403).
  const [unverifiedEmail, setUnverifiedEmail] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  // The address this device registered, until it signs in (issue 41).
  const [pendingEmail] = useState(pendingSignUp);
  // A suspended member's reason and appeal (issue 38), from the API's 403.
  const [suspension, setSuspension] = useState<Notice | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: '', password: '' },
  });

  const onValid = async (values: LoginRequest) => {
    try {
      // The answer's `token` (spec) is for other clients: this browser's session is the
      // HttpOnly cookie the answer set, and nothing of it is kept where a script could read it.
      const { user, firstSignIn } = await callApi(callRoutes.login, { body: values });
      signedInAs(user.email);
      // The member's first sign-in ever: the first run opens over the feed (issue 41).
      rememberFirstRun(user.id, firstSignIn);
      session.login({
        user: { id: user.id, name: user.name, email: user.email, avatarUrl: user.avatarUrl },
      });
      navigate(destination, { replace: true });
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
    } catch (error) {
      const suspended = suspensionOf(error);
      setSuspension(suspended);
      setUnverifiedEmail(
        error instanceof ApiError && error.status === 403 && !suspended ? values.email : null,
      );
      toast({
        title: 'Login failed',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Invalid credentials. Please try again.',
        variant: 'destructive',
      });
    }
  };

  const resendVerification = async (email: string | null) => {
    if (!email) return;
    setResending(true);
    try {
      const answer = await callApi(callRoutes.resendVerification, { body: { email } });
      toast({
        title: 'Verification e-mail sent',
        description: answer?.message ?? VERIFICATION_RESENT,
      });
      setUnverifiedEmail(null);
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to send the verification e-mail. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setResending(false);
    }
  };

  const onInvalid = () =>
    toast({
      title: 'Invalid input',
      description: 'Please check your email and password.',
      variant: 'destructive',
    });

  return (
    <AuthCard title="Sign in to Campus" subtitle="The network of our students and alumni">
      {session.signOutMessage && !suspension && (
        <SignedOutNotice role="status" aria-live="polite">
          {session.signOutMessage}
          {session.signOutMessage === ACCOUNT_SUSPENDED_MESSAGE &&
            ' Sign in to see the reason and to appeal.'}
        </SignedOutNotice>
      )}
      {!session.signOutMessage && !suspension && signedOutEverywhere(location.state) && (
        <SignedOutNotice role="status" aria-live="polite" $tone="info">
          {SIGNED_OUT_EVERYWHERE}
        </SignedOutNotice>
      )}
      {suspension && <SuspensionNotice notice={suspension} />}
      {pendingEmail && !unverifiedEmail && (
        <Muted role="status">
          We sent a link to <strong>{pendingEmail}</strong> ·{' '}
          <LinkButton
            type="button"
            onClick={() => resendVerification(pendingEmail)}
            disabled={resending}
            aria-label={`Resend the link to ${pendingEmail}`}
          >
            Resend
          </LinkButton>
        </Muted>
      )}
      <form noValidate onSubmit={handleSubmit(onValid, onInvalid)}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" size="lg" fullWidth disabled={isSubmitting}>
          {isSubmitting ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      {unverifiedEmail && (
        <Muted>
          Didn&apos;t get the e-mail?{' '}
          <LinkButton
            type="button"
            onClick={() => resendVerification(unverifiedEmail)}
            disabled={resending}
          >
            Resend verification e-mail
          </LinkButton>
        </Muted>
      )}
      <Muted>
        <Link to="/forgot-password">Forgot password?</Link>
      </Muted>
      <Muted>
        Don&apos;t have an account? <Link to="/register">Sign up</Link>
      </Muted>
    </AuthCard>
  );
}
