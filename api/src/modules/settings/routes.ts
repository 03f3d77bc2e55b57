import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import type { AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { getSettings } from './settings';

export function settingsRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  bindCall(router, calls.settings, { cacheControl: 'public, max-age=60' }, () => getSettings(app));
  return router;
}
