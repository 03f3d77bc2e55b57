import { isCommittedSecret } from './committed-secrets';
import type { Config } from './config';
import { estimatedEntropyBits } from './secret-strength';

/** What a signing secret must have at least, as estimated by platform/secret-strength.ts. */
export const MIN_SECRET_ENTROPY_BITS = 128;

const GENERATE = 'openssl rand -base64 48';

type ProductionSettings = Pick<
  Config,
  | 'env'
  | 'demoMode'
  | 'jwtSecret'
  | 'smtpUrl'
  | 'mongodbUri'
  | 'embeddedDatabase'
  | 'webUrl'
  | 'publicUrl'
  | 'allowedOrigins'
  | 'metrics'
>;

/**
 * Whether the production rules apply: `NODE_ENV` is `production`, whatever its case and spaces
 * (`Production` is production). Demo mode does not switch them off: production refuses it
 * (configRefusals). The demo (`npm start`, the e2e runs, QA's compose file) runs with another
 * NODE_ENV (unset: `development`).
 */
export function isProduction(config: Pick<Config, 'env'>): boolean {
  return config.env.trim().toLowerCase() === 'production';
}

/**
 * Why `secret`, the value of `variable` (JWT_SECRET, or any key of a key ring), must not sign
 * tokens in production, in one line naming the variable; undefined when it may. Refused: unset,
 * under MIN_SECRET_ENTROPY_BITS of estimated entropy, or a value committed to the repository
 * (platform/committed-secrets.ts), which anyone with the repository could forge tokens with.
 */
export function jwtSecretRefusal(
  secret: string | undefined,
  variable = 'JWT_SECRET',
): string | undefined {
  if (!secret) {
    return `${variable} must be set in production: a random secret of at least ${MIN_SECRET_ENTROPY_BITS} bits (${GENERATE})`;
  }
  if (isCommittedSecret(secret)) {
    return `${variable} is a value committed to the Campus repository, so anyone can forge tokens with it: generate one (${GENERATE})`;
  }
  const bits = estimatedEntropyBits(secret);
  if (bits < MIN_SECRET_ENTROPY_BITS) {
    return `${variable} has about ${bits} bits of estimated entropy, under the ${MIN_SECRET_ENTROPY_BITS} production needs: generate one (${GENERATE})`;
  }
  return undefined;
}

/**
 * Why METRICS_TOKEN, when set, must not guard the metrics in production: a committed value or
 * one under MIN_SECRET_ENTROPY_BITS would let anyone who reaches the API port read them.
 */
function metricsTokenRefusal(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  if (isCommittedSecret(token)) {
    return `METRICS_TOKEN is a value committed to the Campus repository: generate one (${GENERATE})`;
  }
  const bits = estimatedEntropyBits(token);
  if (bits < MIN_SECRET_ENTROPY_BITS) {
    return `METRICS_TOKEN has about ${bits} bits of estimated entropy, under the ${MIN_SECRET_ENTROPY_BITS} production needs: generate one (${GENERATE})`;
  }
  return undefined;
}

/** Why `value` of `variable` is not an absolute http(s) URL (an origin alone when `origin`). */
function urlProblem(variable: string, value: string, origin: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${variable} must be an absolute http(s) URL in production, got "${value}"`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return `${variable} must be an absolute http(s) URL in production, got "${value}"`;
  }
  if (origin && url.origin !== value) {
    return `${variable} must list origins only (scheme, host and port, no path or trailing slash), got "${value}"`;
  }
  return undefined;
}

/**
 * Why this configuration must not serve real members, one line per reason, each naming its
 * variable (empty when it may). Outside production nothing is refused: a local run has
 * defaults for everything. In production nothing secret or local has a default:
 * - JWT_SECRET: a strong, never committed secret (jwtSecretRefusal), or tokens could be forged;
 * - SMTP_URL: or verification links would be written to the server's disk instead of sent;
 * - DEMO_MODE off: demo mode seeds accounts whose passwords are in the README;
 * - MONGODB_URI, unless EMBEDDED_DATABASE=1 asks for the embedded database on purpose;
 * - WEB_URL, PUBLIC_URL and ALLOWED_ORIGINS: no localhost defaults (links in e-mails, avatar
 *   URLs and CORS would point at the server itself);
 * - METRICS_TOKEN, when set: as strong as a signing secret (it has no default: unset, the API
 *   port serves no metrics).
 */
export function configRefusals(config: ProductionSettings): string[] {
  if (!isProduction(config)) return [];
  const refusals: string[] = [];
  const secret = jwtSecretRefusal(config.jwtSecret);
  if (secret) refusals.push(secret);
  if (!config.smtpUrl) {
    refusals.push(
      'SMTP_URL must be set in production: verification e-mails would be written to disk instead',
    );
  }
  if (config.demoMode) {
    refusals.push(
      'DEMO_MODE must be off in production (it seeds demo accounts whose passwords are public): ' +
        'run the demo with NODE_ENV unset or development',
    );
  }
  if (!config.mongodbUri && !config.embeddedDatabase) {
    refusals.push(
      'MONGODB_URI must be set in production (a MongoDB replica set); EMBEDDED_DATABASE=1 ' +
        'starts the embedded database instead, on purpose only',
    );
  }
  const urls: [string, string, string][] = [
    ['WEB_URL', config.webUrl, 'the web app, for the links in e-mails'],
    ['PUBLIC_URL', config.publicUrl, 'the API as browsers reach it, for avatar URLs'],
  ];
  for (const [variable, value, what] of urls) {
    const problem = value
      ? urlProblem(variable, value, false)
      : `${variable} must be set in production: ${what}`;
    if (problem) refusals.push(problem);
  }
  if (config.allowedOrigins.length === 0) {
    refusals.push(
      'ALLOWED_ORIGINS must be set in production: the origins of the web apps that may call the API',
    );
  }
  const origin = config.allowedOrigins
    .map((value) => urlProblem('ALLOWED_ORIGINS', value, true))
    .find(Boolean);
  if (origin) refusals.push(origin);
  const metricsToken = metricsTokenRefusal(config.metrics.token);
  if (metricsToken) refusals.push(metricsToken);
  return refusals;
}

/** The refusal for a demo account found in the database (its password is in the README). */
export function demoAccountRefusal(
  config: Pick<Config, 'env'>,
  demoAccountEmail: string | null,
): string[] {
  if (!isProduction(config) || demoAccountEmail === null) return [];
  return [
    `the demo account ${demoAccountEmail} exists and its password is public: delete the demo ` +
      'accounts, or run the demo with NODE_ENV unset or development and DEMO_MODE=1',
  ];
}

/** Thrown by main.ts with every refusal; printed one line each, and the process exits with 1. */
export class ProductionRefusal extends Error {
  constructor(readonly reasons: string[]) {
    super(reasons.map((reason) => `Refusing to start in production: ${reason}`).join('\n'));
    this.name = 'ProductionRefusal';
  }
}
