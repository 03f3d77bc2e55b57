/**
 * The one context an app is built around (`createApp`): what every use case may need, handed to
 * it as its first argument. Nothing here is a module global: two apps in one process (tests,
 * benchmarks) each have their own.
 *
 * A module reads its own collections through its model's accessor (`posts/model.ts` `postsOf`),
 * never `ctx.models` directly (lint), so another module's data stays behind that module's
 * functions.
 */
import type { DomainEvent } from './domain-events';
import type { Middleware } from 'koa';
import type { Models } from './models';
import type { AppState, TokenService } from './platform/auth';
import type { Config } from './platform/config';
import type { EventBus } from './platform/event-bus';
import type { Readiness } from './platform/health';
import type { Logger } from './platform/logger';
import type { MailQueue } from './platform/mail-queue';
import type { Mailer } from './platform/mailer';
import type { MemberLimiters, RateLimits } from './platform/rate-limit';
import type { UploadStorage } from './platform/storage';
import type { Transaction } from './platform/transactions';
import type { ReadCaches } from './read-caches';
import type { IdSequences } from './modules/counters/ids';
import type { ImagePool } from './modules/media/image-pool';
import type { MediaJanitor } from './modules/media/janitor';
import type { MediaStore } from './platform/media-store';

/** The time, as the app sees it (tests move it instead of waiting). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The models bound to the app's connection: read them through each module's accessor. */
  readonly models: Models;
  readonly caches: ReadCaches;
  /** The app's domain events: subscribe by type. */
  readonly events: EventBus<DomainEvent>;
  /** A write, the counts it moves and its events, committed together (platform/transactions.ts). */
  readonly transaction: Transaction;
  /** Adds events to the transaction under way. */
  readonly publish: (...events: DomainEvent[]) => void;
  /** Numeric ids of every collection. */
  readonly ids: IdSequences;
  /** Queues e-mail (never waits for SMTP): the mail queue's worker sends it. */
  readonly mailer: Mailer;
  /** The mail queue: its worker, and the mails that keep failing (the admin's list). */
  readonly mailQueue: MailQueue;
  /** Uploaded files (GridFS), with the API's public URL of each. */
  readonly storage: UploadStorage;
  /**
   * Pictures in posts (modules/media): the worker threads that process them, their files
   * (GridFS, content-addressed), and the sweep that deletes what expired or was deleted.
   */
  readonly media: {
    readonly pool: ImagePool;
    readonly store: MediaStore;
    readonly janitor: MediaJanitor;
  };
  /** Signs and checks the API's tokens. */
  readonly tokens: TokenService;
  /**
   * What `GET /readyz` checks (platform/health.ts): named checks, each registered by what the app
   * needs (`readiness.add('database', ...)`, the event stream; the migrations run before the
   * process listens, so they need none while that holds).
   */
  readonly readiness: Readiness;
}

/**
 * What routes add to the context: the authentication middleware and the rate limits (counted in
 * the database, shared by every API process). Routes name the Koa context `ctx`, so they call
 * the app's context `app`.
 */
export interface HttpContext extends AppContext {
  readonly requireAuth: Middleware<AppState>;
  /** Per-member limits of posts, comments, likes... (shared by every route of an action). */
  readonly limits: MemberLimiters;
  /** Per-address and per-account limits of the public routes. */
  readonly rateLimits: RateLimits;
}
