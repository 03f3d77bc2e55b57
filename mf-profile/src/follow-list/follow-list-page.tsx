import { Link, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { keys, useCallData } from '@campus/kit/data';
import { mediaMobile, MIN_TOUCH_TARGET_PX, touchTextTarget } from '@campus/kit/theme';
import { toast } from '@campus/kit/toast';
import { Button, EmptyState, Skeleton } from '@campus/kit/ui';
import { UserRow } from '@campus/kit/user-row';
import { useProfile } from '../profile/use-profile';

const Header = styled.header`
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  h1 {
    margin: 0;
    font-size: 1.125rem;
  }
  a {
    font-size: 0.875rem;
    justify-self: start;
    ${touchTextTarget}
  }
`;

/*
 * On a phone each row's name link (the kit's UserRow: avatar, then the name above the handle) is
 * a fingertip's target (issue 41): one line as tall as the target, still cut with '...'.
 */
const Rows = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;

  ${mediaMobile} {
    article > div > a[href] {
      line-height: ${MIN_TOUCH_TARGET_PX}px;
    }
  }
`;

export type FollowListKind = 'following' | 'followers';

const TEXT = {
  following: {
    title: (name: string, count: number) => `${name}'s Following (${count})`,
    empty: (name: string) => `${name} isn't following anyone yet.`,
    failed: 'Failed to fetch following',
  },
  followers: {
    title: (name: string, count: number) => `${name}'s Followers (${count})`,
    empty: (name: string) => `${name} has no followers yet.`,
    failed: 'Failed to fetch followers',
  },
} as const;

/** Spec §2 "Following and followers lists" (/profile/:userId/following, /followers). */
export default function FollowListPage({ kind }: { kind: FollowListKind }) {
  const { userId } = useParams();
  const id = Number(userId);
  const validId = Number.isInteger(id) && id > 0 ? id : null;
  const text = TEXT[kind];
  const { data: profile } = useProfile(validId);
  const {
    data: users,
    error,
    isLoading,
    mutate,
  } = useCallData(
    validId ? (kind === 'following' ? keys.following(validId) : keys.followers(validId)) : null,
    {
      revalidateOnMount: true,
      onError: () => toast({ title: text.failed, variant: 'destructive' }),
    },
  );
  const name = profile?.name ?? '';
  const count =
    users?.length ??
    (kind === 'following' ? profile?.followingCount : profile?.followersCount) ??
    0;
  const list = users ?? [];

  return (
    <section aria-labelledby="follow-list-title">
      <Header>
        <h1 id="follow-list-title">{text.title(name, count)}</h1>
        {validId && <Link to={`/profile/${validId}`}>Back to profile</Link>}
      </Header>
      {isLoading ? (
        <div
          aria-busy="true"
          aria-label="Loading"
          style={{ display: 'grid', gap: 12, padding: 16 }}
        >
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} $height="56px" />
          ))}
        </div>
      ) : error && !users ? (
        // Not 'X has no followers yet': the list did not load (issue 41); the toast stays.
        <EmptyState
          title={text.failed}
          description="Check your connection and try again."
          action={
            <Button variant="secondary" onClick={() => void mutate()}>
              Retry
            </Button>
          }
        />
      ) : list.length === 0 ? (
        <EmptyState description={text.empty(name)} />
      ) : (
        <Rows>
          {list.map((user) => (
            <li key={user.id}>
              <UserRow user={user} />
            </li>
          ))}
        </Rows>
      )}
    </section>
  );
}
