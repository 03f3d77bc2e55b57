/**
 * The unified format's entity operations mapped onto the official driver's API (arguments are
 * declared flat in the test files; the driver takes positional parameters plus an options bag).
 */
import {
  ChangeStream,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Collection,
  type Db,
  type MongoClient,
} from 'mongodb';
import { isDocument, MatchError, type Doc } from './match';
import type { Entities, ObservedEvent } from './runner';

/** What operations need from the runner besides the entities. */
export interface OperationEnv {
  failPoints: Array<{ client: MongoClient; name: string }>;
  /** Runs one nested operation with its expectations (withTransaction's callback). */
  runNested: (op: Doc) => Promise<void>;
  /** The testRunner's createEntities operation. */
  createEntities: (list: Doc[]) => Promise<void>;
}

function resolveArgs(args: Doc | undefined, entities: Entities): Doc {
  const out: Doc = { ...(args ?? {}) };
  if (typeof out.session === 'string') {
    const e = entities.get(out.session);
    if (e.kind !== 'session') throw new Error(`${out.session} is not a session`);
    out.session = e.session as ClientSession;
  }
  if (typeof out.returnDocument === 'string') {
    const v = out.returnDocument.toLowerCase();
    if (v !== 'before' && v !== 'after')
      throw new Error(`bad returnDocument ${out.returnDocument}`);
    out.returnDocument = v;
  }
  return out;
}

/** Takes the named required parameters out of the arguments; the rest are options. */
function take(args: Doc, ...names: string[]): [unknown[], Doc] {
  const rest = { ...args };
  const values = names.map((n) => {
    const v = rest[n];
    delete rest[n];
    return v;
  });
  return [values, rest];
}

function bulkRequests(requests: Doc[]): AnyBulkWriteOperation<Doc>[] {
  return requests.map((r) => {
    const [type, spec] = Object.entries(r)[0] as [string, Doc];
    return { [type]: { ...spec } } as unknown as AnyBulkWriteOperation<Doc>;
  });
}

function clientBulkModels(models: Doc[]): Doc[] {
  return models.map((m) => {
    const [name, spec] = Object.entries(m)[0] as [string, Doc];
    return { name, ...spec };
  });
}

async function collectionOperation(
  coll: Collection<Doc>,
  name: string,
  args: Doc,
): Promise<unknown> {
  switch (name) {
    case 'aggregate': {
      const [[pipeline], opts] = take(args, 'pipeline');
      return coll.aggregate(pipeline as Doc[], opts).toArray();
    }
    case 'bulkWrite': {
      const [[requests], opts] = take(args, 'requests');
      return coll.bulkWrite(bulkRequests(requests as Doc[]), opts);
    }
    case 'countDocuments': {
      const [[filter], opts] = take(args, 'filter');
      return coll.countDocuments(filter as Doc, opts);
    }
    case 'count': {
      const [[filter], opts] = take(args, 'filter');
      return coll.count(filter as Doc, opts);
    }
    case 'estimatedDocumentCount':
      return coll.estimatedDocumentCount(args);
    case 'distinct': {
      const [[field, filter], opts] = take(args, 'fieldName', 'filter');
      return coll.distinct(field as string, (filter ?? {}) as Doc, opts);
    }
    case 'find': {
      const [[filter], opts] = take(args, 'filter');
      return coll.find((filter ?? {}) as Doc, opts).toArray();
    }
    case 'findOne': {
      const [[filter], opts] = take(args, 'filter');
      return coll.findOne((filter ?? {}) as Doc, opts);
    }
    case 'findOneAndDelete': {
      const [[filter], opts] = take(args, 'filter');
      return coll.findOneAndDelete(filter as Doc, opts);
    }
    case 'findOneAndReplace': {
      const [[filter, replacement], opts] = take(args, 'filter', 'replacement');
      return coll.findOneAndReplace(filter as Doc, replacement as Doc, opts);
    }
    case 'findOneAndUpdate': {
      const [[filter, update], opts] = take(args, 'filter', 'update');
      return coll.findOneAndUpdate(filter as Doc, update as Doc, opts);
    }
    case 'insertOne': {
      const [[doc], opts] = take(args, 'document');
      return coll.insertOne(doc as Doc, opts);
    }
    case 'insertMany': {
      const [[docs], opts] = take(args, 'documents');
      return coll.insertMany(docs as Doc[], opts);
    }
    case 'updateOne': {
      const [[filter, update], opts] = take(args, 'filter', 'update');
      return coll.updateOne(filter as Doc, update as Doc, opts);
    }
    case 'updateMany': {
      const [[filter, update], opts] = take(args, 'filter', 'update');
      return coll.updateMany(filter as Doc, update as Doc, opts);
    }
    case 'replaceOne': {
      const [[filter, replacement], opts] = take(args, 'filter', 'replacement');
      return coll.replaceOne(filter as Doc, replacement as Doc, opts);
    }
    case 'deleteOne': {
      const [[filter], opts] = take(args, 'filter');
      return coll.deleteOne(filter as Doc, opts);
    }
    case 'deleteMany': {
      const [[filter], opts] = take(args, 'filter');
      return coll.deleteMany(filter as Doc, opts);
    }
    case 'createIndex': {
      const [[keys], opts] = take(args, 'keys');
      return coll.createIndex(keys as Record<string, 1 | -1>, opts);
    }
    case 'dropIndex': {
      const [[index], opts] = take(args, 'name');
      return coll.dropIndex(index as string, opts);
    }
    case 'listIndexes':
      return coll.listIndexes(args).toArray();
    case 'drop':
      return coll.drop(args);
    case 'createChangeStream': {
      const [[pipeline], opts] = take(args, 'pipeline');
      return openChangeStream(coll.watch((pipeline ?? []) as Doc[], opts));
    }
    default:
      throw new Error(`unsupported collection operation ${name}`);
  }
}

