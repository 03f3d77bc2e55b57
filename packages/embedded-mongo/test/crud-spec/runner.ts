/**
 * A runner for MongoDB's CRUD conformance tests in the unified test format
 * (https://github.com/mongodb/specifications/blob/master/source/unified-test-format/unified-test-format.md),
 * driving the official `mongodb` driver against a server URI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deserialize, EJSON, serialize } from 'bson';
import {
  ChangeStream,
  MongoClient,
  MongoServerError,
  type ClientSession,
  type Collection,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
} from 'mongodb';
import { isDocument, match, matchExact, MatchError, type Doc, type MatchContext } from './match';
import { runOperation, type OperationEnv } from './operations';
import { skipReason, type Topology } from './skip';

export interface TestOutcome {
  file: string;
  description: string;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  results: TestOutcome[];
}

export type ObservedEvent =
  | { type: 'commandStartedEvent'; event: CommandStartedEvent }
  | { type: 'commandSucceededEvent'; event: CommandSucceededEvent }
  | { type: 'commandFailedEvent'; event: CommandFailedEvent };

export interface ClientEntity {
  kind: 'client';
  client: MongoClient;
  events: ObservedEvent[];
}

export type Entity =
  | ClientEntity
  | { kind: 'database'; db: Db; client: string }
  | { kind: 'collection'; collection: Collection<Doc>; client: string }
  | { kind: 'session'; session: ClientSession; client: string }
  | { kind: 'value'; value: unknown };

export class Entities implements MatchContext {
  readonly map = new Map<string, Entity>();

  get(name: string): Entity {
    const e = this.map.get(name);
    if (!e) throw new Error(`unknown entity ${name}`);
    return e;
  }

  add(name: string, e: Entity): void {
    if (this.map.has(name)) throw new Error(`entity ${name} defined twice`);
    this.map.set(name, e);
  }

  client(name: string): ClientEntity {
    const e = this.get(name);
    if (e.kind !== 'client') throw new Error(`${name} is not a client`);
    return e;
  }

  entity(name: string): unknown {
    const e = this.get(name);
    switch (e.kind) {
      case 'value':
        return e.value;
      case 'session':
        return e.session;
      default:
        throw new MatchError(`${name} is not a BSON entity`);
    }
  }
}

export interface RunnerOptions {
  uri: string;
  /** Only run files whose name contains this string. */
  only?: string;
  /** The topology the server is run as for the tests' runOnRequirements (default "single"). */
  topology?: Topology;
}

/** Loads every JSON test file of the directory (relaxed Extended JSON). */
export function loadSpecFiles(dir: string): Array<{ name: string; spec: Doc }> {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({
      name: f.replace(/\.json$/, ''),
      spec: EJSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'), { relaxed: true }) as Doc,
    }));
}

const SENSITIVE = new Set([
  'authenticate',
  'saslStart',
  'saslContinue',
  'getnonce',
  'createUser',
  'updateUser',
  'copydbgetnonce',
  'copydbsaslstart',
  'copydb',
  'hello',
  'ismaster',
  'isMaster',
]);

function withUriOptions(uri: string, options: Doc | undefined): string {
  if (!options || Object.keys(options).length === 0) return uri;
  const params = Object.entries(options)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
  return `${uri}${uri.includes('?') ? '&' : '/?'}${params}`;
}

