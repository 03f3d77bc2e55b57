import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { callRoutes, emailOnlyRequestSchema, type EmailOnlyRequest } from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';

/** Shown whatever the API found: the page must not tell who has an account. */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent it a link to reset the password. The link works once, within 1 hour.';

/** /forgot-password: asks for the e-mail, then confirms neutrally. */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EmailOnlyRequest>({
    resolver: zodResolver(emailOnlyRequestSchema),
    defaultValues: { email: '' },
  });

  const onValid = async (values: EmailOnlyRequest) => {
    try {
      const answer = await callApi(callRoutes.forgotPassword, { body: values });
      setSent(answer?.message ?? RESET_LINK_SENT);
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Failed to send the reset link. Please try again.',
        variant: 'destructive',
      });
    }
  };

  if (sent) {
    return (
      <AuthCard title="Check your inbox">
        <p role="status">{sent}</p>
        <Muted>
          <Link to="/login">Back to sign in</Link>
        </Muted>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your e-mail address and we will send you a link to choose a new one."
    >
      <form noValidate onSubmit={handleSubmit(onValid)}>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" size="lg" fullWidth disabled={isSubmitting}>
          {isSubmitting ? 'Sending...' : 'Send reset link'}
        </Button>
      </form>
      <Muted>
        Remembered it? <Link to="/login">Back to sign in</Link>
      </Muted>
    </AuthCard>
  );
}
