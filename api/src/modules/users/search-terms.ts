/**
 * People search (`GET /api/users?q=`) reads one indexed array per user, `searchTerms`: the words
 * of the name, the whole name, and the e-mail address, lowercased and without accents. A query
 * word matches a term it is a prefix of, so the search is an index range scan per word.
 *
 * The model keeps the terms in step: saving or inserting a user computes them, and every query
 * write that sets a name or an e-mail recomputes them for the users it touched. Accounts stored
 * before the terms existed get them from `backfillSearchTerms`, run once by the migration
 * 0002-people-search-terms.
 */
import { trusted, type Model, type mongo, type Schema } from 'mongoose';
import type { UserModel } from './model';

/** Lowercased, accents and other combining marks removed ('José Núñez' -> 'jose nunez'). */
export function normalizeForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** The words of a normalized text: runs of letters and digits. */
export function searchWords(text: string): string[] {
  return normalizeForSearch(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The terms a user is found by: the words of the name, the whole name, the e-mail address, and
 * '@' + the address's domain ('@campus.edu': people search by domain, issue 40).
 */
export function searchTermsOf(user: { name?: string; email?: string }): string[] {
  const name = normalizeForSearch(user.name ?? '').replace(/\s+/g, ' ');
  const email = normalizeForSearch(user.email ?? '');
  const at = email.lastIndexOf('@');
  const domain = at >= 0 && at < email.length - 1 ? email.slice(at) : '';
  return [...new Set([...searchWords(name), name, email, domain].filter((t) => t !== ''))];
}

/**
 * The domain term a query asks for, if it looks like a domain or the end of an address
 * ('campus.edu', '@campus', '@mail.campus.edu'): '@' + it, matched as a prefix. Undefined
 * otherwise (names and whole addresses are matched as before).
 */
export function domainQuery(whole: string): string | undefined {
  if (whole.startsWith('@')) return whole.length > 1 ? whole : undefined;
  return /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]*)+$/u.test(whole) ? `@${whole}` : undefined;
}

/** A regular expression source matching strings that start with `prefix` literally. */
export function prefixPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

type Terms = { _id: number; name?: string; email?: string };

/** The users collection through the driver, as it is stored (numeric ids). */
function rawUsers(
  User: Pick<Model<Terms>, 'collection'>,
): mongo.Collection<{ _id: number; searchTerms?: string[] }> {
  return User.collection as unknown as mongo.Collection<{ _id: number; searchTerms?: string[] }>;
}

const NAME_OR_EMAIL = ['name', 'email'];

/** Whether an update (operators or a replacement) may change the name or the e-mail. */
function touchesNameOrEmail(update: unknown): boolean {
  if (!update || typeof update !== 'object') return false;
  if (Array.isArray(update)) return true; // a pipeline: anything may change
  return Object.entries(update).some(([key, value]) =>
    key.startsWith('$')
      ? value !== null &&
        typeof value === 'object' &&
        Object.keys(value).some((path) => NAME_OR_EMAIL.includes(path.split('.')[0]!))
      : NAME_OR_EMAIL.includes(key),
  );
}

const QUERY_WRITES = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'replaceOne',
  'findOneAndReplace',
] as const;

type QueryThis = {
  model: Model<Terms>;
  getFilter(): Record<string, unknown>;
  getUpdate(): unknown;
  _searchTermIds?: number[];
};

/** Writes the terms of `ids` from what is stored (through the driver: no hooks, no cache event). */
async function refreshSearchTerms(User: Model<Terms>, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const users = await User.find({ _id: trusted({ $in: ids }) }, { name: 1, email: 1 }).lean<
    Terms[]
  >();
  await Promise.all(
    users.map((u) =>
      rawUsers(User).updateOne({ _id: u._id }, { $set: { searchTerms: searchTermsOf(u) } }),
    ),
  );
}

/** Keeps `searchTerms` in step with every write of a name or an e-mail through the model. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the users schema
export function keepSearchTerms(schema: Schema<any>): void {
  schema.pre(
    'save',
    function (this: Terms & { searchTerms?: string[]; isModified(p: string): boolean }) {
      if (this.isModified('name') || this.isModified('email') || !this.searchTerms?.length)
        this.searchTerms = searchTermsOf(this);
    },
  );
  schema.pre('insertMany', function (this: unknown, docs: unknown) {
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc && typeof doc === 'object') {
        const user = doc as Terms & { searchTerms?: string[] };
        user.searchTerms = searchTermsOf(user);
      }
    }
  });
  for (const op of QUERY_WRITES) {
    schema.pre(op, { document: false, query: true }, async function (this: QueryThis) {
      if (!touchesNameOrEmail(this.getUpdate())) return;
      const matched = await this.model
        .find(this.getFilter(), { _id: 1 })
        .limit(op === 'updateMany' ? 0 : 1)
        .lean<Terms[]>();
      this._searchTermIds = matched.map((u) => u._id);
    });
    schema.post(op, { document: false, query: true }, async function (this: QueryThis) {
      if (this._searchTermIds) await refreshSearchTerms(this.model, this._searchTermIds);
    });
  }
}

const BACKFILL_BATCH = 500;

/**
 * Gives every user stored without search terms, or without the domain term (stored before
 * issue 40), their terms; returns how many it updated.
 */
export async function backfillSearchTerms(User: UserModel): Promise<number> {
  let updated = 0;
  for (;;) {
    const users = await User.find(
      {
        $or: [
          { searchTerms: trusted({ $exists: false }) },
          { email: trusted({ $regex: '@.' }), searchTerms: trusted({ $not: /^@/ }) },
        ],
      },
      { name: 1, email: 1 },
    )
      .limit(BACKFILL_BATCH)
      .lean<Terms[]>();
    if (!users.length) return updated;
    await rawUsers(User).bulkWrite(
      users.map((u) => ({
        updateOne: { filter: { _id: u._id }, update: { $set: { searchTerms: searchTermsOf(u) } } },
      })),
    );
    updated += users.length;
    if (users.length < BACKFILL_BATCH) return updated;
  }
}
