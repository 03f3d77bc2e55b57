import { useState } from 'react';
import { Link } from 'react-router-dom';
import styled from 'styled-components';
import { mediaMobile } from '@campus/kit/theme';
import type { UserSuggestion } from '@campus/contracts';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail } from '@campus/kit/format';
import { Avatar, Button, Skeleton } from '@campus/kit/ui';
import { useSuggestions } from './suggestions-query';

const Card = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};

  h2 {
    margin: 0;
    font-size: 1rem;
  }
  ul {
    display: grid;
    gap: ${({ theme }) => theme.space(3)};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const Person = styled.li`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: flex-start;
  min-width: 0;

  > button {
    flex: none;
  }
`;

/*
 * Names and reasons wrap rather than end in '...' (issue 41: the narrow column cut 'Followed by 2
 * people you follow' and longer names); a word longer than the column breaks anywhere.
 */
const Who = styled.div`
  flex: 1;
  min-width: 0;
  display: grid;
  font-size: 0.875rem;

  a,
  span {
    overflow-wrap: anywhere;
  }
  a {
    color: ${({ theme }) => theme.colors.text};
    font-weight: 700;
    text-decoration: none;
  }
  a:hover {
    text-decoration: underline;
  }
  span {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: 0.8125rem;
  }

  /* On a phone the name's link covers the whole block (name, handle, reason): a fingertip's
     target (issue 41) without taller rows. */
  ${mediaMobile} {
    position: relative;
    a::after {
      content: '';
      position: absolute;
      inset: 0;
    }
  }
`;

/** Why this person is suggested, in a few words. */
function reason(person: UserSuggestion): string {
  if (person.mutualCount > 0) {
    return `Followed by ${person.mutualCount} ${person.mutualCount === 1 ? 'person' : 'people'} you follow`;
  }
  return `${person.followersCount} ${person.followersCount === 1 ? 'follower' : 'followers'}`;
}

/**
 * 'Who to follow' (issue 19): people followed by the people the member follows, or the most
 * followed members, each with a follow button. Someone followed from here stays in the list
 * (as 'Following', so the click can be undone) until the card is shown again.
 */
export function WhoToFollow({ className }: { className?: string }) {
  const { data, error, mutate, isLoading } = useSuggestions();
  const [following, setFollowing] = useState<ReadonlySet<number>>(new Set());

  let content;
  if (error) {
    content = (
      <>
        <p>Suggestions could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void mutate()}>
          Retry
        </Button>
      </>
    );
  } else if (isLoading || !data) {
    content = (
      <div aria-busy="true" aria-label="Loading suggestions">
        <Skeleton $height="40px" />
      </div>
    );
  } else if (data.length === 0) {
    content = <p>No suggestions right now.</p>;
  } else {
    content = (
      <ul>
        {data.map((person) => (
          <Person key={person.id} aria-label={person.name}>
            <Avatar name={person.name} src={person.avatarUrl} size={40} />
            <Who>
              <Link to={`/profile/${person.id}`} dir="auto" title={person.name}>
                {person.name}
              </Link>
              <span>{handleFromEmail(person.email)}</span>
              <span>{reason(person)}</span>
            </Who>
            <FollowButton
              userId={person.id}
              name={person.name}
              isFollowing={following.has(person.id)}
              onToggled={(result) =>
                setFollowing((ids) => {
                  const next = new Set(ids);
                  if (result.following) next.add(person.id);
                  else next.delete(person.id);
                  return next;
                })
              }
            />
          </Person>
        ))}
      </ul>
    );
  }

  return (
    <Card className={className} aria-labelledby="who-to-follow-title">
      <h2 id="who-to-follow-title">Who to follow</h2>
      {content}
    </Card>
  );
}
