import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCOUNT_SUSPENDED_MESSAGE } from '@campus/contracts';
import { dismissToast } from '@campus/kit/toast';
import { callsTo, mockApi, signIn } from '@campus/kit/testing';
import { renderApp } from '../testing/render-app';

beforeEach(() => {
  window.localStorage.clear();
  dismissToast();
});

const TICKET = 'a'.repeat(43);
const suspended = (appeal: object | null) => ({
  status: 403,
  body: {
    message: ACCOUNT_SUSPENDED_MESSAGE,
    suspension: {
      decisionId: 5,
      suspendedAt: '2026-11-20T10:00:00.000Z',
      reason: { category: 'impersonation', text: 'Pretends to be the dean' },
      appeal,
      ticket: appeal ? null : TICKET,
    },
  },
});

async function signInAs(email: string) {
  await userEvent.type(await screen.findByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), 'campus-demo');
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('A suspended member at the sign-in page (issue 38)', () => {
  it('when sign-in is refused, then the spec message, the reason and an appeal sent once with the ticket', async () => {
    const fetchMock = mockApi(({ path }) => {
      if (path === '/api/auth/login') return suspended(null);
      if (path === '/api/appeals/suspension')
        return {
          status: 201,
          body: {
            id: 3,
            decisionId: 5,
            status: 'pending',
            createdAt: '2026-11-21T10:00:00.000Z',
            decidedAt: null,
          },
        };
      return undefined;
    });
    renderApp('/');
    await signInAs('sam@campus.edu');
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_SUSPENDED_MESSAGE)).toBeInTheDocument();
    const notice = screen.getByRole('region', { name: 'Your account is suspended' });
    expect(notice).toHaveTextContent('Reason: Impersonation. Pretends to be the dean');
    // Not the unverified account's offer.
    expect(screen.queryByText('Resend verification e-mail')).not.toBeInTheDocument();

    await userEvent.click(within(notice).getByRole('button', { name: 'Appeal this decision' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal your suspension' });
    await userEvent.type(within(dialog).getByLabelText('Your appeal'), 'I post for the dean.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send appeal' }));
    expect(
      await within(notice).findByText(
        'Your appeal was sent. The Campus team will review it and e-mail you.',
      ),
    ).toBeInTheDocument();
    expect(within(notice).queryByRole('button', { name: 'Appeal this decision' })).toBeNull();
    const [call] = callsTo(fetchMock, '/api/appeals/suspension', 'POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      ticket: TICKET,
      text: 'I post for the dean.',
    });
  });

  it('when the member already appealed, then the notice says where it stands and offers no second appeal', async () => {
    mockApi(({ path }) =>
      path === '/api/auth/login'
        ? suspended({
            id: 3,
            decisionId: 5,
            status: 'upheld',
            createdAt: '2026-11-21T10:00:00.000Z',
            decidedAt: '2026-11-22T10:00:00.000Z',
          })
        : undefined,
    );
    renderApp('/');
    await signInAs('sam@campus.edu');
    const notice = await screen.findByRole('region', { name: 'Your account is suspended' });
    expect(notice).toHaveTextContent(
      'The Campus team reviewed your appeal and kept the suspension.',
    );
    expect(within(notice).queryByRole('button')).toBeNull();
  });

  it('when a session ends by suspension, then the notice says to sign in to see the reason and appeal', async () => {
    signIn({ id: 4, name: 'Sam', email: 'sam@campus.edu', avatarUrl: null });
    mockApi(
      ({ path }) =>
        path === '/api/auth/me' || path === '/api/auth/refresh'
          ? { status: 401, body: { message: ACCOUNT_SUSPENDED_MESSAGE } }
          : undefined,
      { acceptStoredLogin: false },
    );
    renderApp('/');
    expect(
      await screen.findByText(
        `${ACCOUNT_SUSPENDED_MESSAGE} Sign in to see the reason and to appeal.`,
        { selector: 'p' },
      ),
    ).toHaveAttribute('role', 'status');
  });
});
