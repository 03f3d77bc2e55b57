// Reporting (issue 18): the dialog every app opens to report a post, a comment or a member, and
// the '⋯' menu that offers it on post cards, comments and profiles.
export { ReportDialog, REPORT_TITLES, sendReport } from './report-dialog';
export type { ReportDialogProps } from './report-dialog';
export { ReportMenu } from './report-menu';
export type { ReportMenuProps } from './report-menu';
