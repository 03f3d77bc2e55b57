import { trusted } from 'mongoose';
import { useTestApp } from '../../../test/test-app';
import { feed, publish } from '../../../test/content';

const app = useTestApp();

describe('POST /api/posts', () => {
  test('when a member posts, then the post comes back in the Post shape with trimmed content', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const res = await app
      .http()
      .post('/api/posts')
      .set('Authorization', ada.auth)
      .send({ content: '  Hello campus  ', isJdTagged: true })
      .expect(201);
    expect(res.body).toMatchObject({
      content: 'Hello campus',
      isJdTagged: true,
      likesCount: 0,
      commentsCount: 0,
      repostsCount: 0,
      isLiked: false,
      isReposted: false,
      author: { id: ada.id, name: 'Ada', email: ada.email, avatarUrl: null },
      originalPostId: null,
      originalPost: null,
      repostComment: null,
    });
    expect(typeof res.body.id).toBe('number');
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(res.body).not.toHaveProperty('_id');
  });

  test.each([
    ['empty content', { content: '   ' }],
    ['missing content', {}],
    ['content over 5000 characters', { content: 'x'.repeat(5001) }],
    ['an operator object as content', { content: { $gt: '' } }],
    ['a non-boolean flag', { content: 'hi', isJdTagged: 'yes' }],
    ['a mass-assigned count', { content: 'hi', likesCount: 1000 }],
    ['a mass-assigned author', { content: 'hi', authorId: 1 }],
  ])('when the body has %s, then it is a 400 and nothing is stored', async (_name, body) => {
    const ada = await app.createMember();
    const before = await app.models.Post.countDocuments();
    const res = await app.http().post('/api/posts').set('Authorization', ada.auth).send(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await app.models.Post.countDocuments()).toBe(before);
  });

  test('when no token is sent, then it is a 401', async () => {
    await app.http().post('/api/posts').send({ content: 'hi' }).expect(401);
  });
});

describe('author avatars', () => {
  test('when an author has an uploaded avatar, then posts, comments and notifications give its absolute URL', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const name = `${'a'.repeat(32)}.webp`;
    await app.models.User.updateMany(
      { _id: trusted({ $in: [ada.id, bob.id] }) },
      { $set: { avatarUrl: `/uploads/${name}` } },
    );
    const absolute = `${app.config.publicUrl}/uploads/${name}`;
    const post = await publish(app.http, ada, 'with avatar');
    expect(post.author.avatarUrl).toBe(absolute);
    await app
      .http()
      .post(`/api/posts/${post.id}/comments`)
      .set('Authorization', bob.auth)
      .send({ content: 'hi' })
      .expect(201);
    const detail = await app
      .http()
      .get(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(detail.body.comments[0].author.avatarUrl).toBe(absolute);
    const notes = await app
      .http()
      .get('/api/notifications')
      .set('Authorization', ada.auth)
      .expect(200);
    expect(notes.body[0].actor.avatarUrl).toBe(absolute);
  });
});

describe('GET /api/posts/:id', () => {
  test('when the post exists, then it comes with its comments', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'detail me');
    const res = await app
      .http()
      .get(`/api/posts/${post.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(res.body).toMatchObject({ id: post.id, content: 'detail me', comments: [] });
  });

  test.each(['999999', 'abc', '-1', '1.5', '0'])(
    'when the id is %s, then it is a 404',
    async (id) => {
      const ada = await app.createMember();
      const res = await app
        .http()
        .get(`/api/posts/${id}`)
        .set('Authorization', ada.auth)
        .expect(404);
      expect(res.body).toEqual({ message: 'Post not found' });
    },
  );
});

describe('DELETE /api/posts/:id', () => {
  test('when the author deletes, then the post disappears from feeds, detail and profile', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'to be deleted');
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await app.http().get(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(404);
    expect((await feed(app.http, ada, '?limit=50')).map((p) => p.id)).not.toContain(post.id);
    const profile = await app
      .http()
      .get(`/api/users/${ada.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    expect(profile.body.posts.map((p: { id: number }) => p.id)).not.toContain(post.id);
    expect((await app.models.Post.findById(post.id).lean())?.deletedAt).toBeInstanceOf(Date);
  });

  test('when someone else deletes, then it is a 403 and the post stays', async () => {
    const ada = await app.createMember();
    const eve = await app.createMember();
    const post = await publish(app.http, ada, 'mine');
    const res = await app
      .http()
      .delete(`/api/posts/${post.id}`)
      .set('Authorization', eve.auth)
      .expect(403);
    expect(res.body.message).toBe('You can only delete your own posts');
    expect((await app.models.Post.findById(post.id).lean())?.deletedAt).toBeNull();
  });

  test('when the post is already deleted, then it is a 404', async () => {
    const ada = await app.createMember();
    const post = await publish(app.http, ada, 'twice');
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(200);
    await app.http().delete(`/api/posts/${post.id}`).set('Authorization', ada.auth).expect(404);
  });
});

