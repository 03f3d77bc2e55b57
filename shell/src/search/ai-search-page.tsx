import styled from 'styled-components';
import { Button } from '@campus/kit/ui';
import { SearchIcon } from '../layout/icons';
import { SearchPage } from './search-page';

const Page = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(6)};
  padding: ${({ theme }) => theme.space(6)} ${({ theme }) => theme.space(4)};

  h1 {
    margin: 0;
    font-size: 1.5rem;
  }
`;

const SearchRow = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(2)};

  input {
    flex: 1;
    height: 44px;
    padding: 0 ${({ theme }) => theme.space(3)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.full};
    font: inherit;
  }
`;

const Hint = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Tiles = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(160px, 1fr));
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
  padding: 0;
  list-style: none;

  button {
    width: 100%;
    height: 72px;
    border-radius: ${({ theme }) => theme.radius.lg};
  }
`;

/**
 * Spec §2 "AI search placeholder": everything is disabled; no search happens. Above it, the
 * search of people, posts and tags (issues 19 and 40), which does search.
 */
export function AiSearchPage() {
  return (
    <>
      <SearchPage />
      <Page aria-labelledby="ai-search-title">
        <h1 id="ai-search-title">AI Search</h1>
        <SearchRow>
          <input
            type="search"
            aria-label="Search"
            placeholder="Ask anything about campus..."
            disabled
          />
          <Button size="icon" aria-label="Search" disabled>
            <SearchIcon />
          </Button>
        </SearchRow>
        <Hint>Check back later to see magic...</Hint>
        <Tiles>
          {['Build my CV', 'Find alums', 'Find resources'].map((suggestion) => (
            <li key={suggestion}>
              <Button variant="secondary" disabled>
                {suggestion}
              </Button>
            </li>
          ))}
        </Tiles>
      </Page>
    </>
  );
}
