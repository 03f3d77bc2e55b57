import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled, { css } from 'styled-components';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail, relativeTime } from '@campus/kit/format';
import { ReportMenu } from '@campus/kit/report';
import { mediaMobile, touchTextTarget } from '@campus/kit/theme';
import { useSession } from '@campus/kit/session';
import { UserText } from '@campus/kit/text';
import { Avatar, Badge, Button, Skeleton } from '@campus/kit/ui';
import { FeedbackDialog } from '../feedback/feedback-dialog';
import { ProfileNotFound } from './profile-not-found';
import { ProfilePosts } from './profile-posts';
import { useProfile } from './use-profile';

const StickyHeader = styled.button`
  position: sticky;
  top: 0;
  z-index: 5;
  display: block;
  width: 100%;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border: 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: color-mix(in srgb, ${({ theme }) => theme.colors.surface} 90%, transparent);
  backdrop-filter: blur(6px);
  color: inherit;
  font: inherit;
  font-weight: 700;
  font-size: 1.0625rem;
  text-align: left;
  cursor: pointer;
`;

const Header = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(4)};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  h1 {
    margin: 0;
    font-size: 1.375rem;
  }
  p {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  justify-content: space-between;
`;

/*
 * On phones (issue 41) every action is a 44 px touch target (the report menu's too), and the own
 * profile's four sit two by two beside the avatar: wrapped as a row, 'Logout' ended alone on a
 * line above the name.
 */
const Actions = styled.div<{ $own: boolean }>`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};

  ${mediaMobile} {
    ${({ $own }) =>
      $own
        ? css`
            flex: 1;
            display: grid;
            grid-template-columns: repeat(2, minmax(0, 1fr));
            max-width: 320px;
          `
        : ''}
    /* the follow button keeps its own width (as wide as 'Following') */
    button:not([data-following]) {
      min-width: 44px;
      min-height: 44px;
    }
  }
`;

const NameLine = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
`;

const Muted = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const Counts = styled.p`
  display: flex;
  gap: ${({ theme }) => theme.space(4)};
  font-size: 0.875rem;

  a {
    color: ${({ theme }) => theme.colors.textMuted};
    text-decoration: none;
    ${touchTextTarget}
    &:hover {
      text-decoration: underline;
    }
  }
  strong {
    margin-right: 4px;
    color: ${({ theme }) => theme.colors.text};
  }
`;

function parseId(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}

/** History back within the app, or home when the profile was opened directly (spec §2). */
function useBack() {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate('/');
  };
}

function ProfileSkeleton() {
  return (
    <Header aria-busy="true" aria-label="Loading profile">
      <Skeleton $width="80px" $height="80px" $round />
      <Skeleton $width="40%" $height="24px" />
      <Skeleton $width="25%" />
      <Skeleton $width="60%" />
    </Header>
  );
}

/** Spec §2 "Profile" (/profile/:id?; without an id, the signed-in user's own profile). */
export default function ProfilePage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const back = useBack();
  const session = useSession();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const userId = id === undefined ? (session.user?.id ?? null) : parseId(id);
  const { data: profile, error, isLoading, mutate } = useProfile(userId);
  const isOwn = userId !== null && userId === session.user?.id;

  if (userId !== null && isLoading && !profile) return <ProfileSkeleton />;
  if (userId === null || !profile || error) {
    return <ProfileNotFound error={error} retry={() => void mutate()} />;
  }

  return (
    <div>
      <StickyHeader
        type="button"
        aria-label={`${profile.name}, scroll to top`}
        onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      >
        {profile.name}
      </StickyHeader>
      <Header aria-labelledby="profile-name">
        <Row>
          <Avatar name={profile.name} src={profile.avatarUrl} size={80} />
          <Actions $own={isOwn}>
            {isOwn ? (
              <>
                <Button variant="secondary" size="sm" onClick={() => setFeedbackOpen(true)}>
                  Feedback
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => navigate(`/profile/${profile.id}/edit`)}
                >
                  Edit Profile
                </Button>
                <Button variant="secondary" size="sm" onClick={() => navigate('/settings')}>
                  Settings
                </Button>
                <Button variant="ghost" size="sm" onClick={session.logout}>
                  Logout
                </Button>
              </>
            ) : (
              <>
                <Button variant="ghost" size="sm" onClick={back}>
                  ← Back
                </Button>
                <FollowButton
                  userId={profile.id}
                  isFollowing={profile.isFollowing}
                  name={profile.name}
                />
                <ReportMenu
                  targetType="user"
                  targetId={profile.id}
                  authorId={profile.id}
                  authorName={profile.name}
                  label="Report user"
                  menuLabel={`More actions for ${profile.name}`}
                />
              </>
            )}
          </Actions>
        </Row>
        <div>
          <NameLine>
            <h1 id="profile-name">{profile.name}</h1>
            {profile.affiliation === 'alumni' && <Badge>Alumni</Badge>}
          </NameLine>
          <Muted>{handleFromEmail(profile.email)}</Muted>
        </div>
        {profile.bio && <UserText text={profile.bio} />}
        <Muted>
          Joined <time dateTime={profile.createdAt}>{relativeTime(profile.createdAt)}</time>
        </Muted>
        <Counts>
          <Link to={`/profile/${profile.id}/following`}>
            <strong>{profile.followingCount}</strong>Following
          </Link>
          <Link to={`/profile/${profile.id}/followers`}>
            <strong>{profile.followersCount}</strong>Followers
          </Link>
        </Counts>
      </Header>
      <ProfilePosts
        posts={profile.posts}
        onChanged={() => void mutate()}
        emptyText={
          isOwn
            ? 'Share your first thought with the campus community!'
            : `${profile.name} hasn't posted anything yet.`
        }
      />
      {isOwn && <FeedbackDialog open={feedbackOpen} onOpenChange={setFeedbackOpen} />}
    </div>
  );
}
