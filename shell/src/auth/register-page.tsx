import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { registerRequestSchema, type RegisterRequest } from '@campus/contracts';
import { ApiError, apiRequest } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { ApplyForAccessDialog } from './apply-for-access-dialog';
import { AuthCard, LinkButton, Muted } from './auth-card';

/** Spec §2 "Registration" (/register). */
export function RegisterPage() {
  const navigate = useNavigate();
  const [applying, setApplying] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterRequest>({
    resolver: zodResolver(registerRequestSchema),
    defaultValues: { name: '', email: '', password: '' },
  });

  const onValid = async (values: RegisterRequest) => {
    try {
      await apiRequest('/api/auth/register', { method: 'POST', body: values });
      navigate('/', { replace: true });
      toast({
        title: 'Account created successfully!',
        description:
          'Please check your inbox and click the verification link to activate your account.',
      });
    } catch (error) {
      toast({
        title: 'Registration failed',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Please try again with different details.',
        variant: 'destructive',
      });
    }
  };

  const onInvalid = () =>
    toast({
      title: 'Invalid input',
      description: 'Please check all fields and try again.',
      variant: 'destructive',
    });

  return (
    <AuthCard title="Create your account" subtitle="Use your institutional e-mail address">
      <form noValidate onSubmit={handleSubmit(onValid, onInvalid)}>
        <TextField
          label="Full name"
          autoComplete="name"
          error={errors.name?.message}
          {...register('name')}
        />
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
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <Button type="submit" size="lg" fullWidth disabled={isSubmitting}>
          {isSubmitting ? 'Creating account...' : 'Create Account'}
        </Button>
      </form>
      <Muted>
        Already have an account? <Link to="/">Sign in</Link>
      </Muted>
      <Muted>
        Alumni without an institutional e-mail?{' '}
        <LinkButton type="button" onClick={() => setApplying(true)}>
          Apply for access
        </LinkButton>
      </Muted>
      <ApplyForAccessDialog open={applying} onOpenChange={setApplying} />
    </AuthCard>
  );
}
