import { Profiler } from 'react';
import { screen } from '@testing-library/react';
import { ADA, makePosts, renderPage, mockApi } from '@campus/kit/testing';
import { ProfilePosts } from './profile-posts';

const posts = makePosts(20);

afterEach(() => window.localStorage.clear());

describe('ProfilePosts', () => {
  it('draws the first six posts in its first commit and the rest right after, below them', async () => {
    mockApi();
    // The posts in the DOM at each commit of the list.
    const drawn: number[] = [];
    renderPage(
      <Profiler id="posts" onRender={() => drawn.push(document.querySelectorAll('article').length)}>
        <ProfilePosts posts={posts} emptyText="none" onChanged={() => undefined} />
      </Profiler>,
      { signedInAs: ADA },
    );
    expect(await screen.findAllByRole('article')).toHaveLength(20);
    expect(drawn[0]).toBe(6);
    expect(drawn.at(-1)).toBe(20);
    expect(screen.getAllByRole('article').map((a) => a.textContent)).toEqual(
      posts.map((p) => expect.stringContaining(p.content) as unknown),
    );
  });
});
