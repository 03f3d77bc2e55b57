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
  | { kind: 'error'; reply: Doc }
  | { kind: 'writeConcernError'; error: Doc };

export class FailPoints {
  private failCommand?: FailPoint;

  configure(cmd: Doc): Doc {
    if (cmd.configureFailPoint !== 'failCommand')
      throw badValue(`unknown fail point ${String(cmd.configureFailPoint)}`);
    const mode = cmd.mode;
    const data = isPlainObject(cmd.data) ? cmd.data : {};
    if (mode === 'off') this.failCommand = undefined;
    else if (mode === 'alwaysOn') this.failCommand = { remaining: Infinity, skip: 0, data };
    else if (isPlainObject(mode) && typeof mode.times === 'number')
      this.failCommand = mode.times > 0 ? { remaining: mode.times, skip: 0, data } : undefined;
    else if (isPlainObject(mode) && typeof mode.skip === 'number')
      this.failCommand = { remaining: Infinity, skip: mode.skip, data };
    else throw badValue('invalid fail point mode');
    return { count: 0, ok: 1 };
  }

  /** What to do with this command (consumes one activation when it applies). */
  check(commandName: string, appName: string | undefined): FailAction {
    const fp = this.failCommand;
    if (!fp) return { kind: 'none' };
    const { data } = fp;
    const names = Array.isArray(data.failCommands) ? data.failCommands : [];
    if (!names.includes(commandName)) return { kind: 'none' };
    if (typeof data.appName === 'string' && data.appName !== appName) return { kind: 'none' };
    if (fp.skip > 0) {
      fp.skip--;
      return { kind: 'none' };
    }
    fp.remaining--;
    if (fp.remaining <= 0) this.failCommand = undefined;
    if (data.closeConnection === true) return { kind: 'close' };
    if (typeof data.errorCode === 'number') {
      const reply: Doc = {
        ok: 0,
        errmsg: "Failing command via 'failCommand' failpoint",
        code: data.errorCode,
      };
      if (Array.isArray(data.errorLabels)) reply.errorLabels = data.errorLabels;
      return { kind: 'error', reply };
    }
    if (isPlainObject(data.writeConcernError))
      return { kind: 'writeConcernError', error: data.writeConcernError };
    return { kind: 'none' };
  }
}
