import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dismissToast } from '@campus/kit/toast';
import { callsTo, mockApi } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

beforeEach(() => {
  window.localStorage.clear();
  dismissToast();
});

describe('RegisterPage with an invitation (issue 18)', () => {
  it('when the invitation is valid, then it greets the invited alum, fills their name and address and sends the token', async () => {
    const fetchMock = mockApi(({ method, pathname }) => {
      if (method === 'GET' && pathname === '/api/invitations/tok-123')
        return { status: 200, body: { name: 'Grace Hopper', email: 'grace@navy.example' } };
      if (method === 'POST' && pathname === '/api/auth/register')
        return { status: 201, body: { message: 'Your account is ready. You can sign in now.' } };
      return undefined;
    });
    renderApp('/register?invitation=tok-123');
    expect(
      await screen.findByText(
        'Welcome, Grace Hopper. Your application was approved: register with any e-mail address.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveValue('Grace Hopper');
    expect(screen.getByLabelText('Email')).toHaveValue('grace@navy.example');
    expect(screen.queryByRole('button', { name: 'Apply for access' })).not.toBeInTheDocument();

    // Any address: a personal one instead of the one the invitation went to.
    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'grace@home.example');
    await userEvent.type(screen.getByLabelText('Password'), 'long-enough-password');
    await userEvent.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Account created successfully!')).toBeInTheDocument();
    expect(screen.getByText('Your account is ready. You can sign in now.')).toBeInTheDocument();
    const [call] = callsTo(fetchMock, '/api/auth/register', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      name: 'Grace Hopper',
      email: 'grace@home.example',
      password: 'long-enough-password',
      invitationToken: 'tok-123',
    });
  });

  it('when the invitation was used or expired, then the page says so and offers no form', async () => {
    mockApi(({ pathname }) =>
      pathname === '/api/invitations/old'
        ? { status: 410, body: { message: 'This invitation has already been used' } }
        : undefined,
    );
    renderApp('/register?invitation=old');
    expect(
      await screen.findByRole('heading', { name: 'Invitation not valid' }),
    ).toBeInTheDocument();
    expect(screen.getByText('This invitation has already been used')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });
});
