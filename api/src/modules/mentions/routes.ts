import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { mentionSuggestions } from './suggestions';

/** The mention autocomplete (issue 40); mentions themselves are stored by the writing calls. */
export function mentionRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  // Limited per member as people search is (it lists members by what was typed): one budget.
  bindCall(
    router,
    calls.mentionSuggestions,
    { before: [app.requireAuth, app.limits.searches], cacheControl: 'no-store' },
    (ctx, { query }) => mentionSuggestions(app, currentUser(ctx.state).id, query.q),
  );
  return router;
}
