import { randomBytes } from 'node:crypto';
import { loadConfig } from './config';
import {
  configRefusals,
  demoAccountRefusal,
  isProduction,
  jwtSecretRefusal,
  ProductionRefusal,
} from './production';
import { estimatedEntropyBits } from './secret-strength';

/** A secret as an operator generates it (`openssl rand -base64 48`): never a committed value. */
const secret = () => randomBytes(48).toString('base64');

/** Everything production needs, explicitly, with `env` on top. */
const complete = (env: Record<string, string> = {}) => ({
  NODE_ENV: 'production',
  JWT_SECRET: secret(),
  SMTP_URL: 'smtp://mail:25',
  MONGODB_URI: 'mongodb://db1:27017,db2:27017/campus?replicaSet=rs0',
  WEB_URL: 'https://campus.example.edu',
  PUBLIC_URL: 'https://api.campus.example.edu',
  ALLOWED_ORIGINS: 'https://campus.example.edu,https://feed.campus.example.edu',
  ...env,
});
const production = (env: Record<string, string> = {}) => loadConfig(complete(env));

describe('production refusals', () => {
  test('when production has every setting it needs and no demo account, then it may start', () => {
    expect(configRefusals(production())).toEqual([]);
    expect(demoAccountRefusal(production(), null)).toEqual([]);
  });

  test('when NODE_ENV says production in another case or with spaces, then the rules apply all the same', () => {
    for (const NODE_ENV of ['Production', 'PRODUCTION', ' production ']) {
      const config = loadConfig({ NODE_ENV });
      expect({ NODE_ENV, production: isProduction(config) }).toEqual({
        NODE_ENV,
        production: true,
      });
      expect(configRefusals(config).map((line) => line.split(' ')[0])).toEqual([
        'JWT_SECRET',
        'SMTP_URL',
        'MONGODB_URI',
        'WEB_URL',
        'PUBLIC_URL',
        'ALLOWED_ORIGINS',
      ]);
    }
    // Even a configuration built by hand, with NODE_ENV as written.
    expect(isProduction({ env: 'Production' })).toBe(true);
  });

  test('when METRICS_TOKEN is set in production, then it must be as strong as a signing secret; unset, nothing is refused', () => {
    expect(configRefusals(production({ METRICS_TOKEN: secret() }))).toEqual([]);
    expect(configRefusals(production({ METRICS_TOKEN: 'metrics' }))).toEqual([
      expect.stringMatching(
        /^METRICS_TOKEN has about \d+ bits of estimated entropy, under the 128/,
      ),
    ]);
    // Outside production a short token is the operator's business.
    expect(configRefusals(loadConfig({ METRICS_TOKEN: 'metrics' }))).toEqual([]);
  });

  test('when JWT_SECRET is unset, then one line says so', () => {
    expect(configRefusals({ ...production(), jwtSecret: undefined })).toEqual([
      'JWT_SECRET must be set in production: a random secret of at least 128 bits (openssl rand -base64 48)',
    ]);
  });

  test.each([
    ['32 × a', 'a'.repeat(32)],
    ['a word and digits', 'password1234567890password12345678'],
    ['a word repeated', 'correct-horse-battery-staple-correct-horse-battery'],
    ['the alphabet in order', 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ'],
    ['16 hexadecimal characters', randomBytes(8).toString('hex')],
    ['32 characters of two bytes each', 'é'.repeat(32)],
  ])(
    'when JWT_SECRET is %s, then it is refused for its estimated entropy, however long',
    (_, weak) => {
      const [line, ...others] = configRefusals(production({ JWT_SECRET: weak }));
      expect(others).toEqual([]);
      expect(line).toBe(
        `JWT_SECRET has about ${estimatedEntropyBits(weak)} bits of estimated entropy, under the 128 production needs: generate one (openssl rand -base64 48)`,
      );
      expect(estimatedEntropyBits(weak)).toBeLessThan(128);
    },
  );

  test('when JWT_SECRET is random, base64 or hexadecimal, then it passes', () => {
    for (const value of [
      randomBytes(48).toString('base64'),
      randomBytes(32).toString('base64'),
      randomBytes(32).toString('base64url'),
      randomBytes(32).toString('hex'),
    ]) {
      expect({ value, refusal: jwtSecretRefusal(value) }).toEqual({ value, refusal: undefined });
    }
  });

  test('when a key of a key ring is weak, then its own variable is named', () => {
    expect(jwtSecretRefusal('a'.repeat(40), 'JWT_PREVIOUS_SECRETS')).toMatch(
      /^JWT_PREVIOUS_SECRETS has about \d+ bits of estimated entropy/,
    );
    expect(jwtSecretRefusal(undefined, 'JWT_PREVIOUS_SECRETS')).toMatch(
      /^JWT_PREVIOUS_SECRETS must be set in production/,
    );
  });

  test('when SMTP_URL is unset, then one line says e-mails would be written to disk', () => {
    expect(configRefusals({ ...production(), smtpUrl: undefined })).toEqual([
      'SMTP_URL must be set in production: verification e-mails would be written to disk instead',
    ]);
  });

  test('when DEMO_MODE is on in production, then it is refused instead of switching the checks off', () => {
    expect(configRefusals(production({ DEMO_MODE: '1' }))).toEqual([
      'DEMO_MODE must be off in production (it seeds demo accounts whose passwords are public): run the demo with NODE_ENV unset or development',
    ]);
    // Every other refusal still applies alongside it.
    const bare = loadConfig({ NODE_ENV: 'production', DEMO_MODE: '1' });
    expect(configRefusals(bare)).toHaveLength(7);
  });

  test('when MONGODB_URI is unset, then it is refused unless EMBEDDED_DATABASE=1 says so', () => {
    const { MONGODB_URI: _, ...withoutDatabase } = complete();
    expect(configRefusals(loadConfig(withoutDatabase))).toEqual([
      'MONGODB_URI must be set in production (a MongoDB replica set); EMBEDDED_DATABASE=1 starts the embedded database instead, on purpose only',
    ]);
    expect(configRefusals(loadConfig({ ...withoutDatabase, EMBEDDED_DATABASE: '1' }))).toEqual([]);
  });

  test.each([
    ['WEB_URL', 'WEB_URL must be set in production: the web app, for the links in e-mails'],
    [
      'PUBLIC_URL',
      'PUBLIC_URL must be set in production: the API as browsers reach it, for avatar URLs',
    ],
    [
      'ALLOWED_ORIGINS',
      'ALLOWED_ORIGINS must be set in production: the origins of the web apps that may call the API',
    ],
  ])(
    'when %s is unset, then it is refused: no localhost default in production',
    (variable, line) => {
      const env: Record<string, string> = complete();
      delete env[variable];
      const config = loadConfig(env);
      expect(JSON.stringify([config.webUrl, config.publicUrl, config.allowedOrigins])).not.toMatch(
        /localhost/,
      );
      expect(configRefusals(config)).toEqual([line]);
    },
  );

  test('when an address is not an absolute http(s) URL, or an origin has a path, then its variable is named', () => {
    expect(configRefusals(production({ WEB_URL: 'campus.example.edu' }))).toEqual([
      'WEB_URL must be an absolute http(s) URL in production, got "campus.example.edu"',
    ]);
    expect(configRefusals(production({ PUBLIC_URL: 'ftp://api.example.edu' }))).toEqual([
      'PUBLIC_URL must be an absolute http(s) URL in production, got "ftp://api.example.edu"',
    ]);
    expect(
      configRefusals(
        production({ ALLOWED_ORIGINS: 'https://a.example.edu,https://b.example.edu/' }),
      ),
    ).toEqual([
      'ALLOWED_ORIGINS must list origins only (scheme, host and port, no path or trailing slash), got "https://b.example.edu/"',
    ]);
  });

  test('when a demo account exists, then one line names it', () => {
    expect(demoAccountRefusal(production(), 'admin@campus.edu')).toEqual([
      'the demo account admin@campus.edu exists and its password is public: delete the demo accounts, or run the demo with NODE_ENV unset or development and DEMO_MODE=1',
    ]);
  });

  test('when several rules are broken, then each has its own line naming its variable', () => {
    const refusal = new ProductionRefusal(
      configRefusals(loadConfig({ NODE_ENV: 'Production', JWT_SECRET: 'a'.repeat(32) })),
    );
    expect(refusal.message.split('\n')).toEqual(
      ['JWT_SECRET', 'SMTP_URL', 'MONGODB_URI', 'WEB_URL', 'PUBLIC_URL', 'ALLOWED_ORIGINS'].map(
        (variable) => expect.stringMatching(`^Refusing to start in production: ${variable} `),
      ),
    );
  });

  test('when not in production (demo or not), then nothing is refused and the local defaults apply', () => {
    for (const env of [{}, { DEMO_MODE: '1' }, { NODE_ENV: 'test', DEMO_MODE: '1' }]) {
      const config = loadConfig(env);
      expect(isProduction(config)).toBe(false);
      expect(configRefusals(config)).toEqual([]);
      expect(demoAccountRefusal(config, 'admin@campus.edu')).toEqual([]);
      expect(config.webUrl).toBe('http://localhost:3000');
    }
  });
});
