import type { DomainEvent } from '../../domain-events';
import type { PostDoc } from './model';

/** The event of a post just stored; a repost or quote names its original's author. */
export function postCreated(
  post: Pick<PostDoc, '_id' | 'authorId' | 'createdAt' | 'isJdTagged' | 'originalPostId' | 'tags'>,
  originalAuthorId: number | null = null,
): DomainEvent {
  return {
    type: 'post.created',
    postId: post._id,
    authorId: post.authorId,
    createdAt: post.createdAt,
    isJdTagged: post.isJdTagged,
    originalPostId: post.originalPostId ?? null,
    originalAuthorId,
    ...(post.tags?.length ? { tags: post.tags } : {}),
  };
}
