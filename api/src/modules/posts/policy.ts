import type { AuthUser } from '../../platform/auth';
import type { PostDoc } from './model';

/**
 * Who may do what to a post: the one place these rules live. `canDelete` is also sent on every
 * post, so clients show the delete control exactly when the API would allow it.
 */
export const postPolicy = {
  /** Its author only (not the administrator). */
  canDelete(actor: Pick<AuthUser, 'id'>, post: Pick<PostDoc, 'authorId'>): boolean {
    return actor.id === post.authorId;
  },
  /** Edit its text: its author only (what text: `editablePostText` in @campus/contracts). */
  canEdit(actor: Pick<AuthUser, 'id'>, post: Pick<PostDoc, 'authorId'>): boolean {
    return actor.id === post.authorId;
  },
  /** A post that quotes another (a repost, or a comment shared to the timeline) cannot be reposted. */
  canRepost(post: Pick<PostDoc, 'originalPostId'>): boolean {
    return post.originalPostId === null;
  },
};
