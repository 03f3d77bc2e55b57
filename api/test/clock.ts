import type { Clock } from '../src/context';

/**
 * An app's clock a test moves instead of waiting: it follows the real time plus what the test
 * advanced it by, or stays where the test froze it.
 */
export class TestClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  now(): Date {
    return new Date(this.frozenAt ?? Date.now() + this.offsetMs);
  }

  /** Moves the clock forward. */
  advance(ms: number): void {
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  /** Stops the clock at `at` (epoch ms) until it is advanced. */
  freeze(at: number): void {
    this.frozenAt = at;
  }
}
