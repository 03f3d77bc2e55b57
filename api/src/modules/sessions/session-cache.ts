import type { DomainEvent } from '../../domain-events';
import type { EventBus } from '../../platform/event-bus';
import { ReadCache, type CacheCounts } from '../../platform/read-cache';

const MAX_SESSIONS = 10_000;

/**
 * Whether each session seen in the last `ttlMs` (AUTH_CACHE_MS) is open (null) or why it ended,
 * so that a request skips the session lookup. Ending a session forgets it at once in every API
 * process (`session.ended`), so a signed-out session is refused everywhere at once.
 */
export class SessionCache {
  private readonly sessions: ReadCache<string, string | null>;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.sessions = new ReadCache(ttlMs, MAX_SESSIONS, now);
  }

  mark(): number {
    return this.sessions.mark();
  }

  /** Lookups of sessions (the metrics' hit ratios). */
  get counts(): CacheCounts {
    return this.sessions.counts;
  }

  get(sessionId: string): string | null | undefined {
    return this.sessions.get(sessionId);
  }

  set(sessionId: string, ended: string | null, mark: number): void {
    this.sessions.set(sessionId, ended, mark);
  }

  subscribe(events: EventBus<DomainEvent>): () => void {
    const stops = [
      events.on('session.ended', (e) => this.sessions.delete(e.sessionId)),
      events.onReset(() => this.clear()),
    ];
    return () => stops.forEach((stop) => stop());
  }

  clear(): void {
    this.sessions.clear();
  }
}
