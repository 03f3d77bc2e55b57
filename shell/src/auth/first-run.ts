/**
 * Whether this tab owes the signed-in member their first run (issue 41): set when a sign-in's
 * answer says `firstSignIn` (the API says it for one sign-in only), forgotten on Skip, Done and
 * sign-out. The tab's sessionStorage, so a reload mid-run shows the run again; it holds the
 * member's id, so another member signing in later in the tab is not shown it. Storage blocked:
 * the run lasts as long as the page.
 */
import { warmRemote } from '../composition/remote-slot';

const FIRST_RUN_KEY = 'campus.first-run';

let inMemory: string | null = null;

function read(): string | null {
  try {
    return window.sessionStorage.getItem(FIRST_RUN_KEY);
  } catch {
    return inMemory;
  }
}

/**
 * Remembers that `userId`'s first run is pending, when the sign-in's answer says it is the first,
 * and starts loading the run's dialog while the session is confirmed and the feed loads.
 */
export function rememberFirstRun(userId: number, firstSignIn: boolean | undefined): void {
  if (!firstSignIn) return;
  warmRemote('mf_profile', 'FirstRunDialog');
  inMemory = String(userId);
  try {
    window.sessionStorage.setItem(FIRST_RUN_KEY, inMemory);
  } catch {
    // storage blocked: kept in memory only
  }
}

/** Whether `userId` has a first run pending in this tab. */
export function firstRunPending(userId: number | undefined): boolean {
  return userId !== undefined && read() === String(userId);
}

/** Forgets the pending first run (Skip, Done, sign-out). */
export function forgetFirstRun(): void {
  inMemory = null;
  try {
    window.sessionStorage.removeItem(FIRST_RUN_KEY);
  } catch {
    // storage blocked: nothing was kept
  }
}
