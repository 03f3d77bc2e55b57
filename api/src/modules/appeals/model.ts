import { Schema, type Connection, type Model } from 'mongoose';
import {
  APPEAL_STATUSES,
  DECISION_KINDS,
  REPORT_CATEGORIES,
  type AppealStatus,
  type DecisionKind,
  type ReportCategory,
} from '@campus/contracts';

/**
 * One removal or suspension the administrator decided (issue 38), with the reason the member is
 * shown. `in_force` until lifted (an appeal lifted, or the member reactivated from the members
 * page).
 */
export interface DecisionDoc {
  _id: number;
  kind: DecisionKind;
  /** Whom it concerns: the suspended member, or the author of what was removed. */
  memberId: number;
  category: ReportCategory;
  text: string | null;
  /** The removed post or comment (the member's id for a suspension). */
  targetId: number;
  /** The removed post, or the removed comment's post; null for a suspension. */
  postId: number | null;
  /** The start of what was removed; null for a suspension. */
  content: string | null;
  /** The removed comment's replies and its copies shared to timelines (what lifting restores). */
  alsoRemoved: { commentIds: number[]; postIds: number[] };
  /** When it was removed or suspended (a lift restores what was removed at that moment). */
  decidedAt: Date;
  decidedBy: number;
  status: 'in_force' | 'lifted';
  /**
   * A suspended member's sign-in (right password, 403) gets a ticket to appeal with: its SHA-256
   * and expiry; null once appealed.
   */
  ticketHash: string | null;
  ticketExpiresAt: Date | null;
  createdAt: Date;
}

const decisionSchema = new Schema<DecisionDoc>(
  {
    _id: { type: Number, required: true },
    kind: { type: String, enum: DECISION_KINDS, required: true },
    memberId: { type: Number, required: true },
    category: { type: String, enum: REPORT_CATEGORIES, required: true },
    text: { type: String, default: null },
    targetId: { type: Number, required: true },
    postId: { type: Number, default: null },
    content: { type: String, default: null },
    alsoRemoved: {
      type: new Schema(
        { commentIds: { type: [Number], default: [] }, postIds: { type: [Number], default: [] } },
        { _id: false },
      ),
      default: () => ({ commentIds: [], postIds: [] }),
    },
    decidedAt: { type: Date, required: true },
    decidedBy: { type: Number, required: true },
    status: { type: String, enum: ['in_force', 'lifted'], default: 'in_force' },
    ticketHash: { type: String, default: null },
    ticketExpiresAt: { type: Date, default: null },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// A member's suspension in force (at most one: a suspended member cannot be suspended again).
decisionSchema.index({ memberId: 1, kind: 1, status: 1 });
decisionSchema.index({ ticketHash: 1 }, { sparse: true });

/** A member's appeal of one decision: at most one per decision, ever (unique index). */
export interface AppealDoc {
  _id: number;
  decisionId: number;
  memberId: number;
  text: string;
  status: AppealStatus;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: number | null;
  response: string | null;
}

const appealSchema = new Schema<AppealDoc>(
  {
    _id: { type: Number, required: true },
    decisionId: { type: Number, required: true },
    memberId: { type: Number, required: true },
    text: { type: String, required: true },
    status: { type: String, enum: APPEAL_STATUSES, default: 'pending' },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
    decidedAt: { type: Date, default: null },
    decidedBy: { type: Number, default: null },
    response: { type: String, default: null },
  },
  { versionKey: false },
);
appealSchema.index({ decisionId: 1 }, { unique: true });
// The administrator's queue: one status, by time.
appealSchema.index({ status: 1, createdAt: 1, _id: 1 });

export type DecisionModel = Model<DecisionDoc>;
export type AppealModel = Model<AppealDoc>;

/** The Decision model on `connection` (each app binds its own: see src/models.ts). */
export function decisionModel(connection: Connection): DecisionModel {
  return connection.model<DecisionDoc>('Decision', decisionSchema, 'moderation_decisions');
}

/** The Appeal model on `connection`. */
export function appealModel(connection: Connection): AppealModel {
  return connection.model<AppealDoc>('Appeal', appealSchema, 'appeals');
}

/** This module's Decision model from the app context: only the appeals module reads it (lint). */
export const decisionsOf = (ctx: { models: { Decision: DecisionModel } }): DecisionModel =>
  ctx.models.Decision;

/** This module's Appeal model from the app context: only the appeals module reads it (lint). */
export const appealsOf = (ctx: { models: { Appeal: AppealModel } }): AppealModel =>
  ctx.models.Appeal;
