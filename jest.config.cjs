// `npm run test:unit`: every workspace's tests in one Jest run. Each project keeps its own config
// (environment, setup files, module mappers), so `npm test -w <workspace>` runs the same tests alone.
/** @type {import('jest').Config} */
module.exports = {
  // A global option, which Jest ignores in a project's config: keep jest.base.cjs's value here.
  testTimeout: require('./jest.base.cjs').testTimeout,
  projects: [
    '<rootDir>/packages/contracts',
    '<rootDir>/packages/embedded-mongo',
    '<rootDir>/packages/kit',
    '<rootDir>/api',
    '<rootDir>/shell',
    '<rootDir>/mf-feed',
    '<rootDir>/mf-profile',
    '<rootDir>/mf-notifications',
    '<rootDir>/mf-admin',
    '<rootDir>/scripts/compose/jest.config.cjs',
  ],
};
