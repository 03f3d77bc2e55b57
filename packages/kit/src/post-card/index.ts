// The post card of spec §2, shared by the feed and the profile (a deliberate list).
export { PostCard } from './post-card';
export type { PostCardProps } from './post-card';
export { PostActionBar, likeLabel } from './post-action-bar';
export type { LikeControl, PostActionBarProps } from './post-action-bar';
export { PostCardSkeleton } from './post-card-skeleton';
export { RepostDialog } from './repost-dialog';
export type { RepostDialogProps } from './repost-dialog';
export { PostBody, QuotedPost, ORIGINAL_DELETED_TEXT } from './quoted-post';
export { PostImages } from './post-images';
export type { PostImagesProps } from './post-images';
export { imagesOf } from './image-sources';
export { ClampedText, POST_CLAMP_LINES } from './clamped-text';
export { usePostBookmark } from './use-post-bookmark';
export type { UsePostBookmarkOptions } from './use-post-bookmark';
export { usePostLike } from './use-post-like';
export type { LikeState, UsePostLikeOptions } from './use-post-like';
export { usePostRepost, REPOST_UNDONE_TEXT } from './use-post-repost';
export type { RepostState, UsePostRepostOptions } from './use-post-repost';
export type { OpenPostState } from './post-card';
export {
  creditedPost,
  isPlainRepost,
  isRepost,
  isSharedComment,
  repostPost,
  setPostBookmark,
  togglePostLike,
  undoRepost,
} from './post-requests';
export type { UndoneRepost } from './post-requests';
