/**
 * mongod's `configureFailPoint` test command, limited to the `failCommand` fail point the
 * drivers' conformance tests use (errorCode, closeConnection, writeConcernError, errorLabels).
 * Only available when the server is started with `enableTestCommands`, as with mongod.
 */
import { badValue } from './errors';
import { isPlainObject, type Doc } from './values';

interface FailPoint {
  remaining: number; // Infinity for alwaysOn
  skip: number;
  data: Doc;
}

export type FailAction =
  | { kind: 'none' }
  | { kind: 'close' }
  /** `point`: which fail point made the error (mongod labels only real getMore failures). */
  | { kind: 'error'; reply: Doc; point: string }
  | { kind: 'writeConcernError'; error: Doc };

/** Names of the codes the drivers' tests inject (mongod sends codeName with every error). */
const CODE_NAMES: Record<number, string> = {
  2: 'BadValue',
  6: 'HostUnreachable',
  7: 'HostNotFound',
  24: 'LockTimeout',
  43: 'CursorNotFound',
  50: 'MaxTimeMSExpired',
  64: 'WriteConcernFailed',
  89: 'NetworkTimeout',
  91: 'ShutdownInProgress',
  100: 'UnsatisfiableWriteConcern',
  112: 'WriteConflict',
  133: 'FailedToSatisfyReadPreference',
  189: 'PrimarySteppedDown',
  234: 'RetryChangeStream',
  246: 'SnapshotUnavailable',
  251: 'NoSuchTransaction',
  262: 'ExceededTimeLimit',
  267: 'PreparedTransactionInProgress',
  280: 'ChangeStreamFatalError',
  9001: 'SocketException',
  10107: 'NotWritablePrimary',
  11600: 'InterruptedAtShutdown',
  11601: 'Interrupted',
  11602: 'InterruptedDueToReplStateChange',
  13435: 'NotPrimaryNoSecondaryOk',
  13436: 'NotPrimaryOrSecondary',
};

/** The fail points served: failCommand, and failGetMoreAfterCursorCheckout (every getMore). */
const NAMES = ['failCommand', 'failGetMoreAfterCursorCheckout'] as const;

export class FailPoints {
  private readonly points = new Map<string, FailPoint>();

  configure(cmd: Doc): Doc {
    const name = cmd.configureFailPoint as (typeof NAMES)[number];
    if (!NAMES.includes(name)) throw badValue(`unknown fail point ${String(name)}`);
    const mode = cmd.mode;
    const data = isPlainObject(cmd.data) ? cmd.data : {};
    let fp: FailPoint | undefined;
    if (mode === 'off') fp = undefined;
    else if (mode === 'alwaysOn') fp = { remaining: Infinity, skip: 0, data };
    else if (isPlainObject(mode) && typeof mode.times === 'number')
      fp = mode.times > 0 ? { remaining: mode.times, skip: 0, data } : undefined;
    else if (isPlainObject(mode) && typeof mode.skip === 'number')
      fp = { remaining: Infinity, skip: mode.skip, data };
    else throw badValue('invalid fail point mode');
    if (fp) this.points.set(name, fp);
    else this.points.delete(name);
    return { count: 0, ok: 1 };
  }

  /** What to do with this command (consumes one activation when it applies). */
  check(commandName: string, appName: string | undefined): FailAction {
    const pointName =
      commandName === 'getMore' && this.points.has('failGetMoreAfterCursorCheckout')
        ? 'failGetMoreAfterCursorCheckout'
        : 'failCommand';
    const fp = this.points.get(pointName);
    if (!fp) return { kind: 'none' };
    const { data } = fp;
    const names =
      pointName === 'failCommand'
        ? Array.isArray(data.failCommands)
          ? data.failCommands
          : []
        : ['getMore'];
    if (!names.includes(commandName)) return { kind: 'none' };
    if (typeof data.appName === 'string' && data.appName !== appName) return { kind: 'none' };
    if (fp.skip > 0) {
      fp.skip--;
      return { kind: 'none' };
    }
    fp.remaining--;
    if (fp.remaining <= 0) this.points.delete(pointName);
    if (data.closeConnection === true) return { kind: 'close' };
    if (typeof data.errorCode === 'number') {
      const reply: Doc = {
        ok: 0,
        errmsg: "Failing command via 'failCommand' failpoint",
        code: data.errorCode,
      };
      const codeName = CODE_NAMES[data.errorCode];
      if (codeName) reply.codeName = codeName;
      if (Array.isArray(data.errorLabels)) reply.errorLabels = data.errorLabels;
      return { kind: 'error', reply, point: pointName };
    }
    if (isPlainObject(data.writeConcernError))
      return { kind: 'writeConcernError', error: data.writeConcernError };
    return { kind: 'none' };
  }
}
