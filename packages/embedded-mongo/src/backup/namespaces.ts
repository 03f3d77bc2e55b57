/**
 * Which namespaces a dump or restore takes, with mongodump's and mongorestore's `--nsInclude`,
 * `--nsExclude`, `--nsFrom` / `--nsTo` patterns: `db.collection`, where `*` stands for any
 * characters (`campus.*`, `*.fs.chunks`). `--nsFrom campus.* --nsTo copy.*` renames: each `*` of
 * the target takes what the source's `*` at the same place matched.
 */

function compile(pattern: string): RegExp {
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.*)')}$`, 's');
}

/** Databases whose collections belong to the server, not to the application. */
const SERVER_DBS = new Set(['admin', 'local', 'config']);

export interface NamespaceRules {
  /** Only this database (`--db`). */
  db?: string;
  nsInclude?: string[];
  nsExclude?: string[];
  /** Renames, pairwise (`--nsFrom` / `--nsTo`). */
  nsFrom?: string[];
  nsTo?: string[];
}

export class NamespaceFilter {
  private readonly include: RegExp[];
  private readonly exclude: RegExp[];
  private readonly renames: Array<{ from: RegExp; to: string }>;

  constructor(private readonly rules: NamespaceRules = {}) {
    this.include = (rules.nsInclude ?? []).map(compile);
    this.exclude = (rules.nsExclude ?? []).map(compile);
    const from = rules.nsFrom ?? [];
    const to = rules.nsTo ?? [];
    if (from.length !== to.length)
      throw new Error('--nsFrom and --nsTo must be given the same number of times');
    this.renames = from.map((f, i) => {
      const target = to[i] as string;
      if (f.split('*').length !== target.split('*').length)
        throw new Error(`--nsFrom ${f} and --nsTo ${target} must have as many '*' as each other`);
      return { from: compile(f), to: target };
    });
  }

  /**
   * Why `db.collection` is left out, or undefined when it is taken. The server's own databases
   * (admin, local, config) and `system.*` collections are left out unless `--db` names the
   * database, as mongodump does.
   */
  skipReason(db: string, collection: string): string | undefined {
    const ns = `${db}.${collection}`;
    if (this.rules.db !== undefined && db !== this.rules.db) return 'another database';
    if (this.rules.db === undefined && SERVER_DBS.has(db)) return "the server's own database";
    if (collection.startsWith('system.')) return 'a system collection';
    if (this.include.length && !this.include.some((r) => r.test(ns))) return 'not in --nsInclude';
    if (this.exclude.some((r) => r.test(ns))) return 'in --nsExclude';
    return undefined;
  }

  /** Where `db.collection` goes: renamed by the first `--nsFrom` it matches. */
  target(db: string, collection: string): { db: string; collection: string } {
    const ns = `${db}.${collection}`;
    for (const { from, to } of this.renames) {
      const m = from.exec(ns);
      if (!m) continue;
      let i = 1;
      const renamed = to.replace(/\*/g, () => m[i++] ?? '');
      const dot = renamed.indexOf('.');
      if (dot <= 0 || dot === renamed.length - 1)
        throw new Error(`--nsTo renames ${ns} to ${renamed}, which is not db.collection`);
      return { db: renamed.slice(0, dot), collection: renamed.slice(dot + 1) };
    }
    return { db, collection };
  }
}
