/**
 * The address this device registered and has not signed in with yet (issue 41): the sign-in page
 * keeps saying "We sent a link to … · Resend" until that address signs in. Device storage, an
 * address and nothing of the session; storage blocked means the note lasts as long as the page.
 */
const PENDING_SIGN_UP_KEY = 'campus.pending-sign-up';

export function pendingSignUp(): string | null {
  try {
    const stored = window.localStorage.getItem(PENDING_SIGN_UP_KEY);
    return stored ? stored : null;
  } catch {
    return null;
  }
}

export function rememberPendingSignUp(email: string): void {
  try {
    window.localStorage.setItem(PENDING_SIGN_UP_KEY, email.trim().toLowerCase());
  } catch {
    // storage blocked: nothing to keep
  }
}

/** Forgets the pending sign-up once `email` (the address that signed in) is that address. */
export function signedInAs(email: string): void {
  if (pendingSignUp() !== email.trim().toLowerCase()) return;
  try {
    window.localStorage.removeItem(PENDING_SIGN_UP_KEY);
  } catch {
    // storage blocked: nothing was kept
  }
}
