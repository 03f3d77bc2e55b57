import { Link } from 'react-router-dom';
import styled from 'styled-components';
import type { UserInList } from '@campus/contracts';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { UserText } from '@campus/kit/text';
import { Avatar } from '@campus/kit/ui';

const Row = styled.article`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: flex-start;
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Who = styled.div`
  flex: 1;
  min-width: 0;
  display: grid;

  > a {
    color: ${({ theme }) => theme.colors.text};
    font-weight: 700;
    text-decoration: none;
    &:hover {
      text-decoration: underline;
    }
  }
  > a,
  > span {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  span,
  p {
    margin: 0;
    font-size: 0.875rem;
    color: ${({ theme }) => theme.colors.textMuted};
    overflow-wrap: anywhere;
  }
  p {
    margin-top: ${({ theme }) => theme.space(1)};
    color: ${({ theme }) => theme.colors.text};
  }
`;

/**
 * One user in a list (following, followers): avatar, name linking to the profile, handle, bio and
 * a follow button, which is hidden on the signed-in viewer's own row.
 */
export function UserRow({ user }: { user: UserInList }) {
  const session = useSession();
  const isViewer = session.user?.id === user.id;
  return (
    <Row aria-label={user.name}>
      <Avatar name={user.name} src={user.avatarUrl} size={48} />
      <Who>
        <Link to={`/profile/${user.id}`} dir="auto" title={user.name}>
          {user.name}
        </Link>
        <span>{handleFromEmail(user.email)}</span>
        {user.bio && <UserText text={user.bio} />}
      </Who>
      {!isViewer && (
        <FollowButton userId={user.id} isFollowing={user.isFollowing} name={user.name} />
      )}
    </Row>
  );
}
