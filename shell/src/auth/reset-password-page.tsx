import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { z } from 'zod';
import { callRoutes, newPasswordSchema, type ResetPasswordRequest } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';

const formSchema = z
  .object({ password: newPasswordSchema, confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.password, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  });
type FormValues = z.infer<typeof formSchema>;

/** /reset-password/:token: the new password twice, then to sign-in with a toast. */
export function ResetPasswordPage() {
  const { token = '' } = useParams();
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
