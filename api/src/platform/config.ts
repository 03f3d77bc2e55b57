import os from 'node:os';
import path from 'node:path';
import { MEDIA_MAX_BYTES, MEDIA_MAX_PIXELS } from '@campus/contracts';
import { assertTimeZone } from './time';

/** Where the repository root is, so `.data` defaults to `<repo>/.data` whatever the working directory. */
const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface RateLimitRule {
  /** Attempts allowed per key (client IP, e-mail address, member...) within `windowMs`; 0: off. */
  max: number;
  windowMs: number;
}

/** What a member may do only so often; each has its own limits per minute and per day. */
export const MEMBER_ACTIONS = [
  'posts',
  'comments',
  'reposts',
  'likes',
  'follows',
  'avatars',
  'media',
  'searches',
  'postSearches',
] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

export interface MemberLimit {
  /** Actions allowed per member per minute; 0 turns this limit off. */
  perMinute: number;
  /** Actions allowed per member per day; 0 turns this limit off. */
  perDay: number;
}

/**
 * How failed sign-ins slow down the guessing of one account (modules/auth/sign-in-delays.ts):
 * after `freeFailures` failures, the next attempt is evaluated only `firstDelayMs` after the last
 * one, and each further failure doubles the wait up to `maxDelayMs`. An attempt made too early
 * is answered 429 with `Retry-After` without looking at the password. Failures are forgotten
 * `forgetAfterMs` after the last one. `maxDelayMs: 0` turns the delays off.
 */
