import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { callRoutes, type TrendingTags } from '@campus/contracts';
import { callKey, useCallData } from '@campus/kit/data';

/** `GET /api/tags/trending`, read with the default fetcher (its path is the key). */
export const trendingTagsKey = () => callKey(callRoutes.trendingTags, ['/api/tags/trending']);

const List = styled.ol`
  display: grid;
  gap: ${({ theme }) => theme.space(0.5)};
  margin: 0;
  padding: 0;
  list-style: none;

  a {
    display: flex;
    justify-content: space-between;
    align-items: baseline;
    gap: ${({ theme }) => theme.space(2)};
    min-height: 32px;
    padding: ${({ theme }) => theme.space(1)} ${({ theme }) => theme.space(3)};
    border-radius: ${({ theme }) => theme.radius.md};
    color: inherit;
    text-decoration: none;
  }
  a:hover,
  a:focus-visible {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  a strong {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  small {
    flex: none;
    font-size: 0.75rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const peopleText = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;

/**
 * "Trending today" (issue 40): today's top tags in the app's time zone by how many members used
 * them, each a link to its tag page. Shown on the search page and in the desktop sidebar; while
 * it loads, when it fails and when no tag was used today, the caller's `empty` (or nothing).
 */
export function TrendingToday({
  empty = null,
  className,
}: {
  empty?: ReactNode;
  className?: string;
}) {
  const titleId = useId();
  const { data } = useCallData(trendingTagsKey());
  const tags: TrendingTags['tags'] = data?.tags ?? [];
  if (tags.length === 0) return <>{empty}</>;
  return (
    <section aria-labelledby={titleId} className={className}>
      <h2 id={titleId}>Trending today</h2>
      <List>
        {tags.map(({ tag, authorsCount }) => (
          <li key={tag}>
            <Link to={`/tags/${encodeURIComponent(tag)}`}>
              <strong dir="auto">#{tag}</strong>
              <small>{peopleText(authorsCount)}</small>
            </Link>
          </li>
        ))}
      </List>
    </section>
  );
}
