import { trusted } from 'mongoose';
import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { ReadCache, type CacheCounts } from '../../platform/read-cache';
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
 * then often needs no user lookup at all. A profile edit (`profile.updated`), made through any
 * API process, forgets its author at once; `ttlMs` only bounds what no event tells.
 */
export class AuthorCache {
  private readonly authors: ReadCache<number, AuthorDoc>;

  constructor(
    ttlMs: number,
    private readonly User: UserModel,
  ) {
    this.authors = new ReadCache(ttlMs, MAX_AUTHORS);
  }

  /** Lookups of authors (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.authors.counts;
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

  /** Forgets the authors each event changes; returns the unsubscribe function. */
  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on(['profile.updated', 'account.deleted'], (e) => this.authors.delete(e.userId)),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }

  clear(): void {
    this.authors.clear();
  }
}
