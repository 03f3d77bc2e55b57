/**
 * Issue 38 where its three parts meet (safety, own words, appeals), through the real routes and
 * database: a block under a "deleted" placeholder, muted words on an edited post's new text, and
 * a post restored by a lifted appeal still hidden from a member blocked either way.
 */
import { postListSchema, type NotificationOf, type PostDetail } from '@campus/contracts';
import { publish } from './content';
import { useTestApp, type Member } from './test-app';

const t = useTestApp();
let admin: Member;

beforeAll(async () => {
  admin = await t.createMember({ id: t.config.adminUserId, name: 'Admin' });
});

const as = (member: Member) => ({
  get: (url: string) => t.http().get(url).set('Authorization', member.auth),
  post: (url: string, body: object = {}) =>
    t.http().post(url).set('Authorization', member.auth).send(body),
  put: (url: string, body: object) =>
    t.http().put(url).set('Authorization', member.auth).send(body),
  delete: (url: string) => t.http().delete(url).set('Authorization', member.auth),
});

async function comment(member: Member, postId: number, content: string, parentId?: number) {
  const res = await as(member)
    .post(`/api/posts/${postId}/comments`, { content, ...(parentId ? { parentId } : {}) })
    .expect(201);
  return res.body as { id: number };
}

async function detail(viewer: Member, postId: number): Promise<PostDetail> {
  return (await as(viewer).get(`/api/posts/${postId}`).expect(200)).body as PostDetail;
}

async function feedOf(viewer: Member) {
  return postListSchema.parse((await as(viewer).get('/api/posts').expect(200)).body);
}

async function block(blocker: Member, blocked: Member) {
  await as(blocker)
    .post(`/api/users/${blocked.id}/block`)
    .expect(200, { userId: blocked.id, blocked: true });
  await t.caughtUp();
}

describe('a block and a "deleted" placeholder', () => {
  test('when the blocked member replied under a placeholder, then the blocker sees the placeholder without that reply, and not at all once it stands only for theirs', async () => {
    const ada = await t.createMember({ name: 'Ada Placeholder' });
    const bob = await t.createMember({ name: 'Bob Placeholder' });
    const cy = await t.createMember();
    const dan = await t.createMember();
    const post = await publish(t.http, cy, 'a thread to reply in');
    const top = await comment(dan, post.id, 'a comment with replies');
    await comment(bob, post.id, "Bob's reply", top.id);
    const cys = await comment(cy, post.id, "Cy's reply", top.id);
    await block(ada, bob);
    await as(dan).delete(`/api/comments/${top.id}`).expect(200);
    await t.caughtUp();

    const replies = (viewer: Member) =>
      detail(viewer, post.id).then((d) =>
        d.comments.map((c) => ({
          deleted: c.deleted === true,
          replies: (c.replies ?? []).map((r) => r.content),
        })),
      );
    expect(await replies(ada)).toEqual([{ deleted: true, replies: ["Cy's reply"] }]);
    for (const viewer of [bob, dan]) {
      expect(await replies(viewer)).toEqual([
        { deleted: true, replies: ["Bob's reply", "Cy's reply"] },
      ]);
    }
    expect(await replies(cy)).toEqual([{ deleted: true, replies: ["Bob's reply", "Cy's reply"] }]);

    // Cy's reply goes: the placeholder stays for Bob's, which Ada does not see.
    await as(cy).delete(`/api/comments/${cys.id}`).expect(200);
    await t.caughtUp();
    expect(await replies(dan)).toEqual([{ deleted: true, replies: ["Bob's reply"] }]);
    expect(await replies(ada)).toEqual([]);
  });
});

