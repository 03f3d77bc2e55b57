import Router from '@koa/router';
import { calls } from '@campus/contracts';
import type { HttpContext } from '../../context';
import { currentUser, type AppState } from '../../platform/auth';
import { bindCall } from '../../platform/calls';
import { USER_NOT_FOUND } from '../users/queries';
import { blockMember, unblockMember } from './block-member';
import { muteMember, unmuteMember } from './mute-member';
import { addMutedWord, removeMutedWord, WORD_NOT_FOUND } from './muted-words';
import { safetyLists } from './safety-lists';

/** Privacy and safety (issue 38): block, mute, muted words and the caller's lists of them. */
export function safetyRoutes(app: HttpContext) {
  const router = new Router<AppState>();
  const member = { before: [app.requireAuth], notFound: USER_NOT_FOUND };
  // Writes count with follows (the member limiter of the follow graph's actions).
  const writing = { ...member, before: [app.requireAuth, app.limits.follows] };
  const caller = (ctx: { state: AppState }) => currentUser(ctx.state);
  bindCall(router, calls.safetyLists, { ...member, cacheControl: 'no-store' }, (ctx) =>
    safetyLists(app, caller(ctx).id),
  );
  bindCall(router, calls.addMutedWord, writing, (ctx, { body }) =>
    addMutedWord(app, caller(ctx), body),
  );
  bindCall(
    router,
    calls.removeMutedWord,
    { ...member, notFound: WORD_NOT_FOUND },
    async (ctx, { params }) => {
      await removeMutedWord(app, caller(ctx), params.id);
    },
  );
  bindCall(router, calls.blockMember, writing, (ctx, { params }) =>
    blockMember(app, caller(ctx), params.id),
  );
  bindCall(router, calls.unblockMember, member, (ctx, { params }) =>
    unblockMember(app, caller(ctx), params.id),
  );
  bindCall(router, calls.muteMember, writing, (ctx, { params, body }) =>
    muteMember(app, caller(ctx), params.id, body.duration),
  );
  bindCall(router, calls.unmuteMember, member, (ctx, { params }) =>
    unmuteMember(app, caller(ctx), params.id),
  );
  return router;
}