async function createEntities(list: Doc[], entities: Entities, uri: string): Promise<void> {
  for (const raw of list) {
    const [type, spec] = Object.entries(raw)[0] as [string, Doc];
    const id = String(spec.id);
    switch (type) {
      case 'client': {
        const observe = new Set((spec.observeEvents as string[] | undefined) ?? []);
        const ignored = new Set(
          (spec.ignoreCommandMonitoringEvents as string[] | undefined) ?? ['configureFailPoint'],
        );
        ignored.add('configureFailPoint');
        const client = new MongoClient(withUriOptions(uri, spec.uriOptions as Doc | undefined), {
          monitorCommands: observe.size > 0,
          serverSelectionTimeoutMS: 5000,
        });
        const entity: ClientEntity = { kind: 'client', client, events: [] };
        const keep = (name: string) =>
          !ignored.has(name) && (spec.observeSensitiveCommands === true || !SENSITIVE.has(name));
        if (observe.has('commandStartedEvent'))
          client.on('commandStarted', (event) => {
            if (keep(event.commandName)) entity.events.push({ type: 'commandStartedEvent', event });
          });
        if (observe.has('commandSucceededEvent'))
          client.on('commandSucceeded', (event) => {
            if (keep(event.commandName))
              entity.events.push({ type: 'commandSucceededEvent', event });
          });
        if (observe.has('commandFailedEvent'))
          client.on('commandFailed', (event) => {
            if (keep(event.commandName)) entity.events.push({ type: 'commandFailedEvent', event });
          });
        await client.connect();
        entities.add(id, entity);
        break;
      }
      case 'database': {
        const client = entities.client(String(spec.client));
        const db = client.client.db(
          String(spec.databaseName),
          optionsOf(spec.databaseOptions as Doc | undefined),
        );
        entities.add(id, { kind: 'database', db, client: String(spec.client) });
        break;
      }
      case 'collection': {
        const db = entities.get(String(spec.database));
        if (db.kind !== 'database') throw new Error(`${String(spec.database)} is not a database`);
        const collection = db.db.collection<Doc>(
          String(spec.collectionName),
          optionsOf(spec.collectionOptions as Doc | undefined),
        );
        entities.add(id, { kind: 'collection', collection, client: db.client });
        break;
      }
      case 'session': {
        const client = entities.client(String(spec.client));
        const session = client.client.startSession((spec.sessionOptions as Doc | undefined) ?? {});
        entities.add(id, { kind: 'session', session, client: String(spec.client) });
        break;
      }
      default:
        throw new Error(`unsupported entity type ${type}`);
    }
  }
}

/** collectionOrDatabaseOptions -> driver options (readConcern, readPreference, writeConcern). */
export function optionsOf(spec: Doc | undefined): Doc {
  if (!spec) return {};
  const out: Doc = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'readPreference' && isDocument(v)) {
      const { mode, ...rest } = v;
      out.readPreference = { mode, ...rest };
    } else out[k] = v;
  }
  return out;
}

async function setUpData(internal: MongoClient, initialData: Doc[] | undefined): Promise<void> {
  for (const data of initialData ?? []) {
    const db = internal.db(String(data.databaseName));
    const name = String(data.collectionName);
    await db
      .collection(name)
      .drop({ writeConcern: { w: 'majority' } })
      .catch(() => false);
    const docs = (data.documents as Doc[] | undefined) ?? [];
    if (data.createOptions) {
      await db.createCollection(name, {
        ...(data.createOptions as Doc),
        writeConcern: { w: 'majority' },
      });
    }
    if (docs.length > 0) {
      await db.collection(name).insertMany(docs, { writeConcern: { w: 'majority' } });
    } else if (!data.createOptions) {
      await db.createCollection(name, { writeConcern: { w: 'majority' } });
    }
  }
}

function eventAsDoc(e: ObservedEvent): Doc {
  const base: Doc = { commandName: e.event.commandName, databaseName: e.event.databaseName };
  // As sent / received on the wire (the driver's events hold Maps and option classes).
  const wire = (d: unknown) => deserialize(serialize(d as Doc));
  if (e.type === 'commandStartedEvent') base.command = wire(e.event.command);
  if (e.type === 'commandSucceededEvent') base.reply = wire(e.event.reply);
  return base;
}

