import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { Avatar, Button } from '@campus/kit/ui';
import { usePeopleSearch } from './people-search-query';

const Section = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
`;

const Status = styled.p`
  margin: 0;
  font-size: 0.875rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Results = styled.ul`
  display: grid;
  margin: 0;
  padding: 0;
  list-style: none;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};

  li + li {
    border-top: 1px solid ${({ theme }) => theme.colors.border};
  }
`;

const Person = styled.li`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
  min-width: 0;

  > a {
    flex: 1;
    display: flex;
    align-items: center;
    gap: ${({ theme }) => theme.space(3)};
    min-width: 0;
    min-height: 44px;
    color: inherit;
    text-decoration: none;
    border-radius: ${({ theme }) => theme.radius.md};
  }
  > a:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
  }
  > a:hover strong {
    text-decoration: underline;
  }
  span {
    display: grid;
    min-width: 0;
  }
  strong,
  small {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  small {
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

const peopleFound = (count: number) =>
  count === 0 ? 'No people found' : `${count} ${count === 1 ? 'person' : 'people'} found`;

/**
 * The People tab of /search (issue 19, issue 40): members whose name or e-mail (or e-mail domain)
 * starts with what was typed, asked once typing pauses; the number found is announced. The
 * search page's arrow keys walk from its field into these links (Tab reaches the follow buttons).
 */
export function PeopleResults({ text }: { text: string }) {
  const { people, searching, error, retry } = usePeopleSearch(text);
  const { user } = useSession();

  const showResults = Boolean(people && people.length > 0 && text.trim());
  let status = '';
  if (error) status = 'People search failed.';
  else if (searching && !people) status = 'Searching...';
  else if (people) status = peopleFound(people.length);

  return (
    <Section>
      <Status id="people-search-status" role="status" aria-live="polite">
        {text.trim() ? status : ''}
      </Status>
      {error && (
        <Button variant="secondary" size="sm" onClick={retry} style={{ justifySelf: 'start' }}>
          Retry
        </Button>
      )}
      {showResults && (
        <Results id="people-search-results" aria-label="People" aria-busy={searching || undefined}>
          {(people ?? []).map((person) => (
            <Person key={person.id}>
              <Link to={`/profile/${person.id}`}>
                <Avatar name={person.name} src={person.avatarUrl} size={40} />
                <span>
                  <strong dir="auto">{person.name}</strong>
                  <small>{handleFromEmail(person.email)}</small>
                </span>
              </Link>
              {user?.id !== person.id && (
                <FollowButton
                  userId={person.id}
                  isFollowing={person.isFollowing}
                  onToggled={retry}
                />
              )}
            </Person>
          ))}
        </Results>
      )}
    </Section>
  );
}
