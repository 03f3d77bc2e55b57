import { useId } from 'react';
import { useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { Checkbox, EmptyState } from '@campus/kit/ui';
import { FromMemberFilter } from './from-member-filter';
import { PostPageList } from './post-page-list';
import { usePostPages } from './post-pages';
import {
  fetchPostSearchPage,
  postSearchFromUrl,
  postSearchKey,
  type PostSearchFilter,
} from './post-search-query';
import { FilterField } from './filter-field';

const Filters = styled.fieldset`
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  margin: 0;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border: 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  legend {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
  }
`;

/**
 * `/search?tab=posts` (issue 40): the posts whose text matches the URL's `q`, best match and
 * newest first, with the filters (from a member, JD only, with images, a date range) kept in the
 * URL beside it, so a search with its filters can be shared and Back undoes a filter. Pages by
 * the API's cursor with "Load more posts".
 */
export default function PostSearchResults() {
  const [params, setParams] = useSearchParams();
  const search = postSearchFromUrl(params);
  const list = usePostPages(
    search ? postSearchKey(search.q, search.filters) : null,
    fetchPostSearchPage,
  );
  const sinceId = useId();
  const untilId = useId();

  const setFilter = (name: PostSearchFilter, value: string | undefined) => {
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(name, value);
      else next.delete(name);
      return next;
    });
  };

  if (!search) {
    return <EmptyState description="Type words to search posts and quotes." />;
  }
  const { filters } = search;
  return (
    <div>
      <Filters>
        <legend>Filter posts</legend>
        <FromMemberFilter from={filters.from} onChange={(from) => setFilter('from', from)} />
        <Checkbox
          label="JD posts only"
          checked={filters.jd === 'true'}
          onChange={(event) => setFilter('jd', event.target.checked ? 'true' : undefined)}
        />
        <Checkbox
          label="With images"
          checked={filters.images === 'true'}
          onChange={(event) => setFilter('images', event.target.checked ? 'true' : undefined)}
        />
        <FilterField>
          <label htmlFor={sinceId}>From date</label>
          <input
            id={sinceId}
            type="date"
            value={filters.since ?? ''}
            max={filters.until}
            onChange={(event) => setFilter('since', event.target.value || undefined)}
          />
        </FilterField>
        <FilterField>
          <label htmlFor={untilId}>To date</label>
          <input
            id={untilId}
            type="date"
            value={filters.until ?? ''}
            min={filters.since}
            onChange={(event) => setFilter('until', event.target.value || undefined)}
          />
        </FilterField>
      </Filters>
      <PostPageList
        list={list}
        label="Posts found"
        failed="Post search failed"
        empty={`No posts match “${search.q}”.`}
      />
    </div>
  );
}
