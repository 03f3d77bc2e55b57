import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An invitation to register, made when the administrator approves an account application. It has
 * two links, each with its own random token (only their SHA-256 is stored): the one mailed to the
 * address found in the contact information, and the one the administrator sees and may hand
 * over. Either uses it up. Single use, for INVITATION_TTL_DAYS.
 */
export interface InvitationDoc {
  _id: number;
  /**
   * SHA-256 (hex) of the token of the mailed link. Only the mail carries it, so registering `email`
   * with it proves the mailbox. (Before issue 35 the one link was also shown to the administrator;
   * such invitations have no `emailedAt` and prove nothing.)
   */
  tokenHash: string;
  /** SHA-256 (hex) of the token of the link shown to the administrator (for hand delivery). */
  handTokenHash?: string;
  applicationId: number;
  /** The applicant's name, shown on the registration page. */
  name: string;
  /** The address found in the application's contact information (free text, unproven). */
  email: string | null;
  /** When the mailed link was sent to `email`; null while it was not (no address, mail failed). */
  emailedAt?: Date | null;
  expiresAt: Date;
  /** Set once, when an account is registered with it. */
  usedAt: Date | null;
  usedBy: number | null;
  createdAt: Date;
}

const invitationSchema = new Schema<InvitationDoc>(
  {
    _id: { type: Number, required: true },
    tokenHash: { type: String, required: true, unique: true },
    handTokenHash: { type: String, index: true },
    applicationId: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
    emailedAt: { type: Date, default: null },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
    usedBy: { type: Number, default: null },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);

export type InvitationModel = Model<InvitationDoc>;

/** The Invitation model on `connection` (each app binds its own: see src/models.ts). */
export function invitationModel(connection: Connection): InvitationModel {
  return connection.model<InvitationDoc>('Invitation', invitationSchema, 'invitations');
}

/** This module's Invitation model from the app context: only the invitations module reads it (lint). */
export const invitationsOf = (ctx: { models: { Invitation: InvitationModel } }): InvitationModel =>
  ctx.models.Invitation;