async function databaseOperation(db: Db, name: string, args: Doc): Promise<unknown> {
  switch (name) {
    case 'aggregate': {
      const [[pipeline], opts] = take(args, 'pipeline');
      return db.aggregate(pipeline as Doc[], opts).toArray();
    }
    case 'createCollection': {
      const [[coll], opts] = take(args, 'collection');
      await db.createCollection(coll as string, opts);
      return undefined;
    }
    case 'dropCollection': {
      const [[coll], opts] = take(args, 'collection');
      return db.dropCollection(coll as string, opts);
    }
    case 'modifyCollection': {
      const [[coll], opts] = take(args, 'collection');
      return db.command({ collMod: coll, ...opts });
    }
    case 'listCollections': {
      const [[filter], opts] = take(args, 'filter');
      return db.listCollections((filter ?? {}) as Doc, opts).toArray();
    }
    case 'listCollectionNames': {
      const [[filter], opts] = take(args, 'filter');
      const infos = await db
        .listCollections((filter ?? {}) as Doc, { ...opts, nameOnly: true })
        .toArray();
      return infos.map((i) => i.name);
    }
    case 'runCommand': {
      const [[command], opts] = take(args, 'command', 'commandName');
      return db.command(command as Doc, opts);
    }
    case 'createChangeStream': {
      const [[pipeline], opts] = take(args, 'pipeline');
      return openChangeStream(db.watch((pipeline ?? []) as Doc[], opts));
    }
    default:
      throw new Error(`unsupported database operation ${name}`);
  }
}

async function clientOperation(client: MongoClient, name: string, args: Doc): Promise<unknown> {
  switch (name) {
    case 'clientBulkWrite': {
      const [[models], opts] = take(args, 'models');
      return client.bulkWrite(clientBulkModels(models as Doc[]) as never, opts);
    }
    case 'listDatabases':
      return (await client.db('admin').admin().listDatabases(args)).databases;
    case 'createChangeStream': {
      const [[pipeline], opts] = take(args, 'pipeline');
      return openChangeStream(client.watch((pipeline ?? []) as Doc[], opts));
    }
    default:
      throw new Error(`unsupported client operation ${name}`);
  }
}

/** The unified runner opens a change stream when it is created (the driver waits for next()). */
async function openChangeStream(stream: ChangeStream<Doc>): Promise<ChangeStream<Doc>> {
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
  return stream;
}

async function changeStreamOperation(stream: ChangeStream<Doc>, name: string): Promise<unknown> {
  switch (name) {
    case 'iterateUntilDocumentOrError':
      return stream.next();
    case 'iterateOnce':
      return stream.tryNext();
    case 'close':
      await stream.close();
      return undefined;
    default:
      throw new Error(`unsupported change stream operation ${name}`);
  }
}

async function sessionOperation(
  session: ClientSession,
  name: string,
  args: Doc,
  env: OperationEnv,
): Promise<unknown> {
  switch (name) {
    case 'startTransaction':
      session.startTransaction(args);
      return undefined;
    case 'commitTransaction':
      return session.commitTransaction();
    case 'abortTransaction':
      return session.abortTransaction();
    case 'endSession':
      return session.endSession();
    case 'withTransaction': {
      const [[callback], opts] = take(args, 'callback');
      await session.withTransaction(async () => {
        for (const op of callback as Doc[]) await env.runNested(op);
      }, opts);
      return undefined;
    }
    default:
      throw new Error(`unsupported session operation ${name}`);
  }
}

/** The last two commandStartedEvents of a client. */
function lastTwoStarted(entities: Entities, client: unknown): [Doc, Doc] {
  const started = entities
    .client(String(client))
    .events.filter((e: ObservedEvent) => e.type === 'commandStartedEvent')
    .map((e) => e.event as unknown as Doc);
  if (started.length < 2) throw new MatchError('fewer than two commands were observed');
  return [started[started.length - 2] as Doc, started[started.length - 1] as Doc];
}

