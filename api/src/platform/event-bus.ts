/**
 * The app's subscribers to its domain events (src/domain-events.ts), by type. Events reach it
 * from two places only: this process's own transactions, right after they commit
 * (transactions.ts), and the other processes' transactions, through the one change stream on the
 * outbox (event-stream.ts). A subscriber cannot tell them apart and need not: both are committed.
 *
 * `onReset` subscribers hear that events may have been missed (the change stream failed, or its
 * resume point was lost): a cache then forgets everything rather than serve what a missed event
 * changed.
 */
export interface EventDelivery {
  /** Published by this process (delivered after its own commit), not read from the stream. */
  local: boolean;
}

type Handler<E> = (event: E, delivery: EventDelivery) => void;

export class EventBus<E extends { type: string }> {
  private readonly handlers = new Map<string, Array<Handler<E>>>();
  private readonly resets: Array<() => void> = [];

  /** @param onError told of a subscriber that threw (the others still hear the event). */
  constructor(private readonly onError: (err: unknown, event: E | undefined) => void) {}

  /** Calls `handler` with every event of the given types; returns the unsubscribe function. */
  on<T extends E['type']>(
    types: T | readonly T[],
    handler: (event: Extract<E, { type: T }>, delivery: EventDelivery) => void,
  ): () => void {
    const list = (Array.isArray(types) ? types : [types]) as readonly string[];
    for (const type of list) {
      const subscribed = this.handlers.get(type) ?? [];
      subscribed.push(handler as Handler<E>);
      this.handlers.set(type, subscribed);
    }
    return () => {
      for (const type of list) {
        const subscribed = this.handlers.get(type);
        const at = subscribed?.indexOf(handler as Handler<E>) ?? -1;
        if (at >= 0) subscribed!.splice(at, 1);
      }
    };
  }

  /** Calls `handler` whenever events may have been missed; returns the unsubscribe function. */
  onReset(handler: () => void): () => void {
    this.resets.push(handler);
    return () => {
      const at = this.resets.indexOf(handler);
      if (at >= 0) this.resets.splice(at, 1);
    };
  }

  /** Hands committed events to their subscribers, in order, synchronously. */
  deliver(events: readonly E[], delivery: EventDelivery): void {
    for (const event of events) {
      for (const handler of this.handlers.get(event.type) ?? []) {
        try {
          handler(event, delivery);
        } catch (err) {
          this.onError(err, event);
        }
      }
    }
  }

  /** Events may have been missed: every `onReset` subscriber starts afresh. */
  reset(): void {
    for (const handler of this.resets) {
      try {
        handler();
      } catch (err) {
        this.onError(err, undefined);
      }
    }
  }
}
