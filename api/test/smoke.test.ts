import { useTestApp } from './test-app';

const t = useTestApp();

test('when the settings are read on an empty database, then logo_url is local', async () => {
  const res = await t.http().get('/api/settings');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ logo_url: 'local' });
});
