import path from 'node:path';
import { DEFAULT_INSTITUTION_DOMAINS, loadConfig } from './config';

describe('loadConfig', () => {
  test('when the environment is empty, then the embedded single-machine defaults apply', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      mongodbUri: undefined,
      jwtSecret: undefined,
      adminUserId: 107,
      institutionDomains: DEFAULT_INSTITUTION_DOMAINS,
      publicUrl: 'http://localhost:4000',
      webUrl: 'http://localhost:3000',
      allowedOrigins: [3000, 3001, 3002, 3003, 3004].map((p) => `http://localhost:${p}`),
      jsonBodyLimit: '100kb',
      avatarMaxBytes: 5 * 1024 * 1024,
      demoMode: false,
    });
    expect(config.memberLimits.comments).toEqual({ perMinute: 20, perDay: 300 });
    expect(config.dataDir).toBe(path.resolve(__dirname, '../../../.data'));
    expect(config.rateLimits.login.max).toBeGreaterThan(0);
  });

  test('when variables are set, then they override the defaults (lists split on commas, URLs without a trailing slash)', () => {
    const config = loadConfig({
      PORT: '5000',
      INSTITUTION_DOMAINS: ' Uni.ac.uk , @mail.uni.ac.uk',
      ALLOWED_ORIGINS: 'https://app.example,https://admin.example',
      PUBLIC_URL: 'https://api.example/',
      ADMIN_USER_ID: '1',
      RATE_LIMIT_LOGIN_MAX: '0',
      RATE_LIMIT_LOGIN_WINDOW_MS: '1000',
      DATA_DIR: '/var/campus',
      DEMO_MODE: '1',
      RATE_LIMIT_LIKES_PER_MINUTE: '0',
      RATE_LIMIT_AVATARS_PER_DAY: '3',
    });
    expect(config).toMatchObject({
      port: 5000,
      institutionDomains: ['uni.ac.uk', 'mail.uni.ac.uk'],
      allowedOrigins: ['https://app.example', 'https://admin.example'],
      publicUrl: 'https://api.example',
      adminUserId: 1,
      dataDir: '/var/campus',
    });
    expect(config.rateLimits.login).toEqual({ max: 0, windowMs: 1000 });
    expect(config.demoMode).toBe(true);
    expect(config.memberLimits.likes).toEqual({ perMinute: 0, perDay: 1000 });
    expect(config.memberLimits.avatars).toEqual({ perMinute: 5, perDay: 3 });
  });

  test('when NODE_ENV is production in any case, then it reads as production, with no local address and no embedded database by default', () => {
    const config = loadConfig({ NODE_ENV: ' Production ' });
    expect(config).toMatchObject({
      env: 'production',
      webUrl: '',
      publicUrl: '',
      allowedOrigins: [],
      embeddedDatabase: false,
    });
    expect(loadConfig({ NODE_ENV: 'PRODUCTION', EMBEDDED_DATABASE: '1' }).embeddedDatabase).toBe(
      true,
    );
    expect(loadConfig({ NODE_ENV: 'Test' }).logLevel).toBe('silent');
  });

  test('when HOST and METRICS_* are unset, then the API and its metrics listen on this machine only, and no metrics are served', () => {
    for (const NODE_ENV of ['development', 'production']) {
      expect(loadConfig({ NODE_ENV })).toMatchObject({
        host: '127.0.0.1',
        metrics: { port: undefined, host: '127.0.0.1', token: undefined },
      });
    }
    expect(
      loadConfig({
        HOST: '0.0.0.0',
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.5',
        METRICS_TOKEN: 'abc',
      }),
    ).toMatchObject({
      host: '0.0.0.0',
      metrics: { port: 9464, host: '10.0.0.5', token: 'abc' },
    });
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(
      'METRICS_PORT must be a non-negative integer',
    );
  });

  test('when a number is malformed, then loading fails loudly', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow('PORT must be a non-negative integer');
  });
});
