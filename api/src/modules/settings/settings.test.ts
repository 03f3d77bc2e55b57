import { setSetting } from './settings';
import { useTestApp } from '../../../test/test-app';

const t = useTestApp();

describe('GET /api/settings', () => {
  test('when no logo is configured, then logo_url is local', async () => {
    const res = await t.http().get('/api/settings');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ logo_url: 'local' });
  });

  test('when a logo is configured, then its URL is returned, without signing in', async () => {
    await setSetting(t.context, 'logo_url', 'https://cdn.campus.edu/logo.png');
    await setSetting(t.context, 'logo_url', 'https://cdn.campus.edu/logo-2.png');
    const res = await t.http().get('/api/settings');
    expect(res.body).toEqual({ logo_url: 'https://cdn.campus.edu/logo-2.png' });
    expect(res.headers['cache-control']).toBe('public, max-age=60');
  });
});
