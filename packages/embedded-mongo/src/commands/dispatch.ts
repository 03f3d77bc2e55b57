/**
 * The database commands this server understands, each taking the command document (with any
 * OP_MSG document sequences merged in) and returning the reply document.
 */
import { serverError, MongoServerError } from '../errors';
import { isPlainObject, valueKey, type Doc } from '../values';
import type { CommandContext, Handler } from './context';
import { getMore, killCursors } from './cursors';
import { aggregate } from './aggregation';
import { buildInfo, endSessions, hello, ok } from './handshake';
import { collStats, dbStats, getParameter, serverStatus, setParameter } from './admin';
import {
  collMod,
  create,
  createIndexes,
  drop,
  dropDatabase,
  dropIndexes,
  listCollections,
  listDatabases,
  listIndexes,
} from './indexes-collections';
import { count, distinct, explain, find } from './reads';
import { del, findAndModify, insert, update } from './writes';

export type { CommandContext };

const MAX_TRACKED_SESSIONS = 10_000;

const configureFailPoint: Handler = (cmd, db, ctx) => {
  if (!ctx.failPoints)
    throw serverError('CommandNotFound', "no such command: 'configureFailPoint'");
  if (db !== 'admin')
    throw serverError(
      'Unauthorized',
      'configureFailPoint may only be run against the admin database.',
    );
  return ctx.failPoints.configure(cmd);
};

export const commands: Record<string, Handler> = {
  hello: (cmd, _db, ctx) => hello(cmd, ctx, false),
  ismaster: (cmd, _db, ctx) => hello(cmd, ctx, true),
  isMaster: (cmd, _db, ctx) => hello(cmd, ctx, true),
  ping: ok,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  setParameter,
  serverStatus,
  dbStats,
  dbstats: dbStats,
  collStats,
  collstats: collStats,
  endSessions,
  killAllSessions: ok,
  listDatabases,
  listCollections,
  create,
  collMod,
  drop,
  dropDatabase,
  createIndexes,
  listIndexes,
  dropIndexes,
  deleteIndexes: (cmd, db, ctx) => dropIndexes({ ...cmd, dropIndexes: cmd.deleteIndexes }, db, ctx),
  insert,
  find,
  getMore,
  killCursors,
  update,
  delete: del,
  findAndModify,
  findandmodify: (cmd, db, ctx) =>
    findAndModify({ ...cmd, findAndModify: cmd.findandmodify }, db, ctx),
  count,
  distinct,
  aggregate,
  explain,
  configureFailPoint,
};

/** Runs one command and always returns a reply document (errors become `ok: 0`). */
export function runCommand(body: Doc, defaultDb: string, ctx: CommandContext): Doc {
  const name = Object.keys(body)[0];
  const db = typeof body.$db === 'string' ? body.$db : defaultDb;
  if (ctx.sessions && isPlainObject(body.lsid) && body.lsid.id !== undefined) {
    ctx.sessions.set(valueKey(body.lsid.id), { id: body.lsid.id, lastUse: new Date() });
    if (ctx.sessions.size > MAX_TRACKED_SESSIONS) {
      const oldest = ctx.sessions.keys().next().value;
      if (oldest !== undefined) ctx.sessions.delete(oldest);
    }
  }
  try {
    const handler =
      name === undefined ? undefined : Object.hasOwn(commands, name) ? commands[name] : undefined;
    if (!handler) {
      throw serverError('CommandNotFound', `no such command: '${name ?? ''}'`);
    }
    return handler(body, db, ctx);
  } catch (e) {
    if (e instanceof MongoServerError) {
      return { ok: 0, errmsg: e.message, code: e.code, codeName: e.codeName, ...e.extra };
    }
    return {
      ok: 0,
      errmsg: e instanceof Error ? e.message : String(e),
      code: 1,
      codeName: 'InternalError',
    };
  }
}
