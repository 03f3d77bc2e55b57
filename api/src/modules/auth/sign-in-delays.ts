import type { AppContext } from '../../context';
import type { SignInDelays } from '../../platform/config';
import { isDuplicateKey } from '../../platform/mongo-errors';
import { signInDelaysOf } from './model';

/**
 * Progressive delays of failed sign-ins, in the style of OWASP's guidance on brute force: the
 * password is never refused for being right, but guessing it gets slow. After `freeFailures`
 * failures of a key (an account's address, or an account on one known device), the next attempt
 * is evaluated only a delay after the previous one, and the delay doubles with every further
 * failure up to `maxDelayMs`. An attempt made before is answered 429 with `Retry-After` and its
 * password is not looked at. Unknown addresses have delays too, so they read like known ones.
 *
 * Each attempt takes its slot before the password is checked (as if it will fail: a burst sent
 * at once cannot all be evaluated in one free slot), by a compare-and-set on `version`, in the
 * database, so every API process shares the delays. A right password resets the key; an answer
 * that says nothing about the password (an unverified account's 403, an error) gives the slot back.
 */

export type SignInAttempt =
  | { evaluated: false; retryAfter: number }
  | {
      evaluated: true;
      /** The password was right: the key's failures are forgotten. */
      succeeded(): Promise<void>;
      /** Nothing was learnt about the password: the attempt does not count. */
      giveBack(): Promise<void>;
    };

/** The wait before the attempt after `failures` failures may be evaluated. */
export function delayAfter(failures: number, rules: SignInDelays): number {
  if (rules.maxDelayMs === 0 || failures < rules.freeFailures) return 0;
  const doublings = Math.min(failures - rules.freeFailures, 40);
  return Math.min(rules.maxDelayMs, rules.firstDelayMs * 2 ** doublings);
}

const nothing = async () => {};

/** A compare-and-set that lost to another process this many times in a row is a fault. */
const MAX_RACES = 100;

export async function takeSignInAttempt(ctx: AppContext, key: string): Promise<SignInAttempt> {
  const rules = ctx.config.signInDelays;
  if (rules.maxDelayMs === 0) return { evaluated: true, succeeded: nothing, giveBack: nothing };
  const delays = signInDelaysOf(ctx);
  for (let race = 0; race < MAX_RACES; race += 1) {
    const now = ctx.clock.now().getTime();
    const stored = await delays.findById(key).lean();
    // The TTL monitor runs now and then: a record past its time is gone already.
    const current = stored && stored.expiresAt.getTime() > now ? stored : null;
    if (current && current.nextAttemptAt.getTime() > now) {
      const retryAfter = Math.ceil((current.nextAttemptAt.getTime() - now) / 1000);
      return { evaluated: false, retryAfter: Math.max(1, retryAfter) };
    }
    const failures = (current?.failures ?? 0) + 1;
    const version = (stored?.version ?? 0) + 1;
    const taken = {
      failures,
      version,
      nextAttemptAt: new Date(now + delayAfter(failures, rules)),
      expiresAt: new Date(now + rules.forgetAfterMs),
    };
    const won = stored
      ? (await delays.updateOne({ _id: key, version: stored.version }, { $set: taken }))
          .matchedCount === 1
      : await delays.create({ _id: key, ...taken }).then(
          () => true,
          (err: unknown) => {
            if (isDuplicateKey(err)) return false;
            throw err;
          },
        );
    if (!won) continue;
    // Taken back whole when nothing moved since, else one failure less.
    const undo = async (previous: typeof current) => {
      const mine = { _id: key, version };
      const restored = previous
        ? await delays.updateOne(mine, {
            $set: {
              failures: previous.failures,
              nextAttemptAt: previous.nextAttemptAt,
              version: version + 1,
            },
          })
        : await delays.deleteOne(mine).then((res) => ({ matchedCount: res.deletedCount }));
      if (restored.matchedCount === 0) {
        await delays.updateOne({ _id: key }, { $inc: { failures: -1, version: 1 } });
      }
    };
    return {
      evaluated: true,
      succeeded: () => undo(null),
      giveBack: () => undo(current),
    };
  }
  throw new Error(`sign-in delays: lost ${MAX_RACES} races for one key in a row`);
}
