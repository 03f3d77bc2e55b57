import Router from '@koa/router';
import type { AppContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { getSettings } from './settings';

export function settingsRoutes(app: AppContext) {
  const router = new Router<AppState>({ prefix: '/api/settings' });
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = await getSettings(app);
  });
  return router;
}
