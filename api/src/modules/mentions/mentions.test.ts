import { randomBytes } from 'node:crypto';
import type { Comment, MentionCandidate, Notification, Post, PostDetail } from '@campus/contracts';
import { feed } from '../../../test/content';
import { useTestApp } from '../../../test/test-app';

const app = useTestApp();
type Member = Awaited<ReturnType<typeof app.createMember>>;

/** A member with a name no other test uses (names are what mentions look for). */
const member = (name?: string) =>
  app.createMember({ name: name ?? `Member ${randomBytes(3).toString('hex')}` });

async function post(author: Member, content: string, mentions?: unknown): Promise<Post> {
  const res = await app
    .http()
    .post('/api/posts')
    .set('Authorization', author.auth)
    .send({ content, ...(mentions === undefined ? {} : { mentions }) })
    .expect(201);
  return res.body as Post;
}

async function comment(
  author: Member,
  postId: number,
  content: string,
  mentions?: number[],
  extra: object = {},
): Promise<Comment> {
  const res = await app
    .http()
    .post(`/api/posts/${postId}/comments`)
    .set('Authorization', author.auth)
    .send({ content, ...(mentions ? { mentions } : {}), ...extra })
    .expect(201);
  return res.body as Comment;
}

const editPost = (author: Member, id: number, body: object) =>
  app.http().put(`/api/posts/${id}`).set('Authorization', author.auth).send(body);

async function mentionsOf(
  viewer: Member,
): Promise<Array<Extract<Notification, { type: 'mention' }>>> {
  const res = await app
    .http()
    .get('/api/notifications')
    .set('Authorization', viewer.auth)
    .expect(200);
  return (res.body as Notification[]).filter(
    (n): n is Extract<Notification, { type: 'mention' }> => n.type === 'mention',
  );
}

async function detail(viewer: Member, id: number): Promise<PostDetail> {
  const res = await app
    .http()
    .get(`/api/posts/${id}`)
    .set('Authorization', viewer.auth)
    .expect(200);
  return res.body as PostDetail;
}

/** The text each mention covers. */
const covered = (text: string, mentions: Post['mentions']) =>
  (mentions ?? []).map((m) => [m.id, text.slice(m.start, m.end)]);

