import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  callRoutes,
  isInstitutionalEmail,
  PASSWORD_MIN_LENGTH,
  registerRequestSchema,
  type InvitationResponse,
  type RegisterRequest,
} from '@campus/contracts';
import { ApiError, callApi } from '@campus/kit/api';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Button, Spinner, TextField } from '@campus/kit/ui';
import { ApplyForAccessDialog } from './apply-for-access-dialog';
import { AuthCard, FieldHint, LinkButton, Muted } from './auth-card';
import { rememberFirstRun } from './first-run';
import { rememberPendingSignUp, signedInAs } from './pending-sign-up';

/** The API's institutional domains (`GET /api/auth/registration-rules`); null until known. */
function useInstitutionDomains(): readonly string[] | null {
  const [domains, setDomains] = useState<readonly string[] | null>(null);
  useEffect(() => {
    let current = true;
    // Public: a 401 cannot happen, and a failure only means the hint waits for the API's answer.
    callApi(callRoutes.registrationRules, { on401: 'returnNull' }).then(
      (rules) => current && rules && setDomains(rules.institutionDomains),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return domains;
}

/** The API's own words for an address outside the domains (auth/register.ts), shown on the field. */
export function institutionalOnly(domains: readonly string[]): string {
  return `Only institutional email addresses are accepted (${domains.map((d) => `@${d}`).join(', ')}).`;
}

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
  const session = useSession();
  const [applying, setApplying] = useState(false);
  // An invitation accepts any address; otherwise the domains are told up front and checked here.
  const domains = useInstitutionDomains();
  const checkedDomains = invitation ? null : domains;
  // Said on the field as soon as it is left with an address outside the domains; a submit still
  // goes to the API, whose refusal is the spec's 'Registration failed' toast (and the field's).
  const [domainWarning, setDomainWarning] = useState<string | null>(null);
  const checkDomain = (value: string) => {
    const email = value.trim();
    setDomainWarning(
      checkedDomains && email.includes('@') && !isInstitutionalEmail(email, checkedDomains)
        ? institutionalOnly(checkedDomains)
        : null,
    );
  };
  const {
    register,
    handleSubmit,
    setError,
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
      if (registered?.signedIn) {
        // The mailed invitation verified the address: signed in at once (issue 41).
        const { user } = registered;
        signedInAs(user.email);
        rememberFirstRun(user.id, registered.firstSignIn);
        session.login({
          user: { id: user.id, name: user.name, email: user.email, avatarUrl: user.avatarUrl },
        });
        toast({ title: 'Account created successfully!', description: 'Welcome to Campus!' });
        return;
      }
      // The sign-in page says where the link went until that address signs in.
      rememberPendingSignUp(values.email);
      toast({
        title: 'Account created successfully!',
        description:
          // An invited address may count as verified at once; the API says what comes next.
          invitation && registered?.message
            ? registered.message
            : 'Please check your inbox and click the verification link to activate your account.',
      });
    } catch (error) {
      // The API's refusal of the address is said on the field too, not only in the toast.
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        error.serverMessage?.startsWith('Only institutional email addresses are accepted')
      ) {
        setError('email', { type: 'server', message: error.serverMessage }, { shouldFocus: true });
      }
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
        <div>
          <TextField
            id="register-email"
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message ?? domainWarning ?? undefined}
            aria-describedby={describedBy(
              'register-email',
              errors.email ?? domainWarning,
              !!checkedDomains,
            )}
            {...register('email', {
              onBlur: (event: { target: { value: string } }) => checkDomain(event.target.value),
              onChange: () => setDomainWarning(null),
            })}
          />
          {checkedDomains && (
            <FieldHint id="register-email-hint">
              Accepted: {checkedDomains.map((domain) => `@${domain}`).join(', ')}
            </FieldHint>
          )}
        </div>
        <div>
          <TextField
            id="register-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            error={errors.password?.message}
            aria-describedby={describedBy('register-password', errors.password, true)}
            {...register('password')}
          />
          <FieldHint id="register-password-hint">
            At least {PASSWORD_MIN_LENGTH} characters
          </FieldHint>
        </div>
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

/** The field's error (TextField's `<id>-error`) and hint (`<id>-hint`), as its description. */
function describedBy(id: string, error: unknown, hint: boolean): string | undefined {
  const ids = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
