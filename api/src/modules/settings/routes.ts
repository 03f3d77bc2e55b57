import Router from '@koa/router';
import type { AppState } from '../../platform/auth';
import { getSettings } from './service';

export function settingsRoutes() {
  const router = new Router<AppState>({ prefix: '/api/settings' });
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = await getSettings();
  });
  return router;
}
