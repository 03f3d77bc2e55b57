// Pure unit tests of the dashboard figures; the transform comes from the shared base.
module.exports = require('../jest.base.cjs');
