import { Link, useParams } from 'react-router-dom';
import styled from 'styled-components';
import useSWR from 'swr';
import type { UserInList } from '@campus/contracts';
import { keys } from '@campus/kit/data';
import { handleFromEmail } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Avatar, EmptyState, Skeleton } from '@campus/kit/ui';
import { FollowButton } from '../follow-button/follow-button';
import { useProfile } from '../profile/use-profile';

const Title = styled.h1`
  margin: 0;
  padding: ${({ theme }) => theme.space(4)};
  font-size: 1.125rem;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Rows = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;

  li {
    display: flex;
    gap: ${({ theme }) => theme.space(3)};
    align-items: flex-start;
    padding: ${({ theme }) => theme.space(4)};
    border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  }
  div {
    flex: 1;
    min-width: 0;
    display: grid;
  }
  a {
    font-weight: 700;
    text-decoration: none;
  }
  span,
  p {
    margin: 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
  }
`;

/** Spec §2 "Following and followers lists". */
export default function FollowListPage({ kind }: { kind: 'following' | 'followers' }) {
  const { userId } = useParams();
  const session = useSession();
  const id = Number(userId);
  const validId = Number.isInteger(id) && id > 0 ? id : null;
  const { data: profile } = useProfile(validId);
  const {
    data: users,
    isLoading,
    mutate,
  } = useSWR<UserInList[] | null, Error>(
    validId ? (kind === 'following' ? keys.following(validId) : keys.followers(validId)) : null,
    {
      revalidateOnMount: true,
      onError: () =>
        toast({
          title: 'Error',
          description:
            kind === 'following' ? 'Failed to fetch following' : 'Failed to fetch followers',
          variant: 'destructive',
        }),
    },
  );
  const name = profile?.name ?? '';
  const list = users ?? [];

  return (
    <section>
      <Title>
        {name}
        {kind === 'following' ? `'s Following (${list.length})` : `'s Followers (${list.length})`}
      </Title>
      {isLoading ? (
        <div aria-busy="true" style={{ display: 'grid', gap: 12, padding: 16 }}>
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} $height="56px" />
          ))}
        </div>
      ) : list.length === 0 ? (
        <EmptyState
          description={
            kind === 'following'
              ? `${name} isn't following anyone yet.`
              : `${name} has no followers yet.`
          }
        />
      ) : (
        <Rows>
          {list.map((user) => (
            <li key={user.id}>
              <Avatar name={user.name} src={user.avatarUrl} />
              <div>
                <Link to={`/profile/${user.id}`}>{user.name}</Link>
                <span>{handleFromEmail(user.email)}</span>
                {user.bio && <p>{user.bio}</p>}
              </div>
              {user.id !== session.user?.id && (
                <FollowButton
                  userId={user.id}
                  isFollowing={user.isFollowing}
                  onChanged={() => void mutate()}
                />
              )}
            </li>
          ))}
        </Rows>
      )}
    </section>
  );
}
