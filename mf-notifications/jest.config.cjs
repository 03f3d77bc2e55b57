// Component tests run in jsdom; the transform comes from the shared base.
const base = require('../jest.base.cjs');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/../jest.testing-library.cjs', '<rootDir>/jest.setup.ts'],
};
