import { Schema, type Connection, type Model } from 'mongoose';

export interface AccountApplicationDoc {
  _id: number;
  name: string;
  contactInfo: string;
  message: string;
  status: 'pending' | 'approved' | 'rejected';
  /** When and by whom it was approved or rejected (null while pending). */
  decidedAt?: Date | null;
  decidedBy?: number | null;
  /** The reason given with a rejection, if any. */
  rejectionReason?: string | null;
  /**
   * Who applied, as their applications are grouped (issue 41: `applicantOf`, the e-mail address
   * in the contact information, else the contact information itself); absent on applications
   * stored before it until the start-up backfill gives them theirs.
   */
  applicant?: string;
  createdAt: Date;
}

const accountApplicationSchema = new Schema<AccountApplicationDoc>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true },
    contactInfo: { type: String, required: true },
    message: { type: String, required: true },
    status: { type: String, enum: ['pending', 'approved', 'rejected'], default: 'pending' },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: Number, default: null },
    rejectionReason: { type: String, default: null },
    applicant: { type: String },
    createdAt: { type: Date, default: () => new Date(), immutable: true, index: true },
  },
  { versionKey: false },
);
// The administrator's queue: one status, newest first.
accountApplicationSchema.index({ status: 1, createdAt: -1, _id: -1 });
// One applicant's applications, newest first (issue 41: grouped in the queue).
accountApplicationSchema.index({ applicant: 1, createdAt: -1 });

export type AccountApplicationModel = Model<AccountApplicationDoc>;

/** The AccountApplication model on `connection` (each app binds its own: see src/models.ts). */
export function accountApplicationModel(connection: Connection): AccountApplicationModel {
  return connection.model<AccountApplicationDoc>(
    'AccountApplication',
    accountApplicationSchema,
    'account_applications',
  );
}

/** This module's AccountApplication model from the app context: only the account-applications module reads it (lint). */
export const applicationsOf = (ctx: {
  models: { AccountApplication: AccountApplicationModel };
}): AccountApplicationModel => ctx.models.AccountApplication;
