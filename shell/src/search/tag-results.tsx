import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { callRoutes, POST_SEARCH_QUERY_MAX_LENGTH } from '@campus/contracts';
import { readCall } from '@campus/kit/api';
import { callKey, useCallData } from '@campus/kit/data';
import { Button } from '@campus/kit/ui';

/** One tag search (`GET /api/search/tags?q=`); read with its own fetcher (`q` is a query). */
export const tagSearchKey = (q: string) =>
  callKey(callRoutes.searchTags, ['/api/search/tags', 'q', q]);

function fetchTags([, , q]: ReturnType<typeof tagSearchKey>) {
  return readCall(callRoutes.searchTags, { query: { q } });
}

const Status = styled.p`
  margin: 0;
  padding: ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Results = styled.ul`
  display: grid;
  margin: 0;
  padding: 0;
  list-style: none;

  li + li {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
  a {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: ${({ theme }) => theme.space(3)};
    min-height: 48px;
    padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(4)};
    color: inherit;
    text-decoration: none;
  }
  a:hover strong {
    text-decoration: underline;
  }
  a:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -2px;
  }
  small {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const postsText = (count: number) => `${count} ${count === 1 ? 'post' : 'posts'}`;

/** The Tags tab of /search (issue 40): tags starting with what was typed, most used first. */
export function TagResults({ q }: { q: string }) {
  const text = q.trim().slice(0, POST_SEARCH_QUERY_MAX_LENGTH);
  const { data, error, isLoading, mutate } = useCallData(text ? tagSearchKey(text) : null, {
    fetcher: fetchTags,
    keepPreviousData: true,
  });
  if (error) {
    return (
      <div role="alert">
        <Status>Tag search failed.</Status>
        <Button variant="secondary" size="sm" onClick={() => void mutate()}>
          Retry
        </Button>
      </div>
    );
  }
  if (!data) return <Status role="status">{isLoading ? 'Searching...' : ''}</Status>;
  if (data.tags.length === 0) return <Status role="status">No tags found</Status>;
  return (
    <Results aria-label="Tags">
      {data.tags.map(({ tag, postsCount }) => (
        <li key={tag}>
          <Link to={`/tags/${encodeURIComponent(tag)}`}>
            <strong dir="auto">#{tag}</strong>
            <small>{postsText(postsCount)}</small>
          </Link>
        </li>
      ))}
    </Results>
  );
}
