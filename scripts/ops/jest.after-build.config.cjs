// `npm run test:ops`, a step of `npm test` after `npm run build`: the tests of the plain-machine
// path that serve the production builds through Debian's nginx (scripts/ops/*.after-build.test.ts).
// The other tests of scripts/ops run in `npm run test:unit` (scripts/compose/jest.config.cjs).
const base = require('../../jest.base.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: '..',
  testMatch: ['<rootDir>/ops/**/*.after-build.test.ts'],
  // Starts the API and the embedded database on a busy 2-core machine.
  testTimeout: 180_000,
};
