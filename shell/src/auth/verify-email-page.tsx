import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { callRoutes } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { Spinner } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';

/** Spec §9: the success view redirects to /login after 3 seconds. */
export const VERIFY_REDIRECT_MS = 3000;

type Verification =
  { state: 'loading' } | { state: 'success' } | { state: 'error'; message: string };

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
    return { state: 'success' };
  } catch (error) {
    if (error instanceof ApiError) return { state: 'error', message: serverError(error) };
    return { state: 'error', message: 'Failed to verify email. Please try again.' };
  }
}

/** Spec §2 "E-mail verification" (/verify/:token). */
export function VerifyEmailPage() {
  const { token } = useParams();
  const navigate = useNavigate();
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

  useEffect(() => {
    if (verification.state !== 'success') return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), VERIFY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verification.state, navigate]);

  if (verification.state === 'loading') {
    return (
      <AuthCard title="Email verification">
        <Spinner label="Verifying your email..." />
      </AuthCard>
    );
  }
  if (verification.state === 'success') {
    return (
      <AuthCard title="Email verification">
        <p role="status">Email verified successfully! You can now log in.</p>
        <Muted>Taking you to the sign-in page...</Muted>
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
