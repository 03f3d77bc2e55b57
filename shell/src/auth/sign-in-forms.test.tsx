import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dismissToast } from '@campus/kit/toast';
import { SESSION_KEY_RETIRED_MESSAGE } from '@campus/contracts';
import { mockApi, signIn } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

beforeEach(() => {
  window.localStorage.clear();
  dismissToast();
});

describe('LoginPage', () => {
  it('rejects invalid input with the spec toast, without calling the API', async () => {
    const fetchMock = mockApi(() => undefined);
    renderApp('/');
    await userEvent.type(await screen.findByLabelText('Email'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid input')).toBeInTheDocument();
    expect(screen.getByText('Please check your email and password.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server message when login fails', async () => {
    mockApi(() => ({ status: 401, body: { message: 'Invalid email or password' } }));
    renderApp('/');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid email or password')).toBeInTheDocument();
  });

  it('stores the session, opens the shell and welcomes the user back', async () => {
    const user = {
      id: 3,
      name: 'Ada Okafor',
      email: 'ada@campus.edu',
      avatarUrl: null,
      bio: '',
      createdAt: '',
    };
    mockApi(({ path }) => {
      if (path === '/api/auth/login') return { status: 200, body: { user, token: 'jwt' } };
      if (path === '/api/users/3') return { status: 200, body: user };
      return undefined;
    });
    renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'ada@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'campus-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(screen.getByText('You have successfully logged in.')).toBeInTheDocument();
    expect(await screen.findByRole('complementary', { name: 'Sidebar' })).toHaveTextContent(
      'Ada Okafor',
    );
    // The user is stored, never the token: the session is the HttpOnly cookie the answer set.
    const stored = JSON.parse(window.localStorage.getItem('campus.auth') ?? '{}');
    expect(stored.user).toEqual({
      id: 3,
      name: 'Ada Okafor',
      email: 'ada@campus.edu',
      avatarUrl: null,
    });
    expect(JSON.stringify(stored)).not.toContain('jwt');
  });

  it('says why the API ended the last session, until the member signs in again', async () => {
    signIn({ id: 4, name: 'Ben', email: 'ben@campus.edu', avatarUrl: null });
    mockApi(
      ({ path }) =>
        path === '/api/auth/me' || path === '/api/auth/refresh'
          ? { status: 401, body: { message: SESSION_KEY_RETIRED_MESSAGE } }
          : undefined,
      { acceptStoredLogin: false },
    );
    renderApp('/');
    const notice = await screen.findByText(SESSION_KEY_RETIRED_MESSAGE, { selector: 'p' });
    expect(notice).toHaveAttribute('role', 'status');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });
});

describe('RegisterPage', () => {
  it('asks to check all fields when the form is incomplete', async () => {
    mockApi(() => undefined);
    renderApp('/register');
    await userEvent.click(await screen.findByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Invalid input')).toBeInTheDocument();
    expect(screen.getByText('Please check all fields and try again.')).toBeInTheDocument();
  });

  it('registers, goes to the root route and explains the verification e-mail', async () => {
    const fetchMock = mockApi(({ path }) =>
      path === '/api/auth/register' ? { status: 201, body: { message: 'ok' } } : undefined,
    );
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Full name'), 'Erin');
    await userEvent.type(screen.getByLabelText('Email'), 'erin@campus.edu');
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Sign in to Campus' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/auth/register',
      expect.objectContaining({
        body: JSON.stringify({
          name: 'Erin',
          email: 'erin@campus.edu',
          password: 'long-enough-password',
        }),
      }),
    );
  });

  it('shows the server message when registration is refused', async () => {
    mockApi(() => ({
      status: 400,
      body: { message: 'Only institutional email addresses are accepted' },
    }));
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Full name'), 'Erin');
    await userEvent.type(screen.getByLabelText('Email'), 'erin@gmail.com');
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Registration failed')).toBeInTheDocument();
    // In the toast, and (issue 41) on the field.
    expect(screen.getAllByText('Only institutional email addresses are accepted')).toHaveLength(2);
  });
});

describe('Apply for Account Access', () => {
  it('keeps Submit disabled until all three fields are filled, then sends the application', async () => {
    const fetchMock = mockApi(({ path }) =>
      path === '/api/account-application' ? { status: 201, body: { message: 'ok' } } : undefined,
    );
    renderApp('/register');
    await userEvent.click(await screen.findByRole('button', { name: 'Apply for access' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Apply for Account Access' }));
    const submit = dialog.getByRole('button', { name: 'Submit Application' });
    expect(submit).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Full name'), 'Old Alum');
    await userEvent.type(dialog.getByLabelText('Contact information'), '+1 555 0100');
    expect(submit).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Additional information'), '   ');
    expect(submit).toBeDisabled();
    await userEvent.clear(dialog.getByLabelText('Additional information'));
    await userEvent.type(dialog.getByLabelText('Additional information'), 'Class of 1999');
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    expect(await screen.findByText('Application submitted!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      'http://api.test/api/account-application',
      expect.objectContaining({
        body: JSON.stringify({
          name: 'Old Alum',
          contactInfo: '+1 555 0100',
          message: 'Class of 1999',
        }),
      }),
    );
  });

  it('says so when the application fails', async () => {
    mockApi(() => ({ status: 500 }));
    renderApp('/register');
    await userEvent.click(await screen.findByRole('button', { name: 'Apply for access' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Apply for Account Access' }));
    await userEvent.type(dialog.getByLabelText('Full name'), 'A');
    await userEvent.type(dialog.getByLabelText('Contact information'), 'B');
    await userEvent.type(dialog.getByLabelText('Additional information'), 'C');
    await userEvent.click(dialog.getByRole('button', { name: 'Submit Application' }));
    expect(
      await screen.findByText('Failed to submit application. Please try again.'),
    ).toBeInTheDocument();
  });
});
