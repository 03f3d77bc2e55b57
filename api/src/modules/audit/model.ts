import { Schema, type Connection, type Model } from 'mongoose';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  type AuditTargetType,
} from '@campus/contracts';

export type AuditDetails = Record<string, string | number | boolean | null>;

/** One administrator action, written when it happens and never changed. */
export interface AuditEntryDoc {
  _id: number;
  adminId: number;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: number;
  details: AuditDetails;
  createdAt: Date;
}

const auditEntrySchema = new Schema<AuditEntryDoc>(
  {
    _id: { type: Number, required: true },
    adminId: { type: Number, required: true },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    targetType: { type: String, enum: AUDIT_TARGET_TYPES, required: true },
    targetId: { type: Number, required: true },
    details: { type: Schema.Types.Mixed, default: {} },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false, minimize: false },
);
auditEntrySchema.index({ createdAt: -1, _id: -1 });

export type AuditEntryModel = Model<AuditEntryDoc>;

/** The AuditEntry model on `connection` (each app binds its own: see src/models.ts). */
export function auditEntryModel(connection: Connection): AuditEntryModel {
  return connection.model<AuditEntryDoc>('AuditEntry', auditEntrySchema, 'audit_log');
}

/** This module's AuditEntry model from the app context: only the audit module reads it (lint). */
export const auditLogOf = (ctx: { models: { AuditEntry: AuditEntryModel } }): AuditEntryModel =>
  ctx.models.AuditEntry;