function checkEvents(expectations: Doc[], entities: Entities): void {
  for (const exp of expectations) {
    const eventType = (exp.eventType as string | undefined) ?? 'command';
    if (eventType !== 'command') throw new Error(`unsupported eventType ${eventType}`);
    const client = entities.client(String(exp.client));
    const expected = exp.events as Doc[];
    const actual = client.events;
    const ignoreExtra = exp.ignoreExtraEvents === true;
    if (actual.length < expected.length || (!ignoreExtra && actual.length !== expected.length)) {
      throw new MatchError(
        `expected ${expected.length} events, observed ${actual.length}: ${actual
          .map((e) => `${e.type}(${e.event.commandName})`)
          .join(', ')}`,
      );
    }
    expected.forEach((exp1, i) => {
      const [type, spec] = Object.entries(exp1)[0] as [string, Doc];
      const got = actual[i] as ObservedEvent;
      if (got.type !== type)
        throw new MatchError(
          `event ${i}: expected ${type}, got ${got.type}(${got.event.commandName})`,
        );
      const doc = eventAsDoc(got);
      const { hasServiceId: _s, hasServerConnectionId: _c, ...rest } = spec;
      try {
        for (const [k, v] of Object.entries(rest)) match(v, doc[k], entities, true, k);
      } catch (e) {
        throw new MatchError(`event ${i} (${got.event.commandName}): ${(e as Error).message}`);
      }
    });
  }
}

async function checkOutcome(internal: MongoClient, outcome: Doc[] | undefined): Promise<void> {
  for (const data of outcome ?? []) {
    const docs = await internal
      .db(String(data.databaseName))
      .collection(String(data.collectionName))
      .find({}, { sort: { _id: 1 }, readConcern: { level: 'local' } })
      .toArray();
    try {
      matchExact(data.documents, docs);
    } catch (e) {
      throw new MatchError(`outcome ${String(data.collectionName)}: ${(e as Error).message}`);
    }
  }
}

/** Asserts an expectedError against the error thrown. */
export function checkError(expected: Doc, err: unknown, entities: Entities): void {
  const e = err as Error & Doc;
  const isServer = err instanceof MongoServerError;
  if (expected.isClientError !== undefined && expected.isClientError !== !isServer)
    throw new MatchError(
      `expected a ${expected.isClientError ? 'client' : 'server'} error, got ${e?.constructor?.name}: ${e?.message}`,
    );
  if (expected.isTimeoutError === true) throw new MatchError('timeout errors are not supported');
  const writeErrors = Array.isArray(e.writeErrors)
    ? (e.writeErrors as Doc[])
    : e.writeErrors
      ? [e.writeErrors as Doc]
      : [];
  if (typeof expected.errorContains === 'string') {
    const needle = expected.errorContains.toLowerCase();
    const messages = [
      String(e.message),
      ...writeErrors.map((w) => String(w.errmsg ?? w.message)),
      String((e.errInfo as Doc | undefined)?.errmsg ?? ''),
    ];
    if (!messages.some((m) => m.toLowerCase().includes(needle)))
      throw new MatchError(
        `error message "${e.message}" does not contain "${expected.errorContains}"`,
      );
  }
  if (expected.errorCode !== undefined) {
    if (!isServer)
      throw new MatchError(
        `expected server error code ${String(expected.errorCode)}, got ${e.message}`,
      );
    const codes = [e.code];
    if (!codes.includes(expected.errorCode))
      throw new MatchError(
        `expected error code ${String(expected.errorCode)}, got ${String(e.code)}: ${e.message}`,
      );
  }
  if (typeof expected.errorCodeName === 'string') {
    if (!isServer) throw new MatchError(`expected ${expected.errorCodeName}, got ${e.message}`);
    const names = [
      e.codeName,
      ...writeErrors.map((w) => (w.errInfo as Doc | undefined)?.codeName ?? w.codeName),
    ];
    if (
      !names.some((n) => String(n).toLowerCase() === String(expected.errorCodeName).toLowerCase())
    )
      throw new MatchError(
        `expected codeName ${expected.errorCodeName}, got ${String(e.codeName)} (${String(e.code)}): ${e.message}`,
      );
  }
  if (Array.isArray(expected.errorLabelsContain)) {
    for (const label of expected.errorLabelsContain as string[])
      if (!(e as unknown as MongoServerError).hasErrorLabel?.(label))
        throw new MatchError(`missing error label ${label}`);
  }
  if (Array.isArray(expected.errorLabelsOmit)) {
    for (const label of expected.errorLabelsOmit as string[])
      if ((e as unknown as MongoServerError).hasErrorLabel?.(label))
        throw new MatchError(`unexpected error label ${label}`);
  }
  if (expected.errorResponse !== undefined) {
    if (!isServer) throw new MatchError(`expected a server response, got ${e.message}`);
    match(
      expected.errorResponse,
      (e as unknown as MongoServerError).errorResponse,
      entities,
      true,
      'errorResponse',
    );
  }
  if (expected.expectResult !== undefined) {
    const partial = e.result ?? e.partialResult;
    match(
      expected.expectResult,
      partial === undefined ? undefined : toDocument(partial),
      entities,
      true,
      'result',
    );
  }
  if (expected.writeErrors !== undefined) {
    const actual = e.writeErrors instanceof Map ? Object.fromEntries(e.writeErrors) : e.writeErrors;
    const exp = expected.writeErrors as Doc;
    if (!isDocument(actual)) throw new MatchError('expected writeErrors');
    const keys = Object.keys(actual);
    if (keys.length !== Object.keys(exp).length)
      throw new MatchError(`expected ${Object.keys(exp).length} write errors, got ${keys.length}`);
    for (const [k, v] of Object.entries(exp))
      match(v, toDocument(actual[k]), entities, true, `writeErrors.${k}`);
  }
  if (expected.writeConcernErrors !== undefined) {
    const actual = (e.writeConcernErrors as unknown[] | undefined) ?? [];
    match(
      expected.writeConcernErrors,
      actual.map(toDocument),
      entities,
      false,
      'writeConcernErrors',
    );
  }
}