describe('mentions in posts', () => {
  test('when a post mentions a member by id, then the mention is stored where "@Name" stands and shown on the post', async () => {
    const ada = await member();
    const bob = await member();
    const text = `Lunch with @${bob.name} today?`;
    const created = await post(ada, text, [bob.id]);
    expect(covered(text, created.mentions)).toEqual([[bob.id, `@${bob.name}`]]);
    const [inFeed] = (await feed(app.http, ada)).filter((p) => p.id === created.id);
    expect(inFeed!.mentions).toEqual(created.mentions);
    expect((await detail(bob, created.id)).mentions).toEqual(created.mentions);
  });

  test('when the mentioned member is renamed, then the mention still links to them over the text as written', async () => {
    const ada = await member();
    const bob = await member();
    const text = `Ask @${bob.name} about it`;
    const created = await post(ada, text, [bob.id]);
    await app
      .http()
      .put(`/api/users/${bob.id}`)
      .set('Authorization', bob.auth)
      .send({ name: 'Robert Renamed', bio: '' })
      .expect(200);
    const shown = await detail(ada, created.id);
    expect(covered(shown.content, shown.mentions)).toEqual([[bob.id, `@${bob.name}`]]);
  });

  test('when a member is mentioned, then they get one mention notification; the author gets none for mentioning themself', async () => {
    const ada = await member();
    const bob = await member();
    const created = await post(ada, `@${bob.name} and @${bob.name}, and me @${ada.name}`, [
      bob.id,
      bob.id,
      ada.id,
    ]);
    expect(created.mentions).toHaveLength(3);
    const got = await mentionsOf(bob);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      type: 'mention',
      actor: { id: ada.id },
      post: { id: created.id },
      commentText: null,
      commentId: null,
      isRead: false,
    });
    expect(await mentionsOf(ada)).toEqual([]);
  });

  test('when notifications are grouped, then each mention is a group of its own, live as the others', async () => {
    const ada = await member();
    const bob = await member();
    const seen: number[] = [];
    const stop = app.events.on('notification.created', (e) => {
      if (e.userId === bob.id) seen.push(e.notificationId);
    });
    try {
      await post(ada, `one @${bob.name}`, [bob.id]);
      await post(ada, `two @${bob.name}`, [bob.id]);
      await app.caughtUp();
    } finally {
      stop();
    }
    expect(seen).toHaveLength(2);
    const res = await app
      .http()
      .get('/api/notifications?grouped=true')
      .set('Authorization', bob.auth)
      .expect(200);
    const groups = (res.body as { groups: Array<{ key: string; type: string; ids: number[] }> })
      .groups;
    expect(groups.map((g) => [g.type, g.ids])).toEqual([
      ['mention', [seen[1]]],
      ['mention', [seen[0]]],
    ]);
  });

  test('when the mentioned member blocked the author, then there is no mention and no notification', async () => {
    const ada = await member();
    const bob = await member();
    await app.http().post(`/api/users/${ada.id}/block`).set('Authorization', bob.auth).expect(200);
    const created = await post(ada, `hey @${bob.name}`, [bob.id]);
    expect(created.mentions ?? []).toEqual([]);
    expect(await mentionsOf(bob)).toEqual([]);
  });

  test('when the mentioned member muted the author, then the mention links but no notification goes to them', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    await app
      .http()
      .post(`/api/users/${ada.id}/mute`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(200);
    const created = await post(ada, `@${bob.name} @${cy.name}`, [bob.id, cy.id]);
    expect(created.mentions?.map((m) => m.id)).toEqual([bob.id, cy.id]);
    expect(await mentionsOf(bob)).toEqual([]);
    expect(await mentionsOf(cy)).toHaveLength(1);
    // Stored for no one: not even as read.
    expect(await app.models.Notification.countDocuments({ userId: bob.id, type: 'mention' })).toBe(
      0,
    );
  });

  test('when more than 10 members are mentioned, then only the first 10 in the text count and are notified', async () => {
    const ada = await member();
    const others = await Promise.all(Array.from({ length: 12 }, () => member()));
    const text = others.map((o) => `@${o.name}`).join(' ');
    const created = await post(
      ada,
      text,
      others.map((o) => o.id),
    );
    expect(created.mentions?.map((m) => m.id)).toEqual(others.slice(0, 10).map((o) => o.id));
    expect(await mentionsOf(others[9]!)).toHaveLength(1);
    expect(await mentionsOf(others[10]!)).toEqual([]);
    expect(await mentionsOf(others[11]!)).toEqual([]);
  });

  test('when ids are unknown, unverified or not in the text, then they are plain text; ids that are not ids are a 400', async () => {
    const ada = await member();
    const ghost = await app.createMember({
      name: `Ghost ${randomBytes(3).toString('hex')}`,
      isVerified: false,
    });
    const bob = await member();
    const created = await post(ada, `@${ghost.name} @Nobody`, [ghost.id, 99_999_999, bob.id]);
    expect(created.mentions ?? []).toEqual([]);
    expect(await mentionsOf(bob)).toEqual([]);
    for (const mentions of [['x'], 'x', [1.5], [-1], Array.from({ length: 51 }, (_, i) => i + 1)]) {
      const res = await app
        .http()
        .post('/api/posts')
        .set('Authorization', ada.auth)
        .send({ content: 'hi', mentions });
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });

  test('when a post with mentions is deleted, then its mention notifications are withdrawn', async () => {
    const ada = await member();
    const bob = await member();
    const created = await post(ada, `@${bob.name}!`, [bob.id]);
    expect(await mentionsOf(bob)).toHaveLength(1);
    await app.http().delete(`/api/posts/${created.id}`).set('Authorization', ada.auth).expect(200);
    expect(await mentionsOf(bob)).toEqual([]);
  });
});

