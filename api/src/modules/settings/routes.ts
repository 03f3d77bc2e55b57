import Router from '@koa/router';
import type { AppState } from '../../platform/auth';
import type { SettingService } from './service';

export function settingsRoutes(settings: SettingService) {
  const { getSettings } = settings;
  const router = new Router<AppState>({ prefix: '/api/settings' });
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.body = await getSettings();
  });
  return router;
}
