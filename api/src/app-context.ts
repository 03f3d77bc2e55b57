/**
 * The context an app is built around (context.ts), made of its configuration and database: its
 * caches, events and transactions, and the change stream that brings it the other processes'
 * events (followed once `eventStream.ready()` is called: a script that only writes never calls it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type AppContext, type Clock } from './context';
import type { DomainEvent } from './domain-events';
import type { Models } from './models';
import { accountMailComposers } from './modules/account-lifecycle/mail-composers';
import { IdSequences } from './modules/counters/ids';
import { createImagePool } from './modules/media/image-pool';
import { createMediaJanitor } from './modules/media/janitor';
import { bookmarkedPosts } from './modules/bookmarks/queries';
import { likedPosts } from './modules/likes/queries';
import { repostedPosts } from './modules/reposts/repost-records';
import { loadSafetyRecord } from './modules/safety/relations';
import { createTokenService } from './platform/auth';
import type { Config } from './platform/config';
import type { Database } from './platform/db';
import { EventBus } from './platform/event-bus';
import { followEventStream } from './platform/event-stream';
import { Readiness } from './platform/health';
import { outsideRequest, type Logger } from './platform/logger';
import { createMailQueue } from './platform/mail-queue';
import { mailTransportFor, type MailTransport } from './platform/mailer';
import { createMediaStore } from './platform/media-store';
import { createUploadStorage } from './platform/storage';
import { createTransactions } from './platform/transactions';
import { createReadCaches } from './read-caches';

export interface AppContextDeps {
  config: Config;
  logger: Logger;
  /** How mail leaves (default: the configuration's, SMTP_URL or the outbox directory). */
  mailTransport?: MailTransport;
  jwtSecret: string;
  database: Pick<Database<Models>, 'models'>;
  clock?: Clock;
}

/** The context of an app: its models, caches, events and transactions, on its own database. */
export function createAppContext(deps: AppContextDeps) {
  const { config, logger, database } = deps;
  const { models } = database;
  const connection = models.User.db;
  // Domain events (src/domain-events.ts): published by the app's transactions, delivered to its
  // subscribers after each commit; other processes' arrive through the outbox's change stream.
  const origin = randomUUID();
  const events = new EventBus<DomainEvent>((err, event) =>
    logger.error({ err, event: event?.type }, 'an event subscriber failed'),
  );
  const { transaction, publish } = createTransactions<DomainEvent>({
    connection,
    Outbox: models.Outbox,
    origin,
    deliver: (published) => events.deliver(published, { local: true }),
  });
  const clock = deps.clock ?? systemClock;
  // The caches and the mail composers read through the context they belong to (assigned below).
  const context = {} as { -readonly [K in keyof AppContext]: AppContext[K] };
  // Mail goes through the queue (platform/mail-queue.ts); an app's worker is woken by the
  // `mail.queued` events of its own commits and, through the outbox, of the other processes'.
  const mailQueue = createMailQueue({
    model: models.QueuedMail,
    transport: deps.mailTransport ?? mailTransportFor(config, logger),
    settings: config.mail,
    composers: accountMailComposers(context),
    now: () => clock.now(),
    nextId: () => context.ids.nextIdOfBlock('mails'),
    transaction: (work) => transaction(work),
    announce: () => publish({ type: 'mail.queued' }),
    owner: `${config.instanceName}/${origin}`,
    logger,
  });
  // The worker's round outlives the request whose commit woke it: not logged under its id.
  events.on('mail.queued', () => void outsideRequest(() => mailQueue.wake()));
  const caches = createReadCaches(
    config,
    {
      Post: models.Post,
      User: models.User,
      likedPosts: (viewerId, ids) => likedPosts(context, viewerId, ids),
      repostedPosts: (viewerId, ids) => repostedPosts(context, viewerId, ids),
      bookmarkedPosts: (viewerId, ids) => bookmarkedPosts(context, viewerId, ids),
      safety: (userId) => loadSafetyRecord(context, userId),
    },
    clock,
  );
  Object.assign(context, {
    config,
    logger,
    clock,
    models,
    caches,
    events,
    transaction,
    publish,
    ids: new IdSequences(models.Counter),
    mailer: mailQueue.mailer,
    mailQueue,
    storage: createUploadStorage(connection, config.publicUrl),
    // The janitor reads through the context: assigned below. No thread starts before an image.
    media: { pool: createImagePool(config.media.workers), store: createMediaStore(connection) },
    tokens: createTokenService({
      secret: deps.jwtSecret,
      previousSecrets: config.jwtPreviousSecrets,
      issuer: config.jwtIssuer,
      expiresIn: config.jwtExpiresIn,
      verified: caches.tokens,
    }),
    readiness: new Readiness(logger),
  } satisfies Omit<AppContext, 'media'> & {
    media: Omit<AppContext['media'], 'janitor'>;
  });
  Object.assign(context.media, { janitor: createMediaJanitor(context) });
  const eventStream = followEventStream<DomainEvent>({
    Outbox: models.Outbox,
    Position: models.EventPosition,
    consumer: config.instanceName,
    origin,
    deliver: (received) => events.deliver(received, { local: false }),
    reset: () => events.reset(),
    logger,
  });
  return { context: context as AppContext, eventStream };
}

/**
 * The context of a script that writes with no app of its own (the seed, provisioning the
 * administrator, the benchmarks' data): its events go to the outbox, for the API processes
 * running to hear; it follows none itself, and signs no token anyone keeps.
 */
export function createScriptContext(models: Models, config: Config, logger: Logger): AppContext {
  return createAppContext({
    config,
    logger,
    jwtSecret: randomBytes(32).toString('hex'),
    database: { models },
  }).context;
}
