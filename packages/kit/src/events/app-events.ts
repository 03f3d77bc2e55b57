import { useEffect, useRef } from 'react';

/** `revoked`: the API ended the session and said why (the member changed or reset their
 * password, signed out of all devices or of this session elsewhere, the session's sign-in was
 * reused, its signing key was retired, the account was suspended): `message` says it. `expired`:
 * the API answered 401 and the session could not be renewed. */
export type SignOutReason = 'revoked' | 'expired';

/**
 * The window events the apps use to tell each other what happened. They are plain DOM
 * CustomEvents on `window` under these exact names, so code outside React can listen too.
 */
export interface AppEventMap {
  postCreated: { postId?: number };
  postDeleted: { postId: number };
  /** Its author edited the post's text (lists showing it read it again). */
  postEdited: { postId: number };
  profileChanged: { userId: number };
  /** The member muted or blocked `userId` (issue 38): lists showing their posts read again. */
  memberHidden: { userId: number };
  /** `reason` says why a member was signed out when it was not their own doing. */
  authChanged: { signedIn: boolean; reason?: SignOutReason; message?: string };
}

export type AppEventName = keyof AppEventMap;

export function emitAppEvent<K extends AppEventName>(name: K, detail: AppEventMap[K]): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Subscribes to an app event; returns the unsubscribe function. */
export function onAppEvent<K extends AppEventName>(
  name: K,
  handler: (detail: AppEventMap[K]) => void,
): () => void {
  const listener = (event: Event) => handler((event as CustomEvent<AppEventMap[K]>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}

/** Calls the latest `handler` on every `name` event while the component is mounted. */
export function useAppEvent<K extends AppEventName>(
  name: K,
  handler: (detail: AppEventMap[K]) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onAppEvent(name, (detail) => latest.current(detail)), [name]);
}
