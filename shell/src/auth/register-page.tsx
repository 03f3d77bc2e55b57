import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  callRoutes,
  registerRequestSchema,
  type InvitationResponse,
  type RegisterRequest,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { toast } from '@campus/kit/toast';
import { Button, Spinner, TextField } from '@campus/kit/ui';
import { ApplyForAccessDialog } from './apply-for-access-dialog';
import { AuthCard, LinkButton, Muted } from './auth-card';

type Invitation =
  | { state: 'none' }
  | { state: 'checking'; token: string }
  | { state: 'valid'; token: string; invited: InvitationResponse }
  | { state: 'invalid'; token: string; message: string };

/**
 * `?invitation=<token>` (issue 18: the link of an approved account application): who was
 * invited, from `GET /api/invitations/:token`. A used, expired or unknown link says so.
 */
function useInvitation(): Invitation {
  const [params] = useSearchParams();
  const token = params.get('invitation')?.trim() ?? '';
  const [answer, setAnswer] = useState<Invitation>({ state: 'none' });
  useEffect(() => {
    if (!token) return;
    let current = true;
    const invalid = (message = 'This invitation could not be checked. Please try again.') =>
      current && setAnswer({ state: 'invalid', token, message });
    // The route is public: a 401 (answered as null, never signing anyone out) cannot vouch for it.
    callApi(callRoutes.invitation, { params: { token }, on401: 'returnNull' }).then(
      (invited) => (invited ? current && setAnswer({ state: 'valid', token, invited }) : invalid()),
      (error: unknown) =>
        invalid(
          error instanceof ApiError && error.status < 500 && error.serverMessage
            ? error.serverMessage
            : undefined,
        ),
    );
    return () => {
      current = false;
    };
  }, [token]);
  if (!token) return { state: 'none' };
  return answer.state !== 'none' && answer.token === token ? answer : { state: 'checking', token };
}

/** Spec §2 "Registration" (/register); with an invitation, any e-mail address (issue 18). */
export function RegisterPage() {
  const invitation = useInvitation();
  if (invitation.state === 'checking') {
    return (
      <AuthCard title="Create your account" subtitle="Checking your invitation...">
        <Spinner label="Checking your invitation" />
      </AuthCard>
    );
  }
  if (invitation.state === 'invalid') {
    return (
      <AuthCard title="Invitation not valid" subtitle={invitation.message}>
        <Muted>
          Already registered? <Link to="/">Sign in</Link>
        </Muted>
      </AuthCard>
    );
  }
  return (
    <RegisterForm
      key={invitation.state === 'valid' ? invitation.token : 'open'}
      invitation={invitation.state === 'valid' ? invitation : null}
    />
  );
}

function RegisterForm({
  invitation,
}: {
  invitation: { token: string; invited: InvitationResponse } | null;
}) {
  const navigate = useNavigate();
  const [applying, setApplying] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<RegisterRequest>({
    resolver: zodResolver(registerRequestSchema),
    defaultValues: {
      name: invitation?.invited.name ?? '',
      email: invitation?.invited.email ?? '',
      password: '',
    },
  });

  const onValid = async (values: RegisterRequest) => {
    try {
      const body = invitation ? { ...values, invitationToken: invitation.token } : values;
      const registered = await callApi(callRoutes.register, { body });
      navigate('/', { replace: true });
      toast({
        title: 'Account created successfully!',
        description:
          // An invited address may count as verified at once; the API says what comes next.
          invitation && registered?.message
            ? registered.message
            : 'Please check your inbox and click the verification link to activate your account.',
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
    <AuthCard
      title="Create your account"
      subtitle={
        invitation
          ? `Welcome, ${invitation.invited.name}. Your application was approved: register with any e-mail address.`
          : 'Use your institutional e-mail address'
      }
    >
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
      {!invitation && (
        <>
          <Muted>
            Alumni without an institutional e-mail?{' '}
            <LinkButton type="button" onClick={() => setApplying(true)}>
              Apply for access
            </LinkButton>
          </Muted>
          <ApplyForAccessDialog open={applying} onOpenChange={setApplying} />
        </>
      )}
    </AuthCard>
  );
}
