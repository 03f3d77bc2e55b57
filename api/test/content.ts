import type request from 'supertest';
import type { Post } from '@campus/contracts';

type Http = () => ReturnType<typeof request>;
interface Member {
  id: number;
  auth: string;
}

/** Publishes a post through the API and returns it. */
export async function publish(
  http: Http,
  author: Member,
  content: string,
  extra: { isJdTagged?: boolean; syncToProfile?: boolean } = {},
): Promise<Post> {
  const res = await http()
    .post('/api/posts')
    .set('Authorization', author.auth)
    .send({ content, ...extra })
    .expect(201);
  return res.body as Post;
}

export async function feed(http: Http, viewer: Member, query = ''): Promise<Post[]> {
  const res = await http().get(`/api/posts${query}`).set('Authorization', viewer.auth).expect(200);
  return res.body as Post[];
}