describe('POST /api/posts/:id/repost', () => {
  test('when a member reposts with a quote, then the repost carries the original and the count moves', async () => {
    const ada = await app.createMember({ name: 'Ada' });
    const bob = await app.createMember({ name: 'Bob' });
    const original = await publish(app.http, ada, 'original thought');
    const res = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: '  so true  ' })
      .expect(201);
    expect(res.body).toMatchObject({
      author: { id: bob.id, name: 'Bob' },
      originalPostId: original.id,
      repostComment: 'so true',
      originalPost: {
        id: original.id,
        content: 'original thought',
        repostsCount: 1,
        isReposted: true,
      },
    });
    const detail = await app.http().get(`/api/posts/${original.id}`).set('Authorization', bob.auth);
    expect(detail.body).toMatchObject({ repostsCount: 1, isReposted: true });
  });

  test('when the quote is blank, then it is stored as absent', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'quote me');
    const res = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: '   ' })
      .expect(201);
    expect(res.body.repostComment).toBeNull();
  });

  test('when the quote is over 280 characters after trimming, then it is a 400', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'long quote');
    await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({ comment: `  ${'x'.repeat(280)}  ` })
      .expect(201);
    const carol = await app.createMember();
    await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', carol.auth)
      .send({ comment: 'x'.repeat(281) })
      .expect(400);
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(1);
  });

  test('when reposting a repost, then it is a 400', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const carol = await app.createMember();
    const original = await publish(app.http, ada, 'chain');
    const repost = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({});
    const res = await app
      .http()
      .post(`/api/posts/${repost.body.id}/repost`)
      .set('Authorization', carol.auth)
      .send({})
      .expect(400);
    expect(res.body.message).toBe('A repost cannot be reposted');
  });

  test('when reposting the same post twice, then the second is a 409 and the count stays', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'once');
    await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(201);
    const res = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({});
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('You have already reposted this post');
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(1);
  });

  test('when the original is deleted, then reposts of it show the original as deleted', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'soon gone');
    const repost = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({});
    await app.http().delete(`/api/posts/${original.id}`).set('Authorization', ada.auth).expect(200);
    const res = await app
      .http()
      .get(`/api/posts/${repost.body.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(res.body).toMatchObject({ originalPostId: original.id, originalPost: null });
  });

  test('when a repost is deleted, then the original count goes back and the member may repost again', async () => {
    const ada = await app.createMember();
    const bob = await app.createMember();
    const original = await publish(app.http, ada, 'undo');
    const repost = await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({});
    await app
      .http()
      .delete(`/api/posts/${repost.body.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect((await app.models.Post.findById(original.id).lean())?.repostsCount).toBe(0);
    await app
      .http()
      .post(`/api/posts/${original.id}/repost`)
      .set('Authorization', bob.auth)
      .send({})
      .expect(201);
  });
});

describe('profile posts', () => {
  test('when a post is not synced to the profile, then it stays out of the profile but is in the feed', async () => {
    const ada = await app.createMember();
    const shown = await publish(app.http, ada, 'on my profile');
    const hidden = await publish(app.http, ada, 'feed only', { syncToProfile: false });
    const profile = await app
      .http()
      .get(`/api/users/${ada.id}`)
      .set('Authorization', ada.auth)
      .expect(200);
    const ids = profile.body.posts.map((p: { id: number }) => p.id);
    expect(ids).toContain(shown.id);
    expect(ids).not.toContain(hidden.id);
    expect((await feed(app.http, ada, '?limit=50')).map((p) => p.id)).toContain(hidden.id);
  });
});
