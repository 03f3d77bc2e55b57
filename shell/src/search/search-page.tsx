import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import styled from 'styled-components';
import { touchTextTarget } from '@campus/kit/theme';
import { POST_SEARCH_QUERY_MAX_LENGTH } from '@campus/contracts';
import { Button, Tabs } from '@campus/kit/ui';
import { PageSkeleton } from '../composition/page-skeleton';
import { RemoteSlot } from '../composition/remote-slot';
import { PeopleResults } from './people-results';
import { SEARCH_DEBOUNCE_MS } from './people-search-query';
import { useRecentSearches } from './recent-searches';
import { TagResults } from './tag-results';
import { TrendingToday } from './trending-today';

export const SEARCH_TABS = ['people', 'posts', 'tags'] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];
const TAB_ITEMS = [
  { value: 'people', label: 'People' },
  { value: 'posts', label: 'Posts' },
  { value: 'tags', label: 'Tags' },
] as const satisfies readonly { value: SearchTab; label: string }[];

/**
 * The tab a URL names; when it names none (or an unknown one), Tags for a search that starts
 * with '#', else People (today's search).
 */
export function searchTabOf(value: string | null, q: string): SearchTab {
  return SEARCH_TABS.find((tab) => tab === value) ?? (q.startsWith('#') ? 'tags' : 'people');
}

const Section = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding-top: ${({ theme }) => theme.space(6)};

  > header {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space(3)};
    padding: 0 ${({ theme }) => theme.space(4)};
  }
  h2 {
    margin: 0;
    font-size: 1.25rem;
  }
  > header a {
    font-size: 0.875rem;
    font-weight: 600;
    color: ${({ theme }) => theme.colors.primary};
    ${touchTextTarget}
  }
  > input {
    height: 44px;
    margin: 0 ${({ theme }) => theme.space(4)};
    padding: 0 ${({ theme }) => theme.space(4)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.full};
    font: inherit;
  }
  > input:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
`;

const Panel = styled.div`
  min-height: 120px;

  &:focus {
    outline: none;
  }
`;

const Start = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(6)};
  padding: ${({ theme }) => theme.space(4)};

  h2 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: 1.125rem;
  }
`;

