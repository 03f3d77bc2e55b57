import { loadConfig } from './config';
import { configRefusals, demoAccountRefusal, isProduction, ProductionRefusal } from './production';

const SECRET = 'k'.repeat(32);
const production = (env: Record<string, string> = {}) =>
  loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, SMTP_URL: 'smtp://mail:25', ...env });

describe('production refusals', () => {
  test('when production has a 32-byte secret, SMTP and no demo account, then it may start', () => {
    expect(configRefusals(production())).toEqual([]);
    expect(demoAccountRefusal(production(), null)).toEqual([]);
  });

  test('when JWT_SECRET is unset, then one line says so', () => {
    const config = production();
    expect(configRefusals({ ...config, jwtSecret: undefined })).toEqual([
      'JWT_SECRET must be a random secret of at least 32 bytes in production (it is unset)',
    ]);
  });

  test('when JWT_SECRET is shorter than 32 bytes, then one line says how long it is (in bytes, not characters)', () => {
    expect(configRefusals(production({ JWT_SECRET: 'short-secret' }))).toEqual([
      'JWT_SECRET must be a random secret of at least 32 bytes in production (it has 12)',
    ]);
    // 16 characters of two bytes each: 32 bytes, enough.
    expect(configRefusals(production({ JWT_SECRET: 'é'.repeat(16) }))).toEqual([]);
  });

  test('when SMTP_URL is unset, then one line says e-mails would be written to disk', () => {
    expect(configRefusals({ ...production(), smtpUrl: undefined })).toEqual([
      'SMTP_URL must be set in production: verification e-mails would be written to disk instead',
    ]);
  });

  test('when a demo account exists, then one line names it', () => {
    expect(demoAccountRefusal(production(), 'admin@campus.edu')).toEqual([
      'the demo account admin@campus.edu exists and its password is public: delete the demo accounts, or start with DEMO_MODE=1 if this is a demo',
    ]);
  });

  test('when several rules are broken, then each has its own line', () => {
    const refusal = new ProductionRefusal(
      configRefusals({ ...production(), jwtSecret: undefined, smtpUrl: undefined }),
    );
    expect(refusal.message.split('\n')).toEqual([
      expect.stringMatching(/^Refusing to start in production: JWT_SECRET /),
      expect.stringMatching(/^Refusing to start in production: SMTP_URL /),
    ]);
  });

  test('when in demo mode or not in production, then nothing is refused', () => {
    const bare = { jwtSecret: undefined, smtpUrl: undefined };
    const demo = { ...production({ DEMO_MODE: '1' }), ...bare };
    const development = { ...loadConfig({}), ...bare };
    for (const config of [demo, development]) {
      expect(isProduction(config)).toBe(false);
      expect(configRefusals(config)).toEqual([]);
      expect(demoAccountRefusal(config, 'admin@campus.edu')).toEqual([]);
    }
  });
});
