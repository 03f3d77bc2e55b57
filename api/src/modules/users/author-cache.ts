import { trusted } from 'mongoose';
import { ReadCache } from '../../platform/read-cache';
import { pinned, updatedFields, type WriteEvent } from '../../platform/write-events';
import type { UserModel } from './model';

export const AUTHOR_FIELDS = { _id: 1, name: 1, email: 1, avatarUrl: 1, affiliation: 1 } as const;

export type AuthorDoc = {
  _id: number;
  name: string;
  email: string;
  avatarUrl: string | null;
  /** `alumni` for invited alumni (an Alumni badge on their posts and comments). */
  affiliation?: 'alumni';
};

const MAX_AUTHORS = 50_000;

/**
 * Authors shown on posts and comments, kept for `ttlMs` (AUTHOR_CACHE_MS) by one app: a feed page
 * then often needs no user lookup at all. A write through the User model that changes what is
 * shown (a profile edit) is forgotten at once, and so is another process's (read from the change
 * stream: `ReadCaches.followOtherProcesses`); `ttlMs` only bounds what nothing announced.
 */
export class AuthorCache {
  private readonly authors: ReadCache<number, AuthorDoc>;

  constructor(
    ttlMs: number,
    private readonly User: UserModel,
  ) {
    this.authors = new ReadCache(ttlMs, MAX_AUTHORS);
  }

  async byId(ids: Iterable<number>): Promise<Map<number, AuthorDoc>> {
    const found = new Map<number, AuthorDoc>();
    const missing: number[] = [];
    for (const id of new Set(ids)) {
      const hit = this.authors.get(id);
      if (hit) found.set(id, hit);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    const mark = this.authors.mark();
    const users = await this.User.find({ _id: trusted({ $in: missing }) }, AUTHOR_FIELDS).lean<
      AuthorDoc[]
    >();
    for (const user of users) {
      found.set(user._id, user);
      this.authors.set(user._id, user, mark);
    }
    return found;
  }

  /** The author as cached now (undefined: not cached), without reading it. */
  cached(id: number): AuthorDoc | undefined {
    return this.authors.get(id);
  }

  /** A write to `users`: forgets the authors whose name, e-mail or avatar it may change. */
  forget(event: WriteEvent): void {
    // New accounts are nobody's cached author yet (missing authors are not remembered).
    if (event.documents && !event.unknown) {
      for (const doc of event.documents)
        if (typeof doc._id === 'number') this.authors.delete(doc._id);
      return;
    }
    const fields = updatedFields(event.update);
    if (
      event.update !== undefined &&
      fields &&
      !Object.keys(AUTHOR_FIELDS).some((f) => fields.has(f))
    )
      return; // e.g. the activity timestamp every few minutes
    const id = pinned(event.filter, '_id');
    if (id !== undefined) this.authors.delete(id);
    else this.authors.clear();
  }

  clear(): void {
    this.authors.clear();
  }
}
