import { z } from 'zod';
import { idSchema } from './common';
import { displayNameSchema, publicUserSchema } from './users';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

export const emailSchema = z
  .string('Email is required')
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Please enter a valid email address'));

export const loginRequestSchema = z.strictObject({
  email: emailSchema,
  password: z
    .string('Password is required')
    .min(1, 'Password is required')
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const registerRequestSchema = z.strictObject({
  name: displayNameSchema,
  email: emailSchema,
  password: z
    .string('Password is required')
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
  /**
   * The token of an invitation (`?invitation=` of the link an approved application received):
   * any e-mail domain is then allowed and the account is marked `affiliation: 'alumni'`.
   */
  invitationToken: z
    .string('Invitation token must be text')
    .max(200, 'This invitation link is invalid')
    .optional(),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** A new password: the same rule as at registration. */
export const newPasswordSchema = z
  .string('Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** A password the member types to prove it is them (checked by the API, not by length rules). */
const currentPasswordSchema = z
  .string('Password is required')
  .min(1, 'Password is required')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** `POST /api/auth/forgot-password` and `POST /api/auth/resend-verification` payload. */
export const emailOnlyRequestSchema = z.strictObject({ email: emailSchema });
export type EmailOnlyRequest = z.infer<typeof emailOnlyRequestSchema>;

/** `POST /api/auth/reset-password` payload. */
export const resetPasswordRequestSchema = z.strictObject({
  token: z.string('This reset link is invalid or has expired.').max(200),
  password: newPasswordSchema,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/**
 * `GET /api/auth/reset-password/:token` (issue 41): whether a reset link can still set a
 * password, so a used or expired one says so instead of showing the form. Looking changes nothing.
 */
export const resetLinkStatusSchema = z.object({
  valid: z.boolean(),
  /** Why not, when not valid. */
  message: z.string().optional(),
});
export type ResetLinkStatus = z.infer<typeof resetLinkStatusSchema>;

/**
 * `GET /api/auth/registration-rules` (issue 41): what the registration form can tell before a
 * submit. The institutional domains are the API's setting (`INSTITUTION_DOMAINS`).
 */
export const registrationRulesSchema = z.object({
  institutionDomains: z.array(z.string()),
  passwordMinLength: z.number().int().positive(),
});
export type RegistrationRules = z.infer<typeof registrationRulesSchema>;

/** `PUT /api/auth/password` payload. */
export const changePasswordRequestSchema = z.strictObject({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** `PUT /api/auth/password` response: a fresh token for this session (older ones are revoked). */
export const changePasswordResponseSchema = z.object({ token: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;

/**
 * `POST /api/auth/forgot-password`, `POST /api/auth/resend-verification` (202) and
 * `POST /api/auth/reset-password` (200): a message and nothing else, the same whether or not the
 * account exists, so no address can be probed.
 */
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

/** Calls that answer 204 No Content (logout-all, delete account): no body at all. */
export const noContentResponseSchema = z.strictObject({});

/** `DELETE /api/users/:id` payload: the member's password, so a stolen session cannot delete. */
export const deleteAccountRequestSchema = z.strictObject({ password: currentPasswordSchema });
export type DeleteAccountRequest = z.infer<typeof deleteAccountRequestSchema>;

/**
 * The message of the 401 the API answers for a token issued before the member's last password
 * change, reset or "sign out of all devices": the client signs out and shows it, instead of a
 * silent logout.
 */
export const SESSION_REVOKED_MESSAGE =
  'Your session has ended because your password was changed or you signed out of all devices. Please sign in again.';

/** The user part of the stored local auth state (spec §3). */
export const sessionUserSchema = z.object({
  id: idSchema,
  name: z.string(),
  email: z.string(),
  avatarUrl: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const loginResponseSchema = z.object({
  user: publicUserSchema,
  token: z.string(),
  /**
   * Set only on the member's first sign-in ever (issue 41): the server records it once, so the
   * client opens the first run (avatar, bio, people to follow) for that one sign-in.
   */
  firstSignIn: z.literal(true).optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const registerResponseSchema = z.object({
  message: z.string(),
  user: publicUserSchema,
  /**
   * Set when the registration is verified at once (the mailed invitation link, issue 41): this
   * browser is signed in now (the answer set its session cookies).
   */
  signedIn: z.literal(true).optional(),
  /**
   * Set only on the member's first sign-in ever (issue 41): the server records it once, so the
   * client opens the first run (avatar, bio, people to follow) for that one sign-in.
   */
  firstSignIn: z.literal(true).optional(),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/**
 * `GET /api/auth/verify/:token` and `POST /api/auth/verify/:token`: success carries `message`;
 * failure (400) also carries `error`. A verification link proves the mailbox, not the password
 * typed at registration: only the browser that registered (its sign-up cookie) verifies with one
 * click. Opened anywhere else, the link stays valid and the answer is 200 with `passwordRequired:
 * true`: whoever holds the link chooses the password (`POST` with `{ password }`), and the one
 * typed at registration is discarded (docs/security.md).
 */
export const verifyResponseSchema = z.object({
  message: z.string(),
  error: z.string().optional(),
  passwordRequired: z.literal(true).optional(),
  /**
   * Set when the browser that registered opened its link (issue 41): it is signed in now (the
   * answer set its session cookies), as the member whose stored user this is.
   */
  user: publicUserSchema.optional(),
  /**
   * Set only on the member's first sign-in ever (issue 41): the server records it once, so the
   * client opens the first run (avatar, bio, people to follow) for that one sign-in.
   */
  firstSignIn: z.literal(true).optional(),
});
export type VerifyResponse = z.infer<typeof verifyResponseSchema>;

/** `POST /api/auth/verify/:token` payload: the password of the verified account. */
export const verifyWithPasswordRequestSchema = z.strictObject({ password: newPasswordSchema });
export type VerifyWithPasswordRequest = z.infer<typeof verifyWithPasswordRequestSchema>;

/**
 * What a signed-in member may do beyond reading and posting. Every member has `member`; the API
 * alone decides who also has `admin` (its `ADMIN_USER_ID`), so no client hard-codes an id.
 */
export const roleSchema = z.enum(['member', 'admin']);
export type Role = z.infer<typeof roleSchema>;

/** `GET /api/auth/me`: the caller behind the token and their roles. */
export const authMeResponseSchema = z.object({
  user: publicUserSchema,
  roles: z.array(roleSchema),
});
export type AuthMeResponse = z.infer<typeof authMeResponseSchema>;

/** Whether an e-mail address belongs to one of the institutional domains (exact domain match). */
export function isInstitutionalEmail(email: string, domains: readonly string[]): boolean {
  const at = email.lastIndexOf('@');
  if (at < 1) return false;
  const domain = email.slice(at + 1).toLowerCase();
  return domains.some((allowed) => allowed.toLowerCase() === domain);
}
