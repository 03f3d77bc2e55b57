const { createAppConfig } = require('../rspack.shared');

module.exports = createAppConfig({
  dir: __dirname,
  name: 'mf_profile',
  port: 3002,
  title: 'Campus profile (standalone)',
  exposes: {
    './ProfilePage': './src/profile/profile-page.tsx',
    './EditProfilePage': './src/edit-profile/edit-profile-page.tsx',
    './FollowListPage': './src/follow-list/follow-list-page.tsx',
  },
});
