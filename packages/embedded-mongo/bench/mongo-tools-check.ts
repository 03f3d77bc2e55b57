/**
 * Checks the backup commands against the real mongodump and mongorestore, when you have them:
 *
 *   MONGO_TOOLS_BIN=<dir with mongodump and mongorestore> npm run check:mongo-tools \
 *     -w @campus/embedded-mongo [-- --big-mb 40 --write-fixture]
 *
 * On in-process servers of this package (the real tools talk to them over the wire like to
 * mongod), with the dataset of test/support/backup-dataset.ts plus two large collections (so that
 * mongodump writes them in several interleaved segments):
 *   1. real `mongodump --archive` (plain and `--gzip`) -> our `restore` -> fingerprints equal;
 *   2. our `dump` (plain and `--gzip`) -> real `mongorestore --archive` -> fingerprints equal.
 * `--write-fixture` also writes the real mongodump's archive of the small dataset to
 * test/fixtures/ (what test/backup-format.test.ts restores). Not part of the test suite: CI has
 * no Go toolchain to build the tools with (see the package README, "Backups").
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { start } from '../src';
import { compareFingerprints, dump, fingerprint, openArchive, restore } from '../src/backup';
import { seedBackupDataset } from '../test/support/backup-dataset';

const run = promisify(execFile);

/** How the archive's namespaces came: segments each, and whether segments interleaved. */
async function describeSegments(file: string): Promise<string> {
  const archive = await openArchive(fs.createReadStream(file));
  const segments = new Map<string, Set<number>>();
  const order: string[] = [];
  for await (const b of archive.blocks()) {
    if (b.kind !== 'documents') continue;
    const ns = `${b.db}.${b.collection}`;
    let s = segments.get(ns);
    if (!s) segments.set(ns, (s = new Set()));
    if (!s.has(b.segment)) order.push(ns);
    s.add(b.segment);
  }
  let switches = 0;
  for (let i = 1; i < order.length; i++) if (order[i] !== order[i - 1]) switches++;
  const many = [...segments].filter(([, s]) => s.size > 1).map(([ns, s]) => `${ns} ${s.size}`);
  return `${order.length} segments, ${many.join(', ') || 'one per namespace'}; ${switches} switches of namespace`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'big-mb': { type: 'string', default: '40' },
      'write-fixture': { type: 'boolean', default: false },
    },
  });
  const bin = process.env.MONGO_TOOLS_BIN;
  if (!bin)
    throw new Error('set MONGO_TOOLS_BIN to the directory holding mongodump and mongorestore');
  const tool = (name: string) => path.join(bin, name);
  const { stdout: version } = await run(tool('mongodump'), ['--version']);
  console.log(version.split('\n')[0]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-tools-check-'));
  const servers = await Promise.all([start(), start(), start(), start(), start()]);
  const uri = (i: number) => `${servers[i]?.uri}/?directConnection=true`;
  const failures: string[] = [];
  const check = async (label: string, source: number, target: number) => {
    const a = await fingerprint({ uri: uri(source) });
    const b = await fingerprint({ uri: uri(target) });
    const diff = compareFingerprints(a, b);
    const n = Object.keys(a.collections).length;
    console.log(
      `${diff.length ? 'FAIL' : 'ok  '} ${label}: ${n} namespaces${diff.length ? `\n  ${diff.join('\n  ')}` : ''}`,
    );
    if (diff.length) failures.push(label);
  };
  try {
    const client = await MongoClient.connect(uri(0));
    await seedBackupDataset(client.db('campus'));
    if (values['write-fixture']) {
      const fixture = path.join(__dirname, '../test/fixtures/mongodump-100.8.0.archive');
      await run(tool('mongodump'), ['--uri', uri(0), `--archive=${fixture}`]);
      console.log(`wrote ${fixture} (${fs.statSync(fixture).size} bytes)`);
    }
    // Two large collections: mongodump buffers 16 MiB per collection and dumps 4 at a time, so
    // their segments interleave in the archive.
    const mb = Number(values['big-mb']);
    for (const name of ['big_a', 'big_b']) {
      const coll = client.db('campus').collection<{ _id: number; body: string; n: number }>(name);
      const body = 'x'.repeat(2000);
      for (let i = 0; i < (mb * 1024 * 1024) / 2000; i += 1000)
        await coll.insertMany(
          Array.from({ length: 1000 }, (_, j) => ({ _id: i + j, body, n: i + j })),
        );
    }
    await client.close();

    for (const gzip of [false, true]) {
      const file = path.join(dir, `real${gzip ? '.gz' : ''}.archive`);
      await run(tool('mongodump'), [
        '--uri',
        uri(0),
        `--archive=${file}`,
        ...(gzip ? ['--gzip'] : []),
      ]);
      console.log(`     its archive: ${await describeSegments(file)}`);
      await restore({ uri: uri(1), input: fs.createReadStream(file), drop: true });
      await check(`real mongodump${gzip ? ' --gzip' : ''} -> our restore`, 0, 1);
    }
    for (const gzip of [false, true]) {
      const file = path.join(dir, `ours${gzip ? '.gz' : ''}.archive`);
      await dump({ uri: uri(0), out: fs.createWriteStream(file), gzip });
      await run(tool('mongorestore'), [
        '--uri',
        uri(2 + Number(gzip)),
        `--archive=${file}`,
        '--drop',
        ...(gzip ? ['--gzip'] : []),
      ]);
      await check(`our dump${gzip ? ' --gzip' : ''} -> real mongorestore`, 0, 2 + Number(gzip));
    }
    const file = path.join(dir, 'ours.archive');
    await restore({ uri: uri(4), input: fs.createReadStream(file) });
    await check('our dump -> our restore', 0, 4);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(failures.length ? `${failures.length} failed` : 'every check passed');
  if (failures.length) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
