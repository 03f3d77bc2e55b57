/** Spec §1: a handle is '@' followed by the part of the e-mail address before the at-sign. */
export function handleFromEmail(email: string): string {
  const at = email.indexOf('@');
  return `@${at === -1 ? email : email.slice(0, at)}`;
}
