// Shared jest settings: TypeScript through SWC (type checking is `tsc --noEmit`, run separately).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Integration tests talk to real servers on a 2-core machine shared with other jobs.
  testTimeout: 30_000,
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
  testMatch: [
    '<rootDir>/src/**/*.test.ts',
    '<rootDir>/src/**/*.test.tsx',
    '<rootDir>/test/**/*.test.ts',
  ],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'cjs', 'json'],
};