/** Converts driver model objects (BulkWriteResult, Maps...) to plain documents. */
export function toDocument(v: unknown): unknown {
  if (v instanceof Map) {
    const out: Doc = {};
    for (const [k, x] of v) out[String(k)] = toDocument(x);
    return out;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isDocument(v)) return v;
  const proto = Object.getPrototypeOf(v) as object;
  const name = proto.constructor?.name ?? '';
  if (/Result$|WriteError$/.test(name)) {
    const out: Doc = {};
    const keys = new Set<string>(Object.keys(v));
    for (let p: object | null = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
      for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(p)))
        if (d.get) keys.add(k);
    }
    for (const k of keys) {
      if (k === 'result' || k.startsWith('_')) continue;
      const x = (v as Doc)[k];
      if (typeof x !== 'function') out[k] = toDocument(x);
    }
    return out;
  }
  return v;
}

async function runTest(file: Doc, test: Doc, internal: MongoClient, uri: string): Promise<void> {
  const entities = new Entities();
  const failPoints: Array<{ client: MongoClient; name: string }> = [];
  const env: OperationEnv = {
    failPoints,
    runNested: (op) => runStep(op, entities, env),
    createEntities: (list) => createEntities(list, entities, uri),
  };
  try {
    await setUpData(internal, file.initialData as Doc[] | undefined);
    await createEntities((file.createEntities as Doc[] | undefined) ?? [], entities, uri);
    for (const [i, op] of ((test.operations as Doc[]) ?? []).entries()) {
      try {
        await runStep(op, entities, env);
      } catch (e) {
        throw new Error(`operation ${i} (${String(op.name)}): ${(e as Error).message}`, {
          cause: e,
        });
      }
    }
    if (Array.isArray(test.expectEvents)) checkEvents(test.expectEvents as Doc[], entities);
    // Unacknowledged (w: 0) writes travel on another connection than the outcome's find: give
    // the server a moment to read them first.
    if (JSON.stringify(file.createEntities ?? []).includes('"w":0'))
      await new Promise((resolve) => setTimeout(resolve, 50));
    await checkOutcome(internal, test.outcome as Doc[] | undefined);
  } finally {
    for (const fp of failPoints)
      await fp.client
        .db('admin')
        .command({ configureFailPoint: fp.name, mode: 'off' })
        .catch(() => undefined);
    for (const e of entities.map.values()) {
      if (e.kind === 'value' && e.value instanceof ChangeStream)
        await e.value.close().catch(() => undefined);
      if (e.kind === 'session') await e.session.endSession().catch(() => undefined);
    }
    for (const e of entities.map.values()) {
      if (e.kind === 'client') await e.client.close().catch(() => undefined);
    }
  }
}

