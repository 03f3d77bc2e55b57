// Shared jest settings: TypeScript through SWC (type checking is `tsc --noEmit`, run separately).
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // A run that leaked an open handle fails after a grace period instead of hanging CI.
  globalTeardown: path.join(__dirname, 'jest.exit-watchdog.cjs'),
  // Integration tests talk to real servers on a 2-core machine shared with other jobs: this is a
  // hang detector, not a speed check. A test of 16 sequential password-hashing requests took over
  // 30 s at a load of 14 (address-owner.test.ts), so 2 minutes.
  testTimeout: 120_000,
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          target: 'es2022',
          transform: { react: { runtime: 'automatic' } },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // thumbhash (the kit's image placeholders) ships ES modules only: SWC turns it into CommonJS too.
  transformIgnorePatterns: ['/node_modules/(?!thumbhash/)'],
  testMatch: [
    '<rootDir>/src/**/*.test.ts',
    '<rootDir>/src/**/*.test.tsx',
    '<rootDir>/test/**/*.test.ts',
  ],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'cjs', 'json'],
};
