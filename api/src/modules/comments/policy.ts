import type { AuthUser } from '../../platform/auth';
import type { CommentDoc } from './model';

/** Who may do what to a comment: the one place these rules live. */
export const commentPolicy = {
  /** Edit or delete it: its author only (the administrator removes through reports). */
  canChange(actor: Pick<AuthUser, 'id'>, comment: Pick<CommentDoc, 'authorId'>): boolean {
    return actor.id === comment.authorId;
  },
};