async function testRunnerOperation(
  name: string,
  args: Doc,
  entities: Entities,
  env: OperationEnv,
): Promise<unknown> {
  const { failPoints } = env;
  switch (name) {
    case 'failPoint': {
      const client = entities.client(String(args.client)).client;
      const fp = args.failPoint as Doc;
      await client.db('admin').command(fp);
      failPoints.push({ client, name: String(fp.configureFailPoint) });
      return undefined;
    }
    case 'targetedFailPoint': {
      // One member: the server a session is pinned to is the only one.
      const session = args.session as ClientSession;
      const held = [...entities.map.values()].find(
        (e) => e.kind === 'session' && e.session === session,
      );
      if (!held || held.kind !== 'session') throw new Error('the session is not an entity');
      const owner = entities.client(held.client);
      const fp = args.failPoint as Doc;
      await owner.client.db('admin').command(fp);
      failPoints.push({ client: owner.client, name: String(fp.configureFailPoint) });
      return undefined;
    }
    case 'assertSessionTransactionState': {
      const session = args.session as ClientSession;
      const state = (session as unknown as { transaction: { state: string } }).transaction.state;
      const expected: Record<string, string> = {
        none: 'NO_TRANSACTION',
        starting: 'STARTING_TRANSACTION',
        in_progress: 'TRANSACTION_IN_PROGRESS',
        committed: 'TRANSACTION_COMMITTED',
        aborted: 'TRANSACTION_ABORTED',
      };
      if (
        state !== expected[String(args.state)] &&
        !(args.state === 'committed' && state === 'TRANSACTION_COMMITTED_EMPTY')
      )
        throw new MatchError(`session transaction state ${state}, expected ${String(args.state)}`);
      return undefined;
    }
    case 'assertSessionUnpinned': {
      const session = args.session as ClientSession;
      if ((session as unknown as { isPinned?: boolean }).isPinned)
        throw new MatchError('session is pinned');
      return undefined;
    }
    case 'assertSessionDirty':
    case 'assertSessionNotDirty': {
      const session = args.session as ClientSession;
      const dirty = Boolean(
        (session as unknown as { serverSession?: { isDirty?: boolean } }).serverSession?.isDirty,
      );
      if (dirty !== (name === 'assertSessionDirty'))
        throw new MatchError(`session dirty: ${String(dirty)}`);
      return undefined;
    }
    case 'assertSameLsidOnLastTwoCommands':
    case 'assertDifferentLsidOnLastTwoCommands': {
      const [a, b] = lastTwoStarted(entities, args.client);
      const lsid = (e: Doc) => JSON.stringify((e.command as Doc).lsid);
      if ((lsid(a) === lsid(b)) !== (name === 'assertSameLsidOnLastTwoCommands'))
        throw new MatchError(`lsids ${lsid(a)} and ${lsid(b)}`);
      return undefined;
    }
    case 'assertIndexExists':
    case 'assertIndexNotExists': {
      const first = [...entities.map.values()].find((e) => e.kind === 'client');
      if (!first || first.kind !== 'client') throw new Error('no client');
      const indexes = await first.client
        .db(String(args.databaseName))
        .collection(String(args.collectionName))
        .listIndexes()
        .toArray()
        .catch(() => []);
      const exists = indexes.some((i) => i.name === args.indexName);
      if (exists !== (name === 'assertIndexExists'))
        throw new MatchError(`index ${String(args.indexName)} exists: ${exists}`);
      return undefined;
    }
    case 'createEntities':
      await env.createEntities(args.entities as Doc[]);
      return undefined;
    case 'assertCollectionExists':
    case 'assertCollectionNotExists': {
      const first = [...entities.map.values()].find((e) => e.kind === 'client');
      if (!first || first.kind !== 'client') throw new Error('no client');
      const names = (
        await first.client
          .db(String(args.databaseName))
          .listCollections({}, { nameOnly: true })
          .toArray()
      ).map((c) => c.name);
      const exists = names.includes(String(args.collectionName));
      if (exists !== (name === 'assertCollectionExists'))
        throw new MatchError(`collection ${String(args.collectionName)} exists: ${exists}`);
      return undefined;
    }
    default:
      throw new Error(`unsupported testRunner operation ${name}`);
  }
}

/** Executes one operation object and returns the driver's result (not yet converted). */
export async function runOperation(
  op: Doc,
  entities: Entities,
  env: OperationEnv,
): Promise<unknown> {
  const name = String(op.name);
  const raw = op.arguments as Doc | undefined;
  // withTransaction's callback holds operations whose arguments are resolved when they run.
  const args = name === 'withTransaction' ? { ...raw } : resolveArgs(raw, entities);
  if (op.object === 'testRunner') return testRunnerOperation(name, args, entities, env);
  const target = entities.get(String(op.object));
  switch (target.kind) {
    case 'session':
      return sessionOperation(target.session, name, args, env);
    case 'value':
      if (target.value instanceof ChangeStream)
        return changeStreamOperation(target.value as ChangeStream<Doc>, name);
      throw new Error(`cannot run ${name} on ${String(op.object)}`);
    case 'collection':
      return collectionOperation(target.collection, name, args);
    case 'database':
      return databaseOperation(target.db, name, args);
    case 'client':
      return clientOperation(target.client, name, args);
    default:
      throw new Error(`cannot run ${name} on ${String(op.object)}`);
  }
}

export { isDocument };
