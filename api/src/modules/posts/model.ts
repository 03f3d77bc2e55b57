import { Schema, type Connection, type Model } from 'mongoose';
import type { StoredImage } from '../media/present';
import { storedMentionsField, type StoredMention } from '../mentions/stored';
import { keepPostTags } from './post-tags';

export interface PostDoc {
  _id: number;
  authorId: number;
  /** The text. Empty for a plain repost (the original's content is shown instead). */
  content: string;
  isJdTagged: boolean;
  /** False: the post appears in feeds but not on its author's profile. */
  syncToProfile: boolean;
  /** Set for reposts and for comments shared to the timeline: the post they quote. */
  originalPostId: number | null;
  /** A repost's optional quote. */
  repostComment: string | null;
  /** Set when the post is a comment shared to the commenter's timeline. */
  sharedCommentId: number | null;
  likesCount: number;
  commentsCount: number;
  repostsCount: number;
  /** Soft delete: deleted posts never appear, reposts of them show the original as deleted. */
  deletedAt: Date | null;
  /** When its author last edited its text (absent: never); earlier texts in modules/versions. */
  editedAt?: Date | null;
  /**
   * Its pictures (issue 39), as attached (modules/media `attachMedia`); absent when none. A
   * deleted post loses them (their files are deleted).
   */
  images?: StoredImage[];
  /**
   * Its @mentions (issue 40), in its own text (`content`, or `repostComment` of a quote or a
   * shared comment); absent when none (modules/mentions).
   */
  mentions?: StoredMention[];
  /**
   * True while the author is suspended: the post is hidden from everyone (feeds, profile, detail,
   * notifications) until the author is reactivated. Absent for most posts.
   */
  authorSuspended?: boolean;
  /**
   * Its hashtags (issue 40): `extractTags` of its own text (`content`, or a quote's
   * `repostComment`), normalized, at most 10; kept in step by post-tags.ts. Absent on a post
   * stored before tags existed until the start-up backfill gives it them.
   */
  tags?: string[];
  createdAt: Date;
}

const postSchema = new Schema<PostDoc>(
  {
    _id: { type: Number, required: true },
    authorId: { type: Number, required: true },
    content: { type: String, default: '' },
    isJdTagged: { type: Boolean, default: false },
    syncToProfile: { type: Boolean, default: true },
    originalPostId: { type: Number, default: null },
    repostComment: { type: String, default: null },
    sharedCommentId: { type: Number, default: null },
    likesCount: { type: Number, default: 0, min: 0 },
    commentsCount: { type: Number, default: 0, min: 0 },
    repostsCount: { type: Number, default: 0, min: 0 },
    deletedAt: { type: Date, default: null },
    editedAt: { type: Date },
    images: {
      type: [
        new Schema(
          {
            id: { type: String, required: true },
            alt: { type: String, default: '' },
            width: { type: Number, required: true },
            height: { type: Number, required: true },
            placeholder: { type: String, required: true },
            variants: {
              type: [
                new Schema(
                  {
                    name: { type: String, required: true },
                    width: { type: Number, required: true },
                    height: { type: Number, required: true },
                    type: { type: String, required: true },
                  },
                  { _id: false },
                ),
              ],
              required: true,
            },
          },
          { _id: false },
        ),
      ],
      default: undefined,
    },
    mentions: storedMentionsField,
    authorSuspended: { type: Boolean },
    tags: { type: [String], default: undefined },
    createdAt: { type: Date, default: () => new Date(), immutable: true },
  },
  { versionKey: false },
);
// For You (and Top Posts' range on today): visible posts, newest first.
postSchema.index({ deletedAt: 1, createdAt: -1, _id: -1 });
// Following: the followed authors' visible posts, newest first.
postSchema.index({ authorId: 1, deletedAt: 1, createdAt: -1, _id: -1 });
// JD tab.
postSchema.index({ isJdTagged: 1, deletedAt: 1, createdAt: -1, _id: -1 });
// Profile: an author's visible posts that are synced to the profile.
postSchema.index({ authorId: 1, syncToProfile: 1, deletedAt: 1, createdAt: -1, _id: -1 });

// Tag pages (a tag's visible posts, newest first), trending tags and followed tags (issue 40).
postSchema.index({ tags: 1, deletedAt: 1, createdAt: -1, _id: -1 });
// Post search (issue 40): the post's own text; a plain repost has none and is never a result.
postSchema.index(
  { content: 'text', repostComment: 'text' },
  { name: 'post_text', default_language: 'english' },
);
keepPostTags(postSchema);

// The app's feed cache (read-caches.ts, posts/feed-cache.ts) forgets what these writes change.
export type PostModel = Model<PostDoc>;

/** The Post model on `connection` (each app binds its own: see src/models.ts). */
export function postModel(connection: Connection): PostModel {
  return connection.model<PostDoc>('Post', postSchema, 'posts');
}

/** This module's Post model from the app context: only the posts module reads it (lint). */
export const postsOf = (ctx: { models: { Post: PostModel } }): PostModel => ctx.models.Post;
