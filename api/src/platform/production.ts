import type { Config } from './config';

/** HS256 needs a key at least as long as its hash: 32 bytes. */
export const MIN_JWT_SECRET_BYTES = 32;

type ProductionSettings = Pick<Config, 'env' | 'demoMode' | 'jwtSecret' | 'smtpUrl'>;

/**
 * Whether the production rules apply: `NODE_ENV=production` outside demo mode. Demo mode (a
 * local `npm start`, the e2e runs) keeps its generated secret, outbox and demo accounts.
 */
export function isProduction(config: Pick<Config, 'env' | 'demoMode'>): boolean {
  return config.env === 'production' && !config.demoMode;
}

/**
 * Why this configuration must not serve real members, one line per reason (empty when it may):
 * without a long JWT_SECRET tokens could be forged, without SMTP_URL verification links would be
 * written to the server's disk instead of reaching anyone.
 */
export function configRefusals(config: ProductionSettings): string[] {
  if (!isProduction(config)) return [];
  const refusals: string[] = [];
  const secretBytes = config.jwtSecret ? Buffer.byteLength(config.jwtSecret, 'utf8') : 0;
  if (secretBytes < MIN_JWT_SECRET_BYTES) {
    refusals.push(
      `JWT_SECRET must be a random secret of at least ${MIN_JWT_SECRET_BYTES} bytes in production ` +
        `(${secretBytes === 0 ? 'it is unset' : `it has ${secretBytes}`})`,
    );
  }
  if (!config.smtpUrl) {
    refusals.push(
      'SMTP_URL must be set in production: verification e-mails would be written to disk instead',
    );
  }
  return refusals;
}

/** The refusal for a demo account found in the database (its password is in the README). */
export function demoAccountRefusal(
  config: Pick<Config, 'env' | 'demoMode'>,
  demoAccountEmail: string | null,
): string[] {
  if (!isProduction(config) || demoAccountEmail === null) return [];
  return [
    `the demo account ${demoAccountEmail} exists and its password is public: delete the demo ` +
      'accounts, or start with DEMO_MODE=1 if this is a demo',
  ];
}

/** Thrown by main.ts with every refusal; printed one line each, and the process exits with 1. */
export class ProductionRefusal extends Error {
  constructor(readonly reasons: string[]) {
    super(reasons.map((reason) => `Refusing to start in production: ${reason}`).join('\n'));
    this.name = 'ProductionRefusal';
  }
}
