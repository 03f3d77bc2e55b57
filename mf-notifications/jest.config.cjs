// Pure unit tests of the notification wording; the transform comes from the shared base.
module.exports = require('../jest.base.cjs');