export interface SignInDelays {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

export interface Config {
  /** NODE_ENV, trimmed and lower-cased (`Production` is production); unset: `development`. */
  env: string;
  /**
   * The address the API listens on (HOST). Default 127.0.0.1, this machine only: a gateway on
   * the same machine reaches it, nobody else can and forge X-Forwarded-For past it. A container
   * (the image sets 0.0.0.0) or a gateway on another machine needs it set.
   */
  host: string;
  port: number;
  /**
   * Prometheus metrics (platform/metrics.ts), never public: on a port of their own (`port`, on
   * `host`, loopback by default), and on the API port only with `token` as a bearer token.
   */
  metrics: {
    /** METRICS_PORT: unset, no metrics port. */
    port: number | undefined;
    /** METRICS_HOST: the metrics port's address (default 127.0.0.1). */
    host: string;
    /** METRICS_TOKEN: unset, /metrics is not served on the API port (and the metrics port asks none). */
    token: string | undefined;
  };
  /** How many API processes serve `port` (node's cluster; 1: this process alone). */
  apiProcesses: number;
  /**
   * This process's name for its place in the outbox's event stream (platform/event-stream.ts): a
   * process started again under the same name resumes where it stopped. API_INSTANCE, else the
   * host name and the process's slot among API_PROCESSES.
   */
  instanceName: string;
  /**
   * Unset: the embedded database is started with data under `<dataDir>/db` (in production only
   * with `embeddedDatabase`).
   */
  mongodbUri: string | undefined;
  /** EMBEDDED_DATABASE=1: production may use the embedded database (MONGODB_URI unset). */
  embeddedDatabase: boolean;
  /** Only used with `mongodbUri`: database name when the URI has none. */
  dataDir: string;
  /** Unset: generated once and kept in the database (platform/jwt-secret.ts). */
  jwtSecret: string | undefined;
  /** Keys that still verify, none signs (JWT_PREVIOUS_SECRETS): rotation signs nobody out. */
  jwtPreviousSecrets: string[];
  /** Lifetime of the bearer token sign-in answers (spec: `{ user, token }`). */
  jwtExpiresIn: string;
  /** Lifetime of a browser's access cookie (its session renews it with the refresh cookie). */
  accessTokenExpiresIn: string;
  /** A browser session not renewed for this many days ends. */
  sessionIdleDays: number;
  jwtIssuer: string;
  bcryptRounds: number;
  institutionDomains: string[];
  smtpUrl: string | undefined;
  mailFrom: string;
  /** CORS allow-list. Outside production the local apps' origins by default; in production none. */
  allowedOrigins: string[];
  /** Base of the absolute URLs the API hands out (avatars). No default in production (''). */
  publicUrl: string;
  /** The web app, for links in e-mails. No default in production (''). */
  webUrl: string;
  adminUserId: number;
  /** IANA time zone of the campus: "today" for Top Posts and the analytics days. */
  timezone: string;
  jsonBodyLimit: string;
  avatarMaxBytes: number;
  avatarMaxPixels: number;
  avatarSize: number;
  /** Pictures in posts (modules/media, issue 39). */
  media: {
    /** MEDIA_MAX_BYTES: the largest image file accepted (413 past it). */
    maxBytes: number;
    /** MEDIA_MAX_PIXELS: the most pixels decoded (413 past it). */
    maxPixels: number;
    /** MEDIA_WORKERS: images processed at once by this process, each on a worker thread. */
    workers: number;
    /**
     * MEDIA_SWEEP_INTERVAL_MS: how often expired uploads (never attached, or unsaved avatars)
     * are looked for; deletions (a post, an account) sweep at once.
     */
    sweepIntervalMs: number;
  };
  /** The mail queue (platform/mail-queue.ts). */
  mail: {
    /** Attempts of one mail before it is marked failed (the admin sees it). */
    maxAttempts: number;
    /** The wait after the first failed attempt; it doubles after each one, up to `retryMaxMs`. */
    retryBaseMs: number;
    retryMaxMs: number;
    /** How long a worker holds a mail it is sending before another process may take it over. */
    leaseMs: number;
    /** With nothing due, how often a worker looks anyway (mail queued by a process that stopped). */
    idleCheckMs: number;
  };
  activityThrottleMs: number;
  /** How long an authenticated caller's account lookup is reused (0: look it up every time). */
  authCacheMs: number;
  /** How long post authors' names and avatars are reused across requests (0: never). */
  authorCacheMs: number;
  /** How long feed pages, posts and viewers' like/repost flags are reused (0: never). */
  readCacheMs: number;
  /**
   * Each limit counts either per client address (flood control, high enough for a campus behind
   * one NAT address) or per account, e-mail address, token or signed-in member.
   */
  rateLimits: {
    /**
     * Per client IP: wrong passwords. Over it a wrong password is answered 429 instead of 401;
     * a right one (any account's) still signs in.
     */
    login: RateLimitRule;
    /** Per client IP: registrations (only floods far beyond a campus's enrolment week). */
    register: RateLimitRule;
    /** Per client IP: verification links opened. */
    verify: RateLimitRule;
    /** Per verification token: attempts to use it. */
    verifyToken: RateLimitRule;
    /** Per client IP: account applications. */
    application: RateLimitRule;
    /** Per contact (as the applicant wrote it, case-insensitive): account applications. */
    applicationContact: RateLimitRule;
    /** Per signed-in member: feedback sent. */
    feedback: RateLimitRule;
    /** Per client IP, counted after sign-in: feedback sent. */
    feedbackIp: RateLimitRule;
    /** Per client IP: forgot-password and reset-password requests. */
    passwordReset: RateLimitRule;
    /** Per client IP: resend-verification requests. */
    verificationResend: RateLimitRule;
    /**
     * Per e-mail address and kind (reset; verification, from registration and resend): the
     * e-mails sent at once. Past it, `accountEmailsCooldown` decides; a request that sends nothing
     * changes nothing (the link of the latest e-mail keeps working) and is answered as usual.
     */
    accountEmails: RateLimitRule;
    /**
     * Per e-mail address and kind, once `accountEmails` is used up: at most `max` more per
     * `windowMs`, so the owner can always get a fresh link and the address cannot be mail-bombed.
     */
    accountEmailsCooldown: RateLimitRule;
    /** Per signed-in member: calls that check the password (change it, delete the account). */
    passwordCheck: RateLimitRule;
    /** Per signed-in member: reports of posts, comments and members. */
    report: RateLimitRule;
    /** Per client IP: invitation look-ups (`GET /api/invitations/:token`). */
    invitation: RateLimitRule;
  };
  /** How one account's failed sign-ins slow down its guessing (not the right password). */
  signInDelays: SignInDelays;
  /**
   * Per member: posts, comments, reposts, likes, follows, avatar uploads, image uploads and people
   * searches.
   */
  memberLimits: Record<MemberAction, MemberLimit>;
  /**
   * Demo mode (`DEMO_MODE=1`, or `--demo`): the demo data is seeded into an empty database.
   * Production refuses it (platform/production.ts).
   */
  demoMode: boolean;
  logLevel: string;
  /**
   * How many reverse proxies in front of the API append to X-Forwarded-For: the client address
   * is the one the outermost of them saw (the Nth entry from the right). 0: the socket address;
   * the header is ignored, since a client can write anything in it.
   */
  trustProxyHops: number;
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function int(env: Env, name: string, fallback: number): number {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name);
  if (raw === undefined) return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function rule(env: Env, name: string, max: number, windowMs: number): RateLimitRule {
  return {
    max: int(env, `RATE_LIMIT_${name}_MAX`, max),
    windowMs: int(env, `RATE_LIMIT_${name}_WINDOW_MS`, windowMs),
  };
}

function memberLimit(env: Env, action: MemberAction, perMinute: number, perDay: number) {
  const name = `RATE_LIMIT_${action.toUpperCase()}`;
  return {
    perMinute: int(env, `${name}_PER_MINUTE`, perMinute),
    perDay: int(env, `${name}_PER_DAY`, perDay),
  };
}

export const DEFAULT_INSTITUTION_DOMAINS = ['campus.edu', 'mail.campus.edu', 'cu.edu'];
const FIFTEEN_MINUTES = 15 * 60 * 1000;
const ONE_HOUR = 60 * 60 * 1000;

/** Reads the environment once. Every variable is documented in api/README.md. */
export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 4000);
  const dataDir = path.resolve(REPO_ROOT, str(env, 'DATA_DIR') ?? '.data');
  const nodeEnv = (str(env, 'NODE_ENV') ?? 'development').toLowerCase();
  // A local run's addresses are defaults outside production only: production refuses to start
  // without WEB_URL, PUBLIC_URL and ALLOWED_ORIGINS (platform/production.ts).
  const local = nodeEnv !== 'production';
  const appOrigins = [3000, 3001, 3002, 3003, 3004].map((p) => `http://localhost:${p}`);
  return {
    env: nodeEnv,
    host: str(env, 'HOST') ?? '127.0.0.1',
    port,
    metrics: {
      port: str(env, 'METRICS_PORT') === undefined ? undefined : int(env, 'METRICS_PORT', 0),
      host: str(env, 'METRICS_HOST') ?? '127.0.0.1',
      token: str(env, 'METRICS_TOKEN'),
    },
    apiProcesses: Math.max(1, int(env, 'API_PROCESSES', 1)),
    instanceName: str(env, 'API_INSTANCE') ?? `${os.hostname()}-${str(env, 'API_SLOT') ?? '1'}`,
    mongodbUri: str(env, 'MONGODB_URI'),
    embeddedDatabase: bool(env, 'EMBEDDED_DATABASE', false),
    dataDir,
    jwtSecret: str(env, 'JWT_SECRET'),
    jwtPreviousSecrets: list(env, 'JWT_PREVIOUS_SECRETS', []),
    jwtExpiresIn: str(env, 'JWT_EXPIRES_IN') ?? '7d',
    accessTokenExpiresIn: str(env, 'ACCESS_TOKEN_EXPIRES_IN') ?? '15m',
    sessionIdleDays: Math.max(1, int(env, 'SESSION_IDLE_DAYS', 30)),
    jwtIssuer: str(env, 'JWT_ISSUER') ?? 'campus-api',
    bcryptRounds: int(env, 'BCRYPT_ROUNDS', 12),
    institutionDomains: list(env, 'INSTITUTION_DOMAINS', DEFAULT_INSTITUTION_DOMAINS).map((d) =>
      d.toLowerCase().replace(/^@/, ''),
    ),
    smtpUrl: str(env, 'SMTP_URL'),
    mailFrom: str(env, 'MAIL_FROM') ?? 'Campus <no-reply@campus.edu>',
    allowedOrigins: list(env, 'ALLOWED_ORIGINS', local ? appOrigins : []),
    publicUrl: (str(env, 'PUBLIC_URL') ?? (local ? `http://localhost:${port}` : '')).replace(
      /\/+$/,
      '',
    ),
    webUrl: (str(env, 'WEB_URL') ?? (local ? 'http://localhost:3000' : '')).replace(/\/+$/, ''),
    adminUserId: int(env, 'ADMIN_USER_ID', 107),
    timezone: assertTimeZone(str(env, 'APP_TIMEZONE') ?? 'UTC'),
    jsonBodyLimit: str(env, 'JSON_BODY_LIMIT') ?? '100kb',
    avatarMaxBytes: int(env, 'AVATAR_MAX_BYTES', 5 * 1024 * 1024),
    avatarMaxPixels: int(env, 'AVATAR_MAX_PIXELS', 40_000_000),
    avatarSize: int(env, 'AVATAR_SIZE', 512),
    media: {
      maxBytes: int(env, 'MEDIA_MAX_BYTES', MEDIA_MAX_BYTES),
      maxPixels: int(env, 'MEDIA_MAX_PIXELS', MEDIA_MAX_PIXELS),
      workers: Math.max(1, int(env, 'MEDIA_WORKERS', 1)),
      sweepIntervalMs: int(env, 'MEDIA_SWEEP_INTERVAL_MS', 10 * 60_000),
    },
    mail: {
      maxAttempts: Math.max(1, int(env, 'MAIL_MAX_ATTEMPTS', 8)),
      retryBaseMs: int(env, 'MAIL_RETRY_BASE_MS', 30_000),
      retryMaxMs: int(env, 'MAIL_RETRY_MAX_MS', ONE_HOUR),
      leaseMs: int(env, 'MAIL_LEASE_MS', 2 * 60_000),
      idleCheckMs: int(env, 'MAIL_IDLE_CHECK_MS', 60_000),
    },
    activityThrottleMs: int(env, 'ACTIVITY_THROTTLE_MS', 5 * 60 * 1000),
    authCacheMs: int(env, 'AUTH_CACHE_MS', 60_000),
    authorCacheMs: int(env, 'AUTHOR_CACHE_MS', 60_000),
    readCacheMs: int(env, 'READ_CACHE_MS', 10_000),
    rateLimits: {
      // Per address: only floods; a campus behind one NAT address stays well below.
      login: rule(env, 'LOGIN', 300, FIFTEEN_MINUTES),
      // An enrolment week's freshmen behind one NAT address are far fewer in an hour.
      register: rule(env, 'REGISTER', 5000, ONE_HOUR),
      verify: rule(env, 'VERIFY', 300, FIFTEEN_MINUTES),
      verifyToken: rule(env, 'VERIFY_TOKEN', 10, FIFTEEN_MINUTES),
      application: rule(env, 'APPLICATION', 30, ONE_HOUR),
      applicationContact: rule(env, 'APPLICATION_CONTACT', 3, ONE_HOUR),
      feedback: rule(env, 'FEEDBACK', 10, ONE_HOUR),
      feedbackIp: rule(env, 'FEEDBACK_IP', 300, ONE_HOUR),
      passwordReset: rule(env, 'PASSWORD_RESET', 100, ONE_HOUR),
      verificationResend: rule(env, 'VERIFICATION_RESEND', 100, ONE_HOUR),
      accountEmails: rule(env, 'ACCOUNT_EMAILS', 3, ONE_HOUR),
      accountEmailsCooldown: rule(env, 'ACCOUNT_EMAILS_COOLDOWN', 1, FIFTEEN_MINUTES),
      passwordCheck: rule(env, 'PASSWORD_CHECK', 10, FIFTEEN_MINUTES),
      report: rule(env, 'REPORT', 20, ONE_HOUR),
      invitation: rule(env, 'INVITATION', 100, FIFTEEN_MINUTES),
    },
    // However many guesses came before, a new device's attempt is evaluated at most 30 s after
    // the last one; a device that signed in to the account before is never delayed by them.
    signInDelays: {
      freeFailures: int(env, 'RATE_LIMIT_LOGIN_FREE_FAILURES', 5),
      firstDelayMs: int(env, 'RATE_LIMIT_LOGIN_FIRST_DELAY_MS', 1000),
      maxDelayMs: int(env, 'RATE_LIMIT_LOGIN_MAX_DELAY_MS', 30_000),
      forgetAfterMs: int(env, 'RATE_LIMIT_LOGIN_FAILURES_FORGOTTEN_MS', 24 * ONE_HOUR),
    },
    // Well above what a person does by hand, far below what a script floods with.
    memberLimits: {
      posts: memberLimit(env, 'posts', 10, 100),
      comments: memberLimit(env, 'comments', 20, 300),
      reposts: memberLimit(env, 'reposts', 10, 100),
      likes: memberLimit(env, 'likes', 60, 1000),
      follows: memberLimit(env, 'follows', 30, 200),
      avatars: memberLimit(env, 'avatars', 5, 20),
      // Four images to a post: the posts limits' worth of full posts.
      media: memberLimit(env, 'media', 40, 400),
      // Typing in the search box; not a way to list every member (36 one-letter searches).
      searches: memberLimit(env, 'searches', 30, 300),
      // Post search (issue 40): each one reads the text index, heavier than a people search.
      postSearches: memberLimit(env, 'postSearches', 20, 500),
    },
    demoMode: bool(env, 'DEMO_MODE', false),
    logLevel: str(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    trustProxyHops: int(env, 'TRUST_PROXY_HOPS', 0),
  };
}