describe('mentions when a post is edited', () => {
  test('when the edit sends no mentions, then the earlier mentions still in the text stay and the others go', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const created = await post(ada, `@${bob.name} and @${cy.name}`, [bob.id, cy.id]);
    const text = `Only @${cy.name} now`;
    const res = await editPost(ada, created.id, { content: text }).expect(200);
    expect(covered(text, (res.body as Post).mentions)).toEqual([[cy.id, `@${cy.name}`]]);
    expect(covered(text, (await detail(ada, created.id)).mentions)).toEqual([
      [cy.id, `@${cy.name}`],
    ]);
  });

  test('when an edit adds a mention, then only the newly mentioned member is notified, and never twice', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const created = await post(ada, `@${bob.name}`, [bob.id]);
    await editPost(ada, created.id, {
      content: `@${bob.name} and @${cy.name}`,
      mentions: [bob.id, cy.id],
    }).expect(200);
    expect(await mentionsOf(bob)).toHaveLength(1);
    expect(await mentionsOf(cy)).toHaveLength(1);
    // Dropped, then mentioned again: no second notification.
    await editPost(ada, created.id, { content: `just @${bob.name}` }).expect(200);
    await editPost(ada, created.id, {
      content: `back: @${cy.name}`,
      mentions: [cy.id],
    }).expect(200);
    expect(await mentionsOf(cy)).toHaveLength(1);
  });
});

