import { useState } from 'react';
import styled from 'styled-components';
import { Button } from '@campus/kit/ui';
import { AppearanceSettings } from './appearance-settings';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccountDialog } from './delete-account-dialog';
import { PrivacyAndSafety } from './privacy-safety';
import { SessionsList } from './sessions-list';
import { SignOutEverywhereButton } from './sign-out-everywhere';

const Page = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  margin: ${({ theme }) => theme.space(4)};

  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
`;

const Section = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  justify-items: start;
  padding: ${({ theme }) => theme.space(6)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};

  h2 {
    margin: 0;
    font-size: 1rem;
  }
  p {
    margin: 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
  & > form {
    width: 100%;
    max-width: 420px;
  }
  li p {
    margin-top: ${({ theme }) => theme.space(1)};
  }
`;

/**
 * /settings: the signed-in member's account: password, sessions, privacy and safety (blocks,
 * mutes, muted words), this device's appearance (light or dark), and leaving for good.
 */
export default function SettingsPage() {
  const [deleteOpen, setDeleteOpen] = useState(false);
  return (
    <Page>
      <h1>Settings</h1>
      <Section aria-labelledby="settings-password">
        <h2 id="settings-password">Change password</h2>
        <p>Changing your password signs out your other devices.</p>
        <ChangePasswordForm />
      </Section>
      <Section aria-labelledby="settings-devices">
        <h2 id="settings-devices">Where you&apos;re signed in</h2>
        <p>Every device signed in to your account. Sign out one you no longer use or recognise.</p>
        <SessionsList headingId="settings-devices" />
      </Section>
      <Section aria-labelledby="settings-safety">
        <h2 id="settings-safety">Privacy and safety</h2>
        <p>Members you block or mute, and words you mute. Nobody is told; undo any of them here.</p>
        <PrivacyAndSafety />
      </Section>
      <Section aria-labelledby="settings-appearance">
        <h2 id="settings-appearance">Appearance</h2>
        <p>Follow your system&apos;s setting, or always use light or dark. Kept on this device.</p>
        <AppearanceSettings headingId="settings-appearance" />
      </Section>
      <Section aria-labelledby="settings-sessions">
        <h2 id="settings-sessions">Sign out of all devices</h2>
        <p>Ends every session of your account, this one included.</p>
        <SignOutEverywhereButton />
      </Section>
      <Section aria-labelledby="settings-delete">
        <h2 id="settings-delete">Delete account</h2>
        <p>Removes your account and everything you shared. This cannot be undone.</p>
        <Button variant="destructive" onClick={() => setDeleteOpen(true)}>
          Delete account
        </Button>
        <DeleteAccountDialog open={deleteOpen} onOpenChange={setDeleteOpen} />
      </Section>
    </Page>
  );
}
