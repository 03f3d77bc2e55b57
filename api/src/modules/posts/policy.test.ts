import { postPolicy } from './policy';

const author = { id: 5 };
const other = { id: 6 };
const admin = { id: 107 };
const post = { authorId: 5, originalPostId: null };
const repost = { authorId: 6, originalPostId: 1 };

describe('postPolicy', () => {
  test('when someone deletes a post, then only its author may (the admin is no exception)', () => {
    expect(postPolicy.canDelete(author, post)).toBe(true);
    expect(postPolicy.canDelete(other, post)).toBe(false);
    expect(postPolicy.canDelete(admin, post)).toBe(false);
    expect(postPolicy.canDelete(other, repost)).toBe(true);
  });

  test('when a post quotes another (a repost or a shared comment), then it cannot be reposted', () => {
    expect(postPolicy.canRepost(post)).toBe(true);
    expect(postPolicy.canRepost(repost)).toBe(false);
  });
});