async function runStep(op: Doc, entities: Entities, env: OperationEnv): Promise<void> {
  let result: unknown;
  let error: unknown;
  let threw = false;
  try {
    result = await runOperation(op, entities, env);
  } catch (e) {
    threw = true;
    error = e;
  }
  if (op.ignoreResultAndError === true) return;
  if (op.expectError !== undefined) {
    if (!threw)
      throw new MatchError(
        `expected an error, got result ${EJSON.stringify(toDocument(result) as Doc)}`,
      );
    checkError(op.expectError as Doc, error, entities);
    return;
  }
  if (threw) throw error;
  const doc = toDocument(result);
  if (op.expectResult !== undefined) {
    const rootElements = [
      'find',
      'aggregate',
      'listCollections',
      'listDatabases',
      'listIndexes',
      'runCursorCommand',
    ];
    if (rootElements.includes(String(op.name)) && Array.isArray(op.expectResult)) {
      if (!Array.isArray(doc) || doc.length !== op.expectResult.length)
        throw new MatchError(
          `expected ${op.expectResult.length} documents ${EJSON.stringify(op.expectResult)}, got ${EJSON.stringify(doc as Doc[])}`,
        );
      op.expectResult.forEach((exp, i) => match(exp, doc[i], entities, true, `[${i}]`));
    } else {
      match(op.expectResult, doc, entities, true, '');
    }
  }
  if (typeof op.saveResultAsEntity === 'string')
    entities.add(op.saveResultAsEntity, { kind: 'value', value: doc });
}

/** Runs every test of every file and returns the counts and per-test outcomes. */
export async function runSpecs(dir: string, options: RunnerOptions): Promise<Summary> {
  const results: TestOutcome[] = [];
  const internal = new MongoClient(options.uri, { serverSelectionTimeoutMS: 5000 });
  await internal.connect();
  try {
    for (const { name, spec } of loadSpecFiles(dir)) {
      if (options.only && !name.includes(options.only)) continue;
      for (const test of (spec.tests as Doc[]) ?? []) {
        const description = String(test.description);
        const reason = skipReason(spec, test, options.topology);
        if (reason) {
          results.push({ file: name, description, status: 'skipped', reason });
          continue;
        }
        try {
          await runTest(spec, test, internal, options.uri);
          results.push({ file: name, description, status: 'passed' });
        } catch (e) {
          results.push({ file: name, description, status: 'failed', reason: (e as Error).message });
        }
      }
    }
  } finally {
    await internal.close();
  }
  return {
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    skipped: results.filter((r) => r.status === 'skipped').length,
    results,
  };
}

/** The report: one `N passed, N failed, N skipped` line, then the failing tests. */
export function formatSummary(summary: Summary): string {
  const lines = [`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`];
  const failed = summary.results.filter((r) => r.status === 'failed');
  if (failed.length) {
    lines.push('Failing tests:');
    for (const r of failed) lines.push(`  - ${r.file}: ${r.description} -- ${r.reason ?? ''}`);
  }
  return lines.join('\n');
}
