// What the report dialog sends and how it is titled: zod-free, so the kit's report entry point
// (the '⋯' menu on every post card) carries no validation library until a dialog opens.
import {
  callRoutes,
  type ReportCategory,
  type ReportResponse,
  type ReportTargetType,
} from '@campus/contracts';
import { callApi } from '@campus/kit/api';

/** The dialog's title for each kind of target. */
export const REPORT_TITLES: Record<ReportTargetType, string> = {
  post: 'Report post',
  comment: 'Report comment',
  user: 'Report user',
};

export interface ReportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  targetType: ReportTargetType;
  targetId: number;
}

/**
 * `POST /api/reports` (issue 18): a member reports a post, a comment or a member, once: with a
 * category and optional words (issue 38), or words alone (counted as "Something else").
 */
export function sendReport(
  targetType: ReportTargetType,
  targetId: number,
  report: string | { category: ReportCategory; reason?: string },
): Promise<ReportResponse> {
  const body =
    typeof report === 'string'
      ? { targetType, targetId, reason: report }
      : {
          targetType,
          targetId,
          category: report.category,
          ...(report.reason ? { reason: report.reason } : {}),
        };
  return callApi(callRoutes.sendReport, { body });
}
