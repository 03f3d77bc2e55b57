import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import styled from 'styled-components';
import { z } from 'zod';
import { changePasswordRequestSchema, type ChangePasswordRequest } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { changePassword } from './account-requests';

/** The contract's payload plus the confirmation, which never leaves the browser. */
const formSchema = changePasswordRequestSchema
  .extend({ confirmPassword: z.string() })
  .refine((values) => values.confirmPassword === values.newPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  });
type FormValues = z.infer<typeof formSchema>;

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  justify-items: start;

  & > div {
    width: 100%;
  }
`;

/**
 * Change password: the API revokes every session and gives this device a new one (its cookies
 * come with the answer, so this browser stays signed in with nothing to store).
 */
export function ChangePasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({
    resolver: zodResolver(formSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });

  const onValid = async ({ currentPassword, newPassword }: FormValues) => {
    const body: ChangePasswordRequest = { currentPassword, newPassword };
    try {
      await changePassword(body);
      reset();
      toast({
        title: 'Password changed',
        description: 'Your other devices have been signed out.',
      });
    } catch (error) {
      const message =
        (error instanceof ApiError && error.serverMessage) ||
        'Failed to change your password. Please try again.';
      if (error instanceof ApiError && error.status === 400) {
        setError('currentPassword', { message }, { shouldFocus: true });
      } else {
        toast({ title: 'Error', description: message, variant: 'destructive' });
      }
    }
  };

  return (
    <Form noValidate onSubmit={handleSubmit(onValid)} aria-label="Change password">
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.newPassword?.message}
        {...register('newPassword')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Changing...' : 'Change password'}
      </Button>
    </Form>
  );
}
