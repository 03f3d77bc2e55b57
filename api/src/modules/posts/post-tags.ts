/**
 * A post's hashtags (issue 40), stored normalized in `tags`: `extractTags` (contracts,
 * text-entities.ts) of the post's own text, which is `content` for a post and `repostComment`
 * for a quote or a comment shared to the timeline (the other field is empty for each kind, and
 * a plain repost has neither: no tags). Tag pages, trending tags and followed tags read them
 * through the `{ tags, deletedAt, createdAt, _id }` index.
 *
 * The model keeps them in step (as users' `searchTerms`): saving or inserting a post computes
 * them, and a query write that sets `content` or `repostComment` (an edit of a post, of a quote,
 * of a shared comment's copy) sets `tags` in the same update. Posts stored before tags existed
 * get theirs from `backfillPostTags`, run once by the migration 0001-post-tags.
 */
import { extractTags } from '@campus/contracts';
import { trusted, type mongo, type Schema } from 'mongoose';
import type { PostModel } from './model';

type OwnText = { content?: string | null; repostComment?: string | null };

/** The tags of a post's own text. */
export function tagsOfPost(post: OwnText): string[] {
  const text = [post.content, post.repostComment].filter((t): t is string => !!t).join('\n');
  return text ? extractTags(text) : [];
}

const TEXT_FIELDS = ['content', 'repostComment'] as const;

const QUERY_WRITES = ['updateOne', 'updateMany', 'findOneAndUpdate'] as const;

type QueryThis = {
  getUpdate(): unknown;
  setUpdate(update: unknown): void;
};

/** Keeps `tags` in step with every write of a post's text through the model. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the posts schema
export function keepPostTags(schema: Schema<any>): void {
  schema.pre(
    'save',
    function (this: OwnText & { tags?: string[]; isNew: boolean; isModified(p: string): boolean }) {
      if (this.isNew || TEXT_FIELDS.some((f) => this.isModified(f))) this.tags = tagsOfPost(this);
    },
  );
  schema.pre('insertMany', function (this: unknown, docs: unknown) {
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc && typeof doc === 'object') {
        const post = doc as OwnText & { tags?: string[] };
        post.tags = tagsOfPost(post);
      }
    }
  });
  for (const op of QUERY_WRITES) {
    schema.pre(op, { document: false, query: true }, function (this: QueryThis) {
      const update = this.getUpdate();
      if (!update || typeof update !== 'object' || Array.isArray(update)) return;
      const set = (update as { $set?: Record<string, unknown> }).$set;
      if (!set || !TEXT_FIELDS.some((f) => typeof set[f] === 'string')) return;
      // Only one of the two fields carries a post's own text (the other is empty for its kind),
      // so the text being set is the whole of it.
      set.tags = tagsOfPost({
        content: typeof set.content === 'string' ? set.content : null,
        repostComment: typeof set.repostComment === 'string' ? set.repostComment : null,
      });
    });
  }
}

const BACKFILL_BATCH = 500;

type Stored = { _id: number; content?: string; repostComment?: string | null };

/** Gives every post stored without tags its tags; returns how many it updated. */
export async function backfillPostTags(Post: PostModel): Promise<number> {
  const raw = Post.collection as unknown as mongo.Collection<Stored & { tags?: string[] }>;
  let updated = 0;
  for (;;) {
    const posts = await Post.find(
      { tags: trusted({ $exists: false }) },
      { content: 1, repostComment: 1 },
    )
      .limit(BACKFILL_BATCH)
      .lean<Stored[]>();
    if (!posts.length) return updated;
    await raw.bulkWrite(
      posts.map((p) => ({
        updateOne: { filter: { _id: p._id }, update: { $set: { tags: tagsOfPost(p) } } },
      })),
    );
    updated += posts.length;
    if (posts.length < BACKFILL_BATCH) return updated;
  }
}
