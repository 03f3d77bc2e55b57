import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import { loginRequestSchema, type LoginRequest, type LoginResponse } from '@campus/contracts';
import { ApiError, apiRequest } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';
import { AuthCard, Muted } from './auth-card';

/** Spec §2 "Login": shown at every signed-out path except /register and /verify. */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
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
      const { user, token } = await apiRequest<LoginResponse>('/api/auth/login', {
        method: 'POST',
        body: values,
      });
      session.login({
        user: { id: user.id, name: user.name, email: user.email, avatarUrl: user.avatarUrl },
        token,
      });
      navigate('/', { replace: true });
      toast({ title: 'Welcome back!', description: 'You have successfully logged in.' });
    } catch (error) {
      toast({
        title: 'Login failed',
        description:
          (error instanceof ApiError && error.serverMessage) ||
          'Invalid credentials. Please try again.',
        variant: 'destructive',
      });
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
      <Muted>
        Don&apos;t have an account? <Link to="/register">Sign up</Link>
      </Muted>
    </AuthCard>
  );
}
