import type { Post as PostView } from '@campus/contracts';
import { findCountMismatches } from '../src/modules/posts/recount';
import { publish } from './content';
import { useTestApp } from './test-app';

const app = useTestApp();

test('when likes, comments, reposts and deletes run concurrently, then every stored count equals a recount', async () => {
  const members = await Promise.all(Array.from({ length: 30 }, () => app.createMember()));
  const posts: PostView[] = [];
  for (let i = 0; i < 10; i++) posts.push(await publish(app.http, members[i]!, `seed ${i}`));
  const comments = await Promise.all(
    posts.map((p, i) =>
      app
        .http()
        .post(`/api/posts/${p.id}/comments`)
        .set('Authorization', members[i + 10]!.auth)
        .send({ content: 'c' }),
    ),
  );

  // A fixed pseudo-random mix so failures reproduce.
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const requests = Array.from({ length: 200 }, () => {
    const m = members[rand(members.length)]!;
    const p = posts[rand(posts.length)]!;
    const c = comments[rand(comments.length)]!.body as { id: number };
    const auth = { Authorization: m.auth };
    switch (rand(6)) {
      case 0:
      case 1:
        return app.http().post(`/api/posts/${p.id}/like`).set(auth);
      case 2:
        return app
          .http()
          .post(`/api/posts/${p.id}/comments`)
          .set(auth)
          .send({ content: 'hi', parentId: rand(2) ? c.id : undefined });
      case 3:
        return app.http().post(`/api/posts/${p.id}/repost`).set(auth).send({ comment: 'q' });
      case 4:
        return app.http().post(`/api/comments/${c.id}/like`).set(auth);
      default:
        return (async () => {
          // Delete one of this member's reposts, if any.
          const own = await app.models.Post.findOne({
            authorId: m.id,
            originalPostId: p.id,
            sharedCommentId: null,
            deletedAt: null,
          }).lean();
          return own ? app.http().delete(`/api/posts/${own._id}`).set(auth) : undefined;
        })();
    }
  });
  const results = await Promise.all(requests);
  // Races end in a clear 4xx (e.g. a second repost, a comment on a post deleted meanwhile), never a 5xx.
  expect(results.filter((r) => r && r.status >= 500)).toEqual([]);
  expect(await findCountMismatches({ models: app.models })).toEqual([]);
});
