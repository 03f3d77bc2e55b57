import { Schema, type Connection, type Model } from 'mongoose';
import {
  REPORT_CATEGORIES,
  REPORT_RESOLUTIONS,
  REPORT_TARGET_TYPES,
  type ReportCategory,
  type ReportResolution,
  type ReportTargetType,
} from '@campus/contracts';

/** One member's report of one target: at most one per member and target, ever (unique index). */
export interface ReportDoc {
  _id: number;
  reporterId: number;
  targetType: ReportTargetType;
  targetId: number;
  /** What is wrong (issue 38); absent on reports from before categories (read as `other`). */
  category?: ReportCategory;
  /** The reporter's words; empty when they gave none. */
  reason: string;
  /** The group (ReportCase) it was counted in. */
  caseId: number;
  createdAt: Date;
}

const reportSchema = new Schema<ReportDoc>(
  {
    _id: { type: Number, required: true },
    reporterId: { type: Number, required: true },
    targetType: { type: String, enum: REPORT_TARGET_TYPES, required: true },
    targetId: { type: Number, required: true },
    category: { type: String, enum: REPORT_CATEGORIES },
    reason: { type: String, default: '' },
    caseId: { type: Number, required: true, index: true },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
reportSchema.index({ reporterId: 1, targetType: 1, targetId: 1 }, { unique: true });

/**
 * The reports of one target, as the administrator handles them: open until resolved. A target
 * has at most one open case (a unique partial index); reported again after a dismissal, it gets
 * a new one.
 */
export interface ReportCaseDoc {
  _id: number;
  targetType: ReportTargetType;
  targetId: number;
  status: 'open' | 'resolved';
  reportCount: number;
  /**
   * The categories its reports gave, each once (issue 38: the queue's filter); absent on cases
   * from before categories, whose reports count as `other`.
   */
  categories?: ReportCategory[];
  lastReportedAt: Date;
  resolution: {
    action: ReportResolution;
    resolvedAt: Date;
    /** The administrator; null when the API closed it (`gone`). */
    resolvedBy: number | null;
    /** A removal's reason, as its author (or the suspended member) is shown it. */
    category?: ReportCategory | null;
    reasonText?: string | null;
  } | null;
  createdAt: Date;
}

const reportCaseSchema = new Schema<ReportCaseDoc>(
  {
    _id: { type: Number, required: true },
    targetType: { type: String, enum: REPORT_TARGET_TYPES, required: true },
    targetId: { type: Number, required: true },
    status: { type: String, enum: ['open', 'resolved'], default: 'open' },
    reportCount: { type: Number, default: 0, min: 0 },
    categories: { type: [{ type: String, enum: REPORT_CATEGORIES }], default: undefined },
    lastReportedAt: { type: Date, required: true },
    resolution: {
      type: new Schema(
        {
          action: { type: String, enum: REPORT_RESOLUTIONS, required: true },
          resolvedAt: { type: Date, required: true },
          resolvedBy: { type: Number, default: null },
          category: { type: String, enum: [...REPORT_CATEGORIES, null], default: null },
          reasonText: { type: String, default: null },
        },
        { _id: false },
      ),
      default: null,
    },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
reportCaseSchema.index(
  { targetType: 1, targetId: 1 },
  { unique: true, partialFilterExpression: { status: 'open' } },
);
// The administrator's queue: one status, most recently reported first.
reportCaseSchema.index({ status: 1, lastReportedAt: -1, _id: -1 });
// The same, of one category (issue 38).
reportCaseSchema.index({ status: 1, categories: 1, lastReportedAt: -1, _id: -1 });

export type ReportModel = Model<ReportDoc>;
export type ReportCaseModel = Model<ReportCaseDoc>;

/** The Report model on `connection` (each app binds its own: see src/models.ts). */
export function reportModel(connection: Connection): ReportModel {
  return connection.model<ReportDoc>('Report', reportSchema, 'reports');
}

/** The ReportCase model on `connection`. */
export function reportCaseModel(connection: Connection): ReportCaseModel {
  return connection.model<ReportCaseDoc>('ReportCase', reportCaseSchema, 'report_cases');
}

/** This module's Report model from the app context: only the reports module reads it (lint). */
export const reportsOf = (ctx: { models: { Report: ReportModel } }): ReportModel =>
  ctx.models.Report;

/** This module's ReportCase model from the app context: only the reports module reads it (lint). */
export const reportCasesOf = (ctx: { models: { ReportCase: ReportCaseModel } }): ReportCaseModel =>
  ctx.models.ReportCase;
