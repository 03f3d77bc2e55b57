import { useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { USER_SEARCH_QUERY_MAX_LENGTH } from '@campus/contracts';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { Avatar, Button } from '@campus/kit/ui';
import { usePeopleSearch } from './people-search-query';

const Section = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(6)} ${({ theme }) => theme.space(4)} 0;

  h2 {
    margin: 0;
    font-size: 1.125rem;
  }
  input {
    height: 44px;
    padding: 0 ${({ theme }) => theme.space(4)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.full};
    font: inherit;
  }
  input:focus-visible {
    outline: 2px solid ${({ theme }) => theme.colors.focus};
    outline-offset: 1px;
  }
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
 * People search (issue 19) above the AI search placeholder: a name or e-mail prefix, asked once
 * typing pauses. Arrow keys move between the field and the people found (Tab reaches their follow
 * buttons too); the number found is announced.
 */
export function PeopleSearch() {
  const [text, setText] = useState('');
  const { people, searching, error, retry } = usePeopleSearch(text);
  const { user } = useSession();
  const field = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const links = () => Array.from(list.current?.querySelectorAll<HTMLAnchorElement>('li > a') ?? []);

  /** ArrowDown / ArrowUp walk field -> first person -> ... -> last; Home / End jump. */
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const all = links();
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    let next: HTMLElement | undefined;
    if (event.key === 'ArrowDown') next = all[Math.min(at + 1, all.length - 1)];
    else if (event.key === 'ArrowUp') next = at <= 0 ? (field.current ?? undefined) : all[at - 1];
    else if (event.key === 'Home' && at >= 0) next = all[0];
    else if (event.key === 'End' && at >= 0) next = all[all.length - 1];
    else if (event.key === 'Escape' && at >= 0) next = field.current ?? undefined;
    if (!next) return;
    event.preventDefault();
    next.focus();
  };

  const showResults = Boolean(people && people.length > 0 && text.trim());
  let status = '';
  if (error) status = 'People search failed.';
  else if (searching && !people) status = 'Searching...';
  else if (people) status = peopleFound(people.length);

  return (
    <Section aria-labelledby="people-search-title" onKeyDown={onKeyDown}>
      <h2 id="people-search-title">Find people</h2>
      <input
        ref={field}
        type="search"
        aria-label="Search people"
        aria-describedby="people-search-status"
        aria-controls={showResults ? 'people-search-results' : undefined}
        placeholder="Search people by name or e-mail"
        autoComplete="off"
        maxLength={USER_SEARCH_QUERY_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.stopPropagation();
            setText('');
          }
        }}
      />
      <Status id="people-search-status" role="status" aria-live="polite">
        {text.trim() ? status : ''}
      </Status>
      {error && (
        <Button variant="secondary" size="sm" onClick={retry} style={{ justifySelf: 'start' }}>
          Retry
        </Button>
      )}
      {showResults && (
        <Results
          ref={list}
          id="people-search-results"
          aria-label="People"
          aria-busy={searching || undefined}
        >
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
