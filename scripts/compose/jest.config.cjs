// The scripts workspace's own tests (the static checks of docker-compose.yml, the benchmarks'
// BENCHMARKS.md writer, the nginx configuration npm run render:nginx writes). The tests that need
// the builds (scripts/ops/*.after-build.test.ts) run after them: scripts/ops/jest.after-build.config.cjs.
const base = require('../../jest.base.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  testMatch: [
    '<rootDir>/compose/**/*.test.ts',
    '<rootDir>/bundle/**/*.test.ts',
    '<rootDir>/bench/**/*.test.ts',
    '<rootDir>/ops/**/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '\\.after-build\\.test\\.ts$'],
};
