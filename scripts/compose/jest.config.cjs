// The scripts workspace's own tests (the static checks of docker-compose.yml, the benchmarks'
// BENCHMARKS.md writer).
const base = require('../../jest.base.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  testMatch: [
    '<rootDir>/compose/**/*.test.ts',
    '<rootDir>/bundle/**/*.test.ts',
    '<rootDir>/bench/**/*.test.ts',
  ],
};
