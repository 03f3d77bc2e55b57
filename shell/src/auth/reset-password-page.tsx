import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { z } from 'zod';
import { callRoutes, newPasswordSchema, type ResetPasswordRequest } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, Spinner, TextField } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';

const formSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.password, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  });
type FormValues = z.infer<typeof formSchema>;

const LINK_NOT_CHECKED = 'Failed to check your reset link. Please try again.';

type LinkCheck =
  | { state: 'checking' }
  | { state: 'valid' }
  | { state: 'dead'; message: string }
  | { state: 'failed' };

/**
 * Whether the link can still set a password (`GET /api/auth/reset-password/:token`, issue 41): a
 * used or expired one says so and offers a new one, instead of a form that cannot work.
 */
function useResetLink(token: string): [LinkCheck, () => void] {
  const [attempt, setAttempt] = useState(0);
  const [check, setCheck] = useState<{ key: string; result: LinkCheck } | null>(null);
  const key = `${token}#${attempt}`;
  useEffect(() => {
    let current = true;
    callApi(callRoutes.resetLinkStatus, { params: { token }, on401: 'returnNull' }).then(
      (status) => {
        if (!current) return;
        const result: LinkCheck = status?.valid
          ? { state: 'valid' }
          : status
            ? { state: 'dead', message: status.message ?? 'This reset link no longer works.' }
            : { state: 'failed' };
        setCheck({ key, result });
      },
      () => current && setCheck({ key, result: { state: 'failed' } }),
    );
    return () => {
      current = false;
    };
  }, [token, key]);
  return [
    check?.key === key ? check.result : { state: 'checking' },
    () => setAttempt((n) => n + 1),
  ];
}

/**
 * /reset-password/:token: a link that no longer works says so with a way to a new one; a live
 * one asks for the new password twice, then goes to sign-in with a toast.
 */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [link, recheck] = useResetLink(token);
  if (link.state === 'checking') {
    return (
      <AuthCard title="Choose a new password">
        <Spinner label="Checking your reset link..." />
      </AuthCard>
    );
  }
  if (link.state === 'failed') {
    return (
      <AuthCard title="Choose a new password">
        <p role="alert">{LINK_NOT_CHECKED}</p>
        <Button type="button" onClick={recheck}>
          Retry
        </Button>
      </AuthCard>
    );
  }
  if (link.state === 'dead') {
    return (
      <AuthCard title="This reset link no longer works">
        <p role="alert">{link.message}</p>
        <Muted>
          <Link to="/forgot-password">Request a new link</Link>
        </Muted>
        <Muted>
          <Link to="/login">Back to sign in</Link>
        </Muted>
      </AuthCard>
    );
  }
  return <NewPasswordForm token={token} />;
}

function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [linkError, setLinkError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });

  const onValid = async ({ password }: FormValues) => {
    const body: ResetPasswordRequest = { token, password };
    try {
      await callApi(callRoutes.resetPassword, { body });
    } catch (error) {
      const message =
        (error instanceof ApiError && error.serverMessage) ||
        'Failed to reset your password. Please try again.';
      if (error instanceof ApiError && error.status === 400) setLinkError(message);
      else toast({ title: 'Error', description: message, variant: 'destructive' });
      return;
    }
    navigate('/login', { replace: true });
    toast({ title: 'Password reset', description: 'You can now sign in with your new password.' });
  };

  return (
    <AuthCard title="Choose a new password">
      {linkError && (
        <p role="alert">
          {linkError} <Link to="/forgot-password">Request a new link</Link>
        </p>
      )}
      <form noValidate onSubmit={handleSubmit(onValid)}>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" size="lg" fullWidth disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Set new password'}
        </Button>
      </form>
      <Muted>
        <Link to="/login">Back to sign in</Link>
      </Muted>
    </AuthCard>
  );
}
