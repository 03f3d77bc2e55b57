import { Schema, type Connection, type Model } from 'mongoose';

/** A post a member keeps for later (issue 40): private, seen and counted by no one else. */
export interface BookmarkDoc {
  _id: number;
  userId: number;
  postId: number;
  createdAt: Date;
}

const bookmarkSchema = new Schema<BookmarkDoc>(
  {
    _id: { type: Number, required: true },
    userId: { type: Number, required: true },
    postId: { type: Number, required: true },
    createdAt: { type: Date, required: true, immutable: true },
  },
  { versionKey: false },
);
// One bookmark per member and post; also answers "which of these posts did the viewer keep".
bookmarkSchema.index({ userId: 1, postId: 1 }, { unique: true });
// The Bookmarks page: the member's newest first, read in index order from the cursor.
bookmarkSchema.index({ userId: 1, createdAt: -1, _id: -1 });
// A deleted post's bookmarks go with it.
bookmarkSchema.index({ postId: 1 });

export type BookmarkModel = Model<BookmarkDoc>;

/** The Bookmark model on `connection` (each app binds its own: see src/models.ts). */
export function bookmarkModel(connection: Connection): BookmarkModel {
  return connection.model<BookmarkDoc>('Bookmark', bookmarkSchema, 'bookmarks');
}

/** This module's Bookmark model from the app context: only the bookmarks module reads it (lint). */
export const bookmarksOf = (ctx: { models: { Bookmark: BookmarkModel } }): BookmarkModel =>
  ctx.models.Bookmark;