describe('mentions in quotes and comments', () => {
  test('when a quote mentions a member, then the mention is in its comment and notifies them', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const original = await post(ada, 'original words');
    const text = `Look @${cy.name}`;
    const res = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: text, mentions: [cy.id] })
      .expect(201);
    const quote = res.body as Post;
    expect(covered(text, quote.mentions)).toEqual([[cy.id, `@${cy.name}`]]);
    const [got] = await mentionsOf(cy);
    expect(got).toMatchObject({ actor: { id: bob.id }, post: { id: quote.id, content: text } });
  });

  test('when a comment mentions a member, then it shows the mention and notifies them with the comment', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const target = await post(ada, 'what do you think?');
    const text = `I agree with @${cy.name}`;
    const written = await comment(bob, target.id, text, [cy.id]);
    expect(covered(text, written.mentions)).toEqual([[cy.id, `@${cy.name}`]]);
    const shown = (await detail(ada, target.id)).comments.find((c) => c.id === written.id)!;
    expect(shown.mentions).toEqual(written.mentions);
    const [got] = await mentionsOf(cy);
    expect(got).toMatchObject({
      actor: { id: bob.id },
      post: { id: target.id },
      commentId: written.id,
      commentText: text,
    });
  });

  test('when a comment mentions a member the post author blocked, then the mention links but no notification goes', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const target = await post(ada, 'not for cy');
    await app.http().post(`/api/users/${cy.id}/block`).set('Authorization', ada.auth).expect(200);
    const written = await comment(bob, target.id, `@${cy.name} look`, [cy.id]);
    expect(written.mentions?.map((m) => m.id)).toEqual([cy.id]);
    // cy cannot open the post: nothing to be told about.
    expect(await mentionsOf(cy)).toEqual([]);
  });

  test('when a comment mentions the post author, then they get the comment notification only', async () => {
    const ada = await member();
    const bob = await member();
    const target = await post(ada, 'hello');
    await comment(bob, target.id, `@${ada.name} yes`, [ada.id]);
    expect(await mentionsOf(ada)).toEqual([]);
    const res = await app.http().get('/api/notifications').set('Authorization', ada.auth);
    expect((res.body as Notification[]).filter((n) => n.type === 'comment')).toHaveLength(1);
  });

  test('when a comment is edited to mention someone new, then they are notified; deleting it withdraws the notification', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const target = await post(ada, 'hello');
    const written = await comment(bob, target.id, 'first words');
    const text = `now with @${cy.name}`;
    const res = await app
      .http()
      .put(`/api/comments/${written.id}`)
      .set('Authorization', bob.auth)
      .send({ content: text, mentions: [cy.id] })
      .expect(200);
    expect(covered(text, (res.body as Comment).mentions)).toEqual([[cy.id, `@${cy.name}`]]);
    expect(await mentionsOf(cy)).toHaveLength(1);
    await app
      .http()
      .delete(`/api/comments/${written.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(await mentionsOf(cy)).toEqual([]);
  });

  test('when a comment with a mention is shared to the timeline, then its copy shows the same mention and no second notification goes', async () => {
    const ada = await member();
    const bob = await member();
    const cy = await member();
    const target = await post(ada, 'share this');
    const text = `cc @${cy.name}`;
    await comment(bob, target.id, text, [cy.id], { syncToTimeline: true });
    const copy = (await feed(app.http, bob)).find((p) => p.repostComment === text)!;
    expect(covered(copy.repostComment!, copy.mentions)).toEqual([[cy.id, `@${cy.name}`]]);
    expect(await mentionsOf(cy)).toHaveLength(1);
  });
});

describe('GET /api/users/mention-suggestions', () => {
  async function suggest(viewer: Member, q: string): Promise<MentionCandidate[]> {
    const res = await app
      .http()
      .get('/api/users/mention-suggestions')
      .query({ q })
      .set('Authorization', viewer.auth)
      .expect(200);
    return res.body as MentionCandidate[];
  }

  test('when q is typed, then members whose name starts with it come, the followed first, never the caller or a blocked pair', async () => {
    const tag = `Qz${randomBytes(3).toString('hex')}`;
    const viewer = await member(`${tag} Viewer`);
    const [aa, bb, cc, dd, ee] = await Promise.all(
      ['Aa', 'Bb', 'Cc', 'Dd', 'Ee'].map((n) => member(`${tag} ${n}`)),
    );
    await app
      .http()
      .post(`/api/users/${dd!.id}/follow`)
      .set('Authorization', viewer.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${cc!.id}/block`)
      .set('Authorization', viewer.auth)
      .expect(200);
    await app
      .http()
      .post(`/api/users/${viewer.id}/block`)
      .set('Authorization', ee!.auth)
      .expect(200);
    const found = await suggest(viewer, `@${tag.toLowerCase()}`);
    expect(found.map((c) => c.id)).toEqual([dd!.id, aa!.id, bb!.id]);
    expect(found[0]).toEqual({
      id: dd!.id,
      name: dd!.name,
      email: dd!.email,
      avatarUrl: null,
      isFollowing: true,
    });
    expect(found[1]!.isFollowing).toBe(false);
    // A word of the name, and the e-mail address as typed.
    expect((await suggest(viewer, `${tag} bb`)).map((c) => c.id)).toEqual([bb!.id]);
    expect((await suggest(viewer, aa!.email.slice(0, 12))).map((c) => c.id)).toContain(aa!.id);
  });

  test('when q is empty, then the people the caller follows come; with no follows, no one', async () => {
    const viewer = await member();
    expect(await suggest(viewer, '')).toEqual([]);
    const bob = await member();
    await app
      .http()
      .post(`/api/users/${bob.id}/follow`)
      .set('Authorization', viewer.auth)
      .expect(200);
    expect((await suggest(viewer, '')).map((c) => c.id)).toEqual([bob.id]);
  });

  test('when many match, then at most 8 come; a q over 50 characters is a 400', async () => {
    const tag = `Mx${randomBytes(3).toString('hex')}`;
    const viewer = await member();
    await Promise.all(Array.from({ length: 10 }, (_, i) => member(`${tag} ${i}`)));
    expect(await suggest(viewer, tag)).toHaveLength(8);
    const res = await app
      .http()
      .get('/api/users/mention-suggestions')
      .query({ q: 'x'.repeat(51) })
      .set('Authorization', viewer.auth);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('q must be at most 50 characters');
    await app.http().get('/api/users/mention-suggestions').expect(401);
  });
});
