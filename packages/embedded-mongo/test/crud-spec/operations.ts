/**
 * The unified format's entity operations mapped onto the official driver's API (arguments are
 * declared flat in the test files; the driver takes positional parameters plus an options bag).
 */
import type { AnyBulkWriteOperation, ClientSession, Collection, Db, MongoClient } from 'mongodb';
import { isDocument, MatchError, type Doc } from './match';
import type { Entities } from './runner';

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
    default:
      throw new Error(`unsupported client operation ${name}`);
  }
}

async function testRunnerOperation(
  name: string,
  args: Doc,
  entities: Entities,
  failPoints: Array<{ client: MongoClient; name: string }>,
): Promise<unknown> {
  switch (name) {
    case 'failPoint': {
      const client = entities.client(String(args.client)).client;
      const fp = args.failPoint as Doc;
      await client.db('admin').command(fp);
      failPoints.push({ client, name: String(fp.configureFailPoint) });
      return undefined;
    }
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
  failPoints: Array<{ client: MongoClient; name: string }>,
): Promise<unknown> {
  const name = String(op.name);
  const args = resolveArgs(op.arguments as Doc | undefined, entities);
  if (op.object === 'testRunner') return testRunnerOperation(name, args, entities, failPoints);
  const target = entities.get(String(op.object));
  switch (target.kind) {
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
