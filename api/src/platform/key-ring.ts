import type { Config } from './config';
import { isProduction, jwtSecretRefusal } from './production';

/**
 * Why a key of JWT_PREVIOUS_SECRETS must not verify tokens in production, one line per key
 * refused: a key that verifies can forge as well as one that signs, so each is held to
 * JWT_SECRET's rules (production.ts `jwtSecretRefusal`: set, strong, never committed).
 */
export function previousSecretRefusals(
  config: Pick<Config, 'env' | 'jwtPreviousSecrets'>,
): string[] {
  if (!isProduction(config)) return [];
  return config.jwtPreviousSecrets.flatMap(
    (secret, i) => jwtSecretRefusal(secret, `JWT_PREVIOUS_SECRETS (key ${i + 1})`) ?? [],
  );
}