describe('muted words and an edited post', () => {
  test('when a post is edited to contain a muted word, or to lose it, then the feed marks it by its new text, also where the page was kept', async () => {
    const ada = await t.createMember();
    const bob = await t.createMember();
    const cy = await t.createMember();
    await as(ada).post('/api/safety/muted-words', { phrase: 'Spoiler' }).expect(201);
    const post = await publish(t.http, bob, 'The film was fine');
    const quote = (
      await as(cy).post(`/api/posts/${post.id}/repost`, { comment: 'Worth seeing' }).expect(201)
    ).body as { id: number };
    await t.caughtUp();
    const marks = async () => {
      const feed = await feedOf(ada);
      const byId = new Map(feed.map((p) => [p.id, p]));
      return {
        post: byId.get(post.id)?.mutedWord,
        quote: byId.get(quote.id)?.mutedWord,
        content: byId.get(post.id)?.content,
      };
    };
    // Read twice: the second answer comes from the kept screened page.
    expect(await marks()).toEqual({
      post: undefined,
      quote: undefined,
      content: 'The film was fine',
    });
    expect(await marks()).toEqual({
      post: undefined,
      quote: undefined,
      content: 'The film was fine',
    });

    await as(bob)
      .put(`/api/posts/${post.id}`, { content: 'SPOILER: the butler did it' })
      .expect(200);
    await t.caughtUp();
    // The post itself, and the quote of it (which shows its current text).
    expect(await marks()).toEqual({
      post: 'Spoiler',
      quote: 'Spoiler',
      content: 'SPOILER: the butler did it',
    });

    await as(bob).put(`/api/posts/${post.id}`, { content: 'No spoilers here' }).expect(200);
    await t.caughtUp();
    expect(await marks()).toEqual({
      post: undefined,
      quote: undefined,
      content: 'No spoilers here',
    });
  });
});

describe('a block and a post restored by an appeal', () => {
  test('when a removed post comes back after its appeal is lifted, then a member blocked either way still does not see it; others do', async () => {
    const ada = await t.createMember({ name: 'Ada Restored' });
    const bob = await t.createMember({ name: 'Bob Restored' });
    const eve = await t.createMember({ name: 'Eve Restored' });
    const third = await t.createMember();
    const bobs = await publish(t.http, bob, 'A post that will be removed and restored');
    await as(third).post(`/api/posts/${bobs.id}/repost`, { comment: 'Quoting it' }).expect(201);
    const reporter = await t.createMember();
    await as(reporter)
      .post('/api/reports', { targetType: 'post', targetId: bobs.id, category: 'spam' })
      .expect(201);
    const open = await as(admin).get('/api/admin/reports?pageSize=100').expect(200);
    const group = open.body.items.find(
      (r: { targetId: number; targetType: string }) =>
        r.targetId === bobs.id && r.targetType === 'post',
    );
    await as(admin)
      .post(`/api/admin/reports/${group.id}/resolve`, { action: 'remove', category: 'spam' })
      .expect(200);
    await t.caughtUp();
    // Blocks made while the post was removed: Ada blocks Bob, Bob blocks Eve.
    await block(ada, bob);
    await block(bob, eve);

    const notices = (await as(bob).get('/api/notifications').expect(200))
      .body as NotificationOf<'content_removed'>[];
    const notice = notices.find((n) => n.type === 'content_removed')!;
    const appeal = await as(bob)
      .post('/api/appeals', { decisionId: notice.decisionId, text: 'It was not spam.' })
      .expect(201);
    await as(admin)
      .post(`/api/admin/appeals/${appeal.body.id}/decide`, { outcome: 'lift' })
      .expect(200);
    await t.caughtUp();

    // Back for Bob and for a member who blocks nobody.
    await as(third).get(`/api/posts/${bobs.id}`).expect(200);
    expect((await feedOf(third)).map((p) => p.id)).toContain(bobs.id);
    expect((await feedOf(bob)).map((p) => p.id)).toContain(bobs.id);
    // Not for the blocker, nor for the member Bob blocked: the post and quotes of it.
    for (const viewer of [ada, eve]) {
      const res = await as(viewer).get(`/api/posts/${bobs.id}`);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { message: 'Post not found' },
      });
      const feed = await feedOf(viewer);
      expect(feed.map((p) => p.id)).not.toContain(bobs.id);
      expect(feed.some((p) => p.originalPostId === bobs.id)).toBe(false);
      await as(viewer).post(`/api/posts/${bobs.id}/like`).expect(404);
    }
  });
});
