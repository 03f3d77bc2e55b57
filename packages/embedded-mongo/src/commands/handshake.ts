/** The handshake and server-information commands: hello / ismaster, buildInfo. */
import { Binary } from 'bson';
import { isPlainObject, valueKey, type Doc } from '../values';
import { MAX_BSON_BYTES } from '../wire';
import type { CommandContext, Handler } from './context';

export const SERVER_VERSION = '7.0.0';
/** The user digest of sessions without authentication: SHA-256 of the empty string. */
export const SESSION_UID = new Binary(
  Buffer.from('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'hex'),
);
export const MAX_WIRE_VERSION = 21;

export function hello(cmd: Doc, ctx: CommandContext, legacy: boolean): Doc {
  const reply: Doc = {
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_BYTES,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: MAX_WIRE_VERSION,
    readOnly: false,
    ok: 1,
  };
  if (legacy && cmd.helloOk !== true) return { ismaster: true, ...reply };
  return { isWritablePrimary: true, ...reply };
}

export const buildInfo: Handler = () => ({
  version: SERVER_VERSION,
  gitVersion: 'campus-embedded-mongo',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: MAX_BSON_BYTES,
  storageEngines: ['embedded'],
  ok: 1,
});

export const ok: Handler = () => ({ ok: 1 });

export const endSessions: Handler = (cmd, _db, ctx) => {
  for (const s of Array.isArray(cmd.endSessions) ? cmd.endSessions : [])
    if (isPlainObject(s)) ctx.sessions?.delete(valueKey(s.id));
  return { ok: 1 };
};
