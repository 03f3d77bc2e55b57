// Reporting (issue 18): the dialog every app opens to report a post, a comment or a member, and
// the '⋯' menu that offers it on post cards, comments and profiles. The dialog's own code (and
// zod, which validates the reason) is fetched when a dialog first opens (lazy-report-dialog.tsx).
export { ReportDialog } from './lazy-report-dialog';
export { REPORT_TITLES, sendReport } from './report-request';
export type { ReportDialogProps } from './report-request';
export { ReportMenu } from './report-menu';
export type { ReportMenuProps } from './report-menu';
