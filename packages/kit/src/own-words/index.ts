// Your own words (issue 38): the '⋯' menu of every post and comment (the author's Edit, Delete
// and Copy link; anyone else's Report and Copy link), the edit dialog, the "edited" mark that
// opens the earlier versions, and the requests behind them. The dialogs' code is fetched the
// first time one opens (lazy-dialogs.tsx).
export { ActionsMenu } from './actions-menu';
export type { ActionItem, ActionsMenuProps } from './actions-menu';
export { PostMenu, DELETE_POST_CONFIRMATION } from './post-menu';
export type { PostMenuProps } from './post-menu';
export { CommentMenu, DELETE_COMMENT_CONFIRMATION, commentLink } from './comment-menu';
export type { CommentMenuProps } from './comment-menu';
export { EditedLabel } from './edited-label';
export { copyLink } from './copy-link';
export {
  deleteComment,
  deletePost,
  editComment,
  editPost,
  fetchVersions,
} from './own-words-requests';