const RecentHeader = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(2)};
`;

const Recent = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Muted = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

/**
 * The links of the People and Tags results, in order: the arrow keys walk field -> first ->
 * ... -> last and back (Home / End jump, Escape returns to the field).
 */
function resultLinks(panel: HTMLElement | null): HTMLAnchorElement[] {
  return Array.from(panel?.querySelectorAll<HTMLAnchorElement>('li > a') ?? []);
}

/**
 * Search (issue 40) above the spec's AI search placeholder: one field, tabs People / Posts / Tags,
 * and the URL as the state (`/search?q=…&tab=…`, plus the Posts tab's filters), so a search can
 * be shared and Back / Forward step through it. Typing updates the URL once it pauses (the first
 * word adds a history entry, later edits replace it); choosing a tab adds one. With nothing typed:
 * the recent searches of this device and "Trending today". Enter, or opening a result, keeps the
 * search in the recent ones.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const tab = searchTabOf(params.get('tab'), q);
  const [text, setText] = useState(q);
  const recent = useRecentSearches();
  const field = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  // The URL changed under the field (Back / Forward, a recent search, a shared link): show it.
  const [urlQ, setUrlQ] = useState(q);
  if (urlQ !== q) {
    setUrlQ(q);
    if (text.trim() !== q) setText(q);
  }

  const setQuery = (next: string, replace: boolean) => {
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set('q', next);
        else updated.delete('q');
        return updated;
      },
      { replace },
    );
  };

  // What is typed reaches the URL once typing pauses. The wait is cancelled when a tab or Enter
  // takes the words at once: setParams' updater starts from the params of the render that made
  // it, and a navigation to a tab whose module is still loading is a transition that has not
  // rendered yet, so a wait left running would put the old tab back.
  const pendingQuery = useRef<ReturnType<typeof setTimeout>>(undefined);
  const cancelPendingQuery = () => clearTimeout(pendingQuery.current);
  useEffect(() => {
    const next = text.trim();
    if (next === q) return;
    const timer = setTimeout(() => setQuery(next, q !== ''), SEARCH_DEBOUNCE_MS);
    pendingQuery.current = timer;
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- setQuery reads only setParams
  }, [text, q, params]);

  const selectTab = (next: SearchTab) => {
    if (next === tab) return;
    // What is typed and not yet in the URL goes with the tab: the tab searches it at once.
    cancelPendingQuery();
    const typed = text.trim();
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        updated.set('tab', next);
        if (typed) updated.set('q', typed);
        else updated.delete('q');
        return updated;
      },
      { replace: false },
    );
  };

  const runRecent = (search: string) => {
    cancelPendingQuery();
    setText(search);
    setQuery(search, false);
    recent.remember(search);
    field.current?.focus();
  };

  const onFieldKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const next = text.trim();
      cancelPendingQuery();
      if (next !== q) setQuery(next, q !== '');
      recent.remember(next);
    } else if (event.key === 'Escape' && text) {
      event.stopPropagation();
      setText('');
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (tab === 'posts') return; // post cards have their own keys
    const all = resultLinks(panel.current);
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    let next: HTMLElement | null | undefined;
    if (event.key === 'ArrowDown' && (at >= 0 || event.target === field.current)) {
      next = all[Math.min(at + 1, all.length - 1)];
    } else if (event.key === 'ArrowUp' && at >= 0) next = at === 0 ? field.current : all[at - 1];
    else if (event.key === 'Home' && at >= 0) next = all[0];
    else if (event.key === 'End' && at >= 0) next = all[all.length - 1];
    else if (event.key === 'Escape' && at >= 0) next = field.current;
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  const searching = q !== '';
  return (
    <Section aria-labelledby="search-title" onKeyDown={onKeyDown}>
      <header>
        <h2 id="search-title">Search Campus</h2>
        <Link to="/bookmarks">Bookmarks</Link>
      </header>
      <input
        ref={field}
        type="search"
        aria-label="Search people, posts and tags"
        aria-controls="search-panel"
        placeholder="Search people, posts and #tags"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={POST_SEARCH_QUERY_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onFieldKeyDown}
      />
      <Tabs label="Search" idPrefix="search" value={tab} onSelect={selectTab} items={TAB_ITEMS} />
      <Panel
        ref={panel}
        id="search-panel"
        role="tabpanel"
        aria-labelledby={`search-${tab}`}
        onClickCapture={(event) => {
          if (searching && (event.target as Element).closest('a')) recent.remember(q);
        }}
      >
        {!searching ? (
          <Start>
            {recent.searches.length > 0 && (
              <section aria-labelledby="recent-searches-title">
                <RecentHeader>
                  <h2 id="recent-searches-title">Recent searches</h2>
                  <Button variant="ghost" size="sm" onClick={recent.clear}>
                    Clear recent searches
                  </Button>
                </RecentHeader>
                <Recent>
                  {recent.searches.map((search) => (
                    <li key={search}>
                      <Button variant="secondary" size="sm" onClick={() => runRecent(search)}>
                        <span dir="auto">{search}</span>
                      </Button>
                    </li>
                  ))}
                </Recent>
              </section>
            )}
            <TrendingToday empty={<Muted>Type a name, words of a post, or a #tag.</Muted>} />
          </Start>
        ) : tab === 'people' ? (
          <PeopleResults text={q} />
        ) : tab === 'tags' ? (
          <TagResults q={q} />
        ) : (
          <RemoteSlot
            remote="mf_feed"
            exposed="PostSearchResults"
            what="the post search"
            fallback={<PageSkeleton />}
          />
        )}
      </Panel>
    </Section>
  );
}
