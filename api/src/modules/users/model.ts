import { Schema, type Connection, type Model } from 'mongoose';
import {
  BIO_MAX_LENGTH,
  NAME_MAX_LENGTH,
  REPORT_CATEGORIES,
  type ReportCategory,
} from '@campus/contracts';
import { keepSearchTerms } from './search-terms';

export interface UserDoc {
  _id: number;
  name: string;
  /** Stored lowercased: the unique index makes e-mail unique case-insensitively. */
  email: string;
  /** bcrypt hash. */
  password: string;
  avatarUrl: string | null;
  bio: string;
  isVerified: boolean;
  /** SHA-256 of the e-mail verification token; null once used. */
  verificationToken: string | null;
  /**
   * SHA-256 of the secret in the sign-up cookie of the browser that registered (auth/sign-up-
   * cookie.ts): the verification link keeps the registration password only when opened with it.
   * Null (or absent: sign-ups older than it) once verified, and for accounts that never had one.
   */
  signUpSecretHash?: string | null;
  passwordResetToken: string | null;
  passwordResetExpires: Date | null;
  lastPasswordChange: Date | null;
  /**
   * Tokens issued before this are refused (401): set by a password reset or change and by "sign
   * out of all devices". Null: every unexpired token of the account is valid.
   */
  tokensValidAfter: Date | null;
  /**
   * When an unverified sign-up is removed by the TTL index (48 hours after its latest link);
   * unset once the e-mail is verified, so verified accounts never expire.
   */
  unverifiedExpiresAt?: Date;
  /** Last authenticated request, recorded at most once per ACTIVITY_THROTTLE_MS (DAU/MAU). */
  lastActiveAt: Date | null;
  /** `alumni` for accounts registered through an invitation; absent for everyone else. */
  affiliation?: 'alumni';
  /**
   * Set while the administrator has suspended the account: it cannot sign in, its tokens are
   * refused and its posts and comments are hidden. Null (or absent) when active.
   */
  suspendedAt?: Date | null;
  suspensionReason?: string | null;
  /** The category of the suspension's reason (issue 38); absent on older suspensions. */
  suspensionCategory?: ReportCategory | null;
  /**
   * When the member first signed in (issue 41): set once, atomically, by that sign-in, which then
   * answers `firstSignIn: true` (the client's first run). Absent until then; the demo members and
   * the accounts of older versions (migration 0004-first-signed-in) have it.
   */
  firstSignedInAt?: Date;
  /** People search: name words, the whole name and the e-mail, normalized (search-terms.ts). */
  searchTerms?: string[];
  createdAt: Date;
}

const userSchema = new Schema<UserDoc>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true, trim: true, maxlength: NAME_MAX_LENGTH },
    email: { type: String, required: true, trim: true, lowercase: true, unique: true },
    password: { type: String, required: true },
    avatarUrl: { type: String, default: null },
    bio: { type: String, default: '', maxlength: BIO_MAX_LENGTH },
    isVerified: { type: Boolean, default: false },
    verificationToken: { type: String, default: null, index: true },
    signUpSecretHash: { type: String, default: null },
    passwordResetToken: { type: String, default: null },
    passwordResetExpires: { type: Date, default: null },
    lastPasswordChange: { type: Date, default: null },
    tokensValidAfter: { type: Date, default: null },
    unverifiedExpiresAt: { type: Date },
    lastActiveAt: { type: Date, default: null, index: true },
    affiliation: { type: String, enum: ['alumni'] },
    suspendedAt: { type: Date, default: null, index: true },
    suspensionReason: { type: String, default: null },
    suspensionCategory: { type: String, enum: [...REPORT_CATEGORIES, null], default: null },
    firstSignedInAt: { type: Date },
    searchTerms: { type: [String], default: undefined },
    createdAt: { type: Date, default: () => new Date(), immutable: true, index: true },
  },
  { versionKey: false },
);

// Unverified sign-ups expire: an address nobody proved they own does not stay taken (MongoDB's
// TTL monitor removes the document once `unverifiedExpiresAt` has passed; verified accounts have
// no such field). Reset links are looked up by their hash.
userSchema.index({ unverifiedExpiresAt: 1 }, { expireAfterSeconds: 0 });
userSchema.index({ passwordResetToken: 1 });

// People search: a prefix of a term is an index range (multikey); the model keeps the terms.
userSchema.index({ searchTerms: 1 });
// ...and a domain every member's address is at is read in name order, up to the page (issue 42).
userSchema.index({ name: 1, _id: 1 });
keepSearchTerms(userSchema);

// The app's author and account caches (read-caches.ts) forget what these writes change.
export type UserModel = Model<UserDoc>;

/** The User model on `connection` (each app binds its own: see src/models.ts). */
export function userModel(connection: Connection): UserModel {
  return connection.model<UserDoc>('User', userSchema, 'users');
}

/** This module's User model from the app context: only the users module reads it (lint). */
export const usersOf = (ctx: { models: { User: UserModel } }): UserModel => ctx.models.User;
