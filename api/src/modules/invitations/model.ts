import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An invitation to register, made when the administrator approves an account application. The
 * link carries a random token; only its SHA-256 is stored. Single use, for INVITATION_TTL_DAYS.
 */
export interface InvitationDoc {
  _id: number;
  /** SHA-256 (hex) of the token in the link. */
  tokenHash: string;
  applicationId: number;
  /** The applicant's name, shown on the registration page. */
  name: string;
  /** The address found in the application's contact information (the link was mailed there). */
  email: string | null;
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
    applicationId: { type: Number, required: true, index: true },
    name: { type: String, required: true },
    email: { type: String, default: null },
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
