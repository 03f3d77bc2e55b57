import { trusted } from 'mongoose';
import { USER_SEARCH_LIMIT } from '@campus/contracts';
import { useTestApp } from '../../../test/test-app';
import { createLogger } from '../../platform/logger';
import { backfillSearchTerms, searchTermsOf } from './search-terms';

const app = useTestApp();

async function search(auth: string, q: string) {
  const res = await app
    .http()
    .get(`/api/users?q=${encodeURIComponent(q)}`)
    .set('Authorization', auth);
  expect(res.status).toBe(200);
  return res.body as Array<{ id: number; name: string; isFollowing: boolean }>;
}

async function follow(follower: { auth: string }, target: { id: number }) {
  await app
    .http()
    .post(`/api/users/${target.id}/follow`)
    .set('Authorization', follower.auth)
    .expect(200);
}

describe('searchTermsOf', () => {
  test('when a name has accents and capitals, then its terms are plain lowercase words, the whole name and the e-mail', () => {
    expect(searchTermsOf({ name: 'José  Núñez-Ötzi', email: 'jose@campus.edu' })).toEqual([
      'jose',
      'nunez',
      'otzi',
      'jose nunez-otzi',
      'jose@campus.edu',
      '@campus.edu',
    ]);
  });
});

describe('GET /api/users?q=', () => {
  test('when the query is a prefix of a name word or of an e-mail, in any case or accents, then the member is found with whether the caller follows them', async () => {
    const me = await app.createMember({ name: 'Searcher' });
    const jose = await app.createMember({ name: 'José Núñez', email: 'jnunez.s1@campus.edu' });
    const ada = await app.createMember({ name: 'Ada Okafor', email: 'ada.okafor.s1@campus.edu' });
    await follow(me, ada);

    for (const q of ['jose', 'JOSÉ', 'nun', 'NÚÑ', 'José Núñez', 'jose nu'])
      expect((await search(me.auth, q)).map((u) => u.id)).toEqual([jose.id]);
    expect(await search(me.auth, 'okaf')).toEqual([
      expect.objectContaining({ id: ada.id, name: 'Ada Okafor', isFollowing: true }),
    ]);
    expect((await search(me.auth, 'ada.okafor.s1@cam')).map((u) => u.id)).toEqual([ada.id]);
    expect((await search(me.auth, 'jnunez.s1')).map((u) => u.id)).toEqual([jose.id]);
    // A word in the middle of a name is no prefix of it.
    expect(await search(me.auth, 'kafor')).toEqual([]);
  });

  test('when a member renames themselves, then the new name is found and the old one is not', async () => {
    const me = await app.createMember({ name: 'Zeno Renamer' });
    await app
      .http()
      .put(`/api/users/${me.id}`)
      .set('Authorization', me.auth)
      .send({ name: 'Xavière Quintero' })
      .expect(200);
    expect((await search(me.auth, 'xaviere')).map((u) => u.id)).toEqual([me.id]);
    expect(await search(me.auth, 'zeno')).toEqual([]);
  });

  test('when accounts are unverified or suspended, then nobody finds them', async () => {
    const me = await app.createMember();
    await app.createMember({ name: 'Hidden Unverified', isVerified: false });
    const suspended = await app.createMember({ name: 'Hidden Suspended' });
    await app.models.User.updateOne({ _id: suspended.id }, { $set: { suspendedAt: new Date() } });
    expect(await search(me.auth, 'hidden')).toEqual([]);
  });

  test('when many match, then at most 20 come back, by name', async () => {
    const me = await app.createMember();
    for (let i = 0; i < USER_SEARCH_LIMIT + 3; i++)
      await app.createMember({ name: `Manymatch ${String(i).padStart(2, '0')}` });
    const found = await search(me.auth, 'manymatch');
    expect(found).toHaveLength(USER_SEARCH_LIMIT);
    expect(found.map((u) => u.name)).toEqual([...found.map((u) => u.name)].sort());
  });

  test('when the query is a domain or the end of an address, then the members at that domain are found; a plain word finds names as before', async () => {
    const me = await app.createMember({ name: 'Domain Searcher', email: 'searcher@cu.edu' });
    const at = await app.createMember({ name: 'Zed Domainless', email: 'zed.d1@mail.campus.edu' });
    const other = await app.createMember({ name: 'Yara Elsewhere', email: 'yara.e1@cu.edu' });
    for (const q of ['mail.campus.edu', '@mail.campus', 'MAIL.CAMPUS.EDU', '@mail']) {
      const ids = (await search(me.auth, q)).map((u) => u.id);
      expect(ids).toContain(at.id);
      expect(ids).not.toContain(other.id);
    }
    const ids = (await search(me.auth, 'cu.edu')).map((u) => u.id);
    expect(ids).toContain(other.id);
    expect(ids).not.toContain(at.id);
    // A word that is no domain matches names (and addresses) as it did.
    expect((await search(me.auth, 'mail')).map((u) => u.id)).not.toContain(at.id);
  });

  test('when users were stored before the domain term, then the migration gives it them', async () => {
    const me = await app.createMember();
    const old = await app.createMember({ name: 'Prior Member', email: 'prior.p1@olddomain.edu' });
    await app.models.User.collection.updateOne(
      { _id: old.id as never },
      { $set: { searchTerms: ['prior', 'member', 'prior member', 'prior.p1@olddomain.edu'] } },
    );
    expect(await search(me.auth, 'olddomain.edu')).toEqual([]);
    const { up } = await import('../../migrations/0002-people-search-terms');
    const { connection } = app.database;
    await up({
      db: connection.db!,
      connection,
      models: app.models,
      logger: createLogger('silent'),
    });
    expect((await search(me.auth, 'olddomain.edu')).map((u) => u.id)).toEqual([old.id]);
  });

  test('when users were stored without search terms, then the backfill gives them theirs', async () => {
    const me = await app.createMember();
    const old = await app.createMember({ name: 'Oldtimer Backfilled' });
    await app.models.User.collection.updateOne(
      { _id: old.id as never },
      { $unset: { searchTerms: 1 } },
    );
    expect(await search(me.auth, 'oldtimer')).toEqual([]);
    expect(await backfillSearchTerms(app.models.User)).toBeGreaterThanOrEqual(1);
    expect((await search(me.auth, 'oldtimer')).map((u) => u.id)).toEqual([old.id]);
  });

  test.each([
    ['', 'q is required'],
    ['?q=', 'q is required'],
    ['?q=%20%20', 'q is required'],
    [`?q=${'a'.repeat(101)}`, 'q must be at most 100 characters'],
    ['?q[$gt]=', 'q is required'],
  ])('when the query is %s, then it is a 400', async (query, message) => {
    const me = await app.createMember();
    const res = await app.http().get(`/api/users${query}`).set('Authorization', me.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  test('when regular-expression characters are typed, then they are matched literally', async () => {
    const me = await app.createMember();
    expect(await search(me.auth, '.*')).toEqual([]);
    expect(await search(me.auth, '(')).toEqual([]);
  });

  test('when there is no token, then it is a 401', async () => {
    await app.http().get('/api/users?q=ada').expect(401);
    await app.http().get('/api/users/suggestions').expect(401);
  });
});

describe('GET /api/users/suggestions', () => {
  test('when the people I follow follow others, then those come first by how many of them follow each, then by followers, never me or whom I follow', async () => {
    const me = await app.createMember({ name: 'Me' });
    const [f1, f2, f3] = await Promise.all([1, 2, 3].map(() => app.createMember()));
    const [popular, mutualTwo, mutualOne, fan1, fan2] = await Promise.all(
      ['Popular', 'MutualTwo', 'MutualOne', 'Fan1', 'Fan2'].map((name) =>
        app.createMember({ name }),
      ),
    );
    for (const f of [f1!, f2!, f3!]) await follow(me, f);
    // mutualTwo: followed by two people I follow; mutualOne by one, with more followers.
    await follow(f1!, mutualTwo!);
    await follow(f2!, mutualTwo!);
    await follow(f3!, mutualOne!);
    await follow(fan1!, mutualOne!);
    await follow(fan2!, mutualOne!);
    // Someone I follow, followed by the others: never suggested.
    await follow(f2!, f1!);
    await follow(f1!, me);
    // popular: followed by one person I follow too, but with fewer followers than mutualOne.
    for (const fan of [fan1!, f3!]) await follow(fan, popular!);

    const res = await app
      .http()
      .get('/api/users/suggestions')
      .set('Authorization', me.auth)
      .expect(200);
    const ids = res.body.map((u: { id: number }) => u.id);
    expect(ids.slice(0, 3)).toEqual([mutualTwo!.id, mutualOne!.id, popular!.id]);
    expect(
      res.body
        .slice(0, 3)
        .map((u: { mutualCount: number; followersCount: number }) => [
          u.mutualCount,
          u.followersCount,
        ]),
    ).toEqual([
      [2, 2],
      [1, 3],
      [1, 2],
    ]);
    expect(res.body[0]).toMatchObject({ mutualCount: 2, followersCount: 2, isFollowing: false });
    expect(ids).not.toContain(me.id);
    for (const f of [f1!, f2!, f3!]) expect(ids).not.toContain(f.id);
    expect(res.body.length).toBeLessThanOrEqual(10);
  });

  test('when I follow nobody, then the most followed members come first', async () => {
    const loner = await app.createMember({ name: 'Loner' });
    const star = await app.createMember({ name: 'Star' });
    const fans = await Promise.all([1, 2, 3, 4, 5, 6].map(() => app.createMember()));
    for (const fan of fans) await follow(fan, star);
    // An app of its own: each app counts the most followed once a minute.
    const res = await app
      .another({})
      .http()
      .get('/api/users/suggestions')
      .set('Authorization', loner.auth)
      .expect(200);
    expect(res.body[0]).toMatchObject({ id: star.id, mutualCount: 0, followersCount: 6 });
    expect(res.body.map((u: { id: number }) => u.id)).not.toContain(loner.id);
    expect(res.body).toHaveLength(10);
  });
});

describe('people search and the index', () => {
  test('when a domain most members are at is searched, then members are read in name order up to the page', async () => {
    const me = await app.createMember();
    for (let i = 0; i < USER_SEARCH_LIMIT + 10; i++)
      await app.createMember({
        name: `Crowd ${String(i).padStart(2, '0')}`,
        email: `c${i}@crowd.edu`,
      });
    const found = await search(me.auth, 'crowd.edu');
    expect(found.map((u) => u.name)).toEqual(
      Array.from({ length: USER_SEARCH_LIMIT }, (_, i) => `Crowd ${String(i).padStart(2, '0')}`),
    );
    // The route's own read (caught from mongoose), explained: it stops at the page.
    const reads: Array<{ filter: Record<string, unknown>; options: Record<string, unknown> }> = [];
    app.database.connection.set('debug', (coll: string, method: string, ...args: unknown[]) => {
      if (coll === 'users' && method === 'find')
        reads.push({ filter: args[0] as never, options: (args[2] ?? args[1]) as never });
    });
    try {
      await search(me.auth, 'crowd.edu');
    } finally {
      app.database.connection.set('debug', false);
    }
    const read = reads.find((r) => '$or' in r.filter)!;
    expect(read.options).toMatchObject({ hint: { name: 1, _id: 1 }, limit: USER_SEARCH_LIMIT });
    const plan = (await app.models.User.collection
      .find(read.filter, read.options)
      .explain('executionStats')) as unknown as {
      executionStats: { totalDocsExamined: number };
    };
    // Everyone named before 'Crowd' in this database is read too, but not the 10 after the page.
    const before = await app.models.User.countDocuments({ name: trusted({ $lt: 'Crowd' }) });
    expect(plan.executionStats.totalDocsExamined).toBeLessThanOrEqual(before + USER_SEARCH_LIMIT);
  });

  test('when a name is searched, then only the index range of its first word is read', async () => {
    const me = await app.createMember();
    for (let i = 0; i < 30; i++) await app.createMember({ name: `Filler Person ${i}` });
    const target = await app.createMember({ name: 'Quillon Indexed' });
    expect((await search(me.auth, 'quill ind')).map((u) => u.id)).toEqual([target.id]);
    // The same filter the route builds, explained.
    const plan = (await app.models.User.find({
      isVerified: true,
      suspendedAt: trusted({ $not: { $type: 'date' } }),
      searchTerms: trusted({ $gte: 'quill', $lt: 'quill\uffff' }),
    }).explain('executionStats')) as unknown as {
      queryPlanner: { winningPlan: { stage: string; indexName?: string } };
      executionStats: { totalDocsExamined: number };
    };
    expect(plan.queryPlanner.winningPlan).toMatchObject({
      stage: 'IXSCAN',
      indexName: 'searchTerms_1',
    });
    expect(plan.executionStats.totalDocsExamined).toBeLessThanOrEqual(2);
  });
});
