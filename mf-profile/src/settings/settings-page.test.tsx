import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readStoredAuth } from '@campus/kit/api';
import { dismissToast } from '@campus/kit/toast';
import { ADA, callsTo, mockApi, renderPage, type ApiHandler } from '@campus/kit/testing';
import SettingsPage from './settings-page';

const renderSettings = () =>
  renderPage(<SettingsPage />, { path: '/settings', route: '/settings', signedInAs: ADA });

afterEach(() => act(() => dismissToast()));

describe('SettingsPage', () => {
  describe('change password', () => {
    async function fill(current: string, next: string, confirm = next) {
      const form = await screen.findByRole('form', { name: 'Change password' });
      await userEvent.type(within(form).getByLabelText('Current password'), current);
      await userEvent.type(within(form).getByLabelText('New password'), next);
      await userEvent.type(within(form).getByLabelText('Confirm new password'), confirm);
      await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
      return form;
    }

    it('when the API accepts, then this session keeps going on its new cookie session and the form clears', async () => {
      const fetchMock = mockApi(({ method, pathname }) =>
        method === 'PUT' && pathname === '/api/auth/password'
          ? { status: 200, body: { token: 'fresh-token' } }
          : undefined,
      );
      renderSettings();
      const form = await fill('old password', 'a new password');
      expect(await screen.findByText('Password changed')).toBeVisible();
      const [call] = callsTo(fetchMock, '/api/auth/password', 'PUT');
      expect(JSON.parse(String(call?.init.body))).toEqual({
        currentPassword: 'old password',
        newPassword: 'a new password',
      });
      // This browser stays signed in: its new session came as cookies, nothing to store.
      expect(readStoredAuth()?.user).toEqual(expect.objectContaining({ id: expect.any(Number) }));
      expect(window.localStorage.getItem('campus.auth')).not.toContain('fresh-token');
      expect(within(form).getByLabelText('Current password')).toHaveValue('');
    });

    it('when the new passwords differ or are short, then nothing is sent and the fields say why', async () => {
      const fetchMock = mockApi();
      renderSettings();
      await fill('old password', 'short', 'other');
      expect(await screen.findByText('Password must be at least 8 characters')).toBeVisible();
      expect(screen.getByText('The passwords do not match')).toBeVisible();
      expect(callsTo(fetchMock, '/api/auth/password', 'PUT')).toHaveLength(0);
    });

    it('when the current password is wrong, then its field shows the API message and the session stays', async () => {
      const handler: ApiHandler = ({ method, pathname }) =>
        method === 'PUT' && pathname === '/api/auth/password'
          ? { status: 400, body: { message: 'Current password is incorrect' } }
          : undefined;
      mockApi(handler);
      renderSettings();
      const form = await fill('wrong password', 'a new password');
      expect(await within(form).findByText('Current password is incorrect')).toBeVisible();
      expect(within(form).getByLabelText('Current password')).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(readStoredAuth()).not.toBeNull();
    });
  });

  it('signs out of all devices after a confirmation: the API revokes every token, so this device signs out too', async () => {
    const fetchMock = mockApi(({ method, pathname }) =>
      method === 'POST' && pathname === '/api/auth/logout-all' ? { status: 204 } : undefined,
    );
    renderSettings();
    const button = await screen.findByRole('button', { name: 'Sign out of all devices' });
    // Issue 41: it asks first; Cancel changes nothing and gives the focus back.
    await userEvent.click(button);
    let dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(button).toHaveFocus());
    expect(callsTo(fetchMock, '/api/auth/logout-all', 'POST')).toHaveLength(0);
    expect(readStoredAuth()).not.toBeNull();

    await userEvent.click(button);
    dialog = await screen.findByRole('dialog', { name: 'Sign out of all devices?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Signed out of all devices')).toBeVisible();
    expect(callsTo(fetchMock, '/api/auth/logout-all', 'POST')).toHaveLength(1);
    expect(readStoredAuth()).toBeNull();
  });

  describe('where you are signed in', () => {
    const sessions = [
      {
        id: 'this-device-session-1',
        device: 'Firefox on Linux',
        createdAt: new Date(Date.now() - 3_600_000).toISOString(),
        lastSeenAt: new Date().toISOString(),
        current: true,
      },
      {
        id: 'the-old-phone-session',
        device: 'Safari on iOS',
        createdAt: new Date(Date.now() - 86_400_000 * 3).toISOString(),
        lastSeenAt: new Date(Date.now() - 86_400_000).toISOString(),
        current: false,
      },
    ];
    const sessionsApi = () => {
      let listed = sessions;
      return mockApi(({ method, pathname }) => {
        if (method === 'GET' && pathname === '/api/auth/sessions')
          return { status: 200, body: listed };
        if (method === 'DELETE' && pathname === '/api/auth/sessions/the-old-phone-session') {
          listed = sessions.filter((s) => s.current);
          return { status: 204 };
        }
        return undefined;
      });
    };

    it('lists each device with when it was last active and marks this one', async () => {
      sessionsApi();
      renderSettings();
      const list = await screen.findByRole('list', { name: "Where you're signed in" });
      const rows = within(list).getAllByRole('listitem');
      expect(rows.map((row) => within(row).getByRole('heading').textContent)).toEqual([
        'Firefox on LinuxThis device',
        'Safari on iOS',
      ]);
      expect(rows[1]).toHaveTextContent(/last active yesterday/i);
      expect(
        within(list).getByRole('button', { name: 'Sign out Firefox on Linux (this device)' }),
      ).toBeVisible();
    });

    it('offers Retry when the devices fail to load (issue 41)', async () => {
      let failing = true;
      mockApi(({ method, pathname }) => {
        if (method === 'GET' && pathname === '/api/auth/sessions')
          return failing
            ? { status: 503, body: { message: 'Unavailable' } }
            : { status: 200, body: sessions };
        return undefined;
      });
      renderSettings();
      expect(await screen.findByText('Your devices could not be loaded.')).toBeInTheDocument();
      failing = false;
      const retries = screen.getAllByRole('button', { name: 'Retry' });
      for (const retry of retries) await userEvent.click(retry);
      const list = await screen.findByRole('list', { name: "Where you're signed in" });
      expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    });

    it('signs another device out after a confirmation, and focus lands on the list', async () => {
      const fetchMock = sessionsApi();
      renderSettings();
      const list = await screen.findByRole('list', { name: "Where you're signed in" });
      await userEvent.click(within(list).getByRole('button', { name: 'Sign out Safari on iOS' }));
      const dialog = await screen.findByRole('dialog', { name: 'Sign out this device?' });
      expect(dialog).toHaveTextContent('Safari on iOS will need to sign in again.');
      // Cancel first: nothing is sent.
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(callsTo(fetchMock, '/api/auth/sessions/the-old-phone-session', 'DELETE')).toHaveLength(
        0,
      );

      await userEvent.click(within(list).getByRole('button', { name: 'Sign out Safari on iOS' }));
      const again = await screen.findByRole('dialog', { name: 'Sign out this device?' });
      await userEvent.click(within(again).getByRole('button', { name: 'Sign out' }));
      expect(await screen.findByText('Device signed out')).toBeVisible();
      expect(callsTo(fetchMock, '/api/auth/sessions/the-old-phone-session', 'DELETE')).toHaveLength(
        1,
      );
      await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
      expect(screen.queryByRole('dialog')).toBeNull();
      await waitFor(() => expect(list).toHaveFocus());
      expect(readStoredAuth()).not.toBeNull();
    });
  });

  describe('delete account', () => {
    async function openDialog() {
      renderSettings();
      await userEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
      return screen.findByRole('dialog', { name: 'Delete account' });
    }

    it('when the password is given and DELETE typed, then the account is deleted and the member signed out', async () => {
      const fetchMock = mockApi(({ method, pathname }) =>
        method === 'DELETE' && pathname === `/api/users/${ADA.id}` ? { status: 204 } : undefined,
      );
      const dialog = await openDialog();
      // Focus moves into the dialog, on its first field.
      await waitFor(() => expect(within(dialog).getByLabelText('Password')).toHaveFocus());
      const submit = within(dialog).getByRole('button', { name: 'Delete my account' });
      await userEvent.keyboard('my password');
      expect(submit).toBeDisabled();
      await userEvent.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
      expect(submit).toBeDisabled(); // the exact word, in capitals
      await userEvent.clear(within(dialog).getByLabelText('Type DELETE to confirm'));
      await userEvent.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
      await userEvent.click(submit);
      expect(await screen.findByText('Account deleted')).toBeVisible();
      const [call] = callsTo(fetchMock, `/api/users/${ADA.id}`, 'DELETE');
      expect(JSON.parse(String(call?.init.body))).toEqual({ password: 'my password' });
      expect(readStoredAuth()).toBeNull();
      // The navigation is a transition React may draw after the toast: wait for it.
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    });

    it('when the password is wrong, then the dialog stays open with the API message', async () => {
      mockApi(({ method }) =>
        method === 'DELETE'
          ? { status: 400, body: { message: 'Password is incorrect' } }
          : undefined,
      );
      const dialog = await openDialog();
      await userEvent.type(within(dialog).getByLabelText('Password'), 'nope');
      await userEvent.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
      expect(await within(dialog).findByText('Password is incorrect')).toBeVisible();
      expect(readStoredAuth()).not.toBeNull();
    });

    it('closes with Escape and forgets what was typed', async () => {
      mockApi();
      const dialog = await openDialog();
      await userEvent.type(within(dialog).getByLabelText('Password'), 'secret');
      await userEvent.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await userEvent.click(screen.getByRole('button', { name: 'Delete account' }));
      expect(
        within(await screen.findByRole('dialog', { name: 'Delete account' })).getByLabelText(
          'Password',
        ),
      ).toHaveValue('');
    });
  });
});
