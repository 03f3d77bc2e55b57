import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { handleFromEmail, relativeTime } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { Avatar, Button, EmptyState, Skeleton } from '@campus/kit/ui';
import { FeedbackDialog } from '../feedback/feedback-dialog';
import { FollowButton } from '../follow-button/follow-button';
import { ProfilePosts } from './profile-posts';
import { useProfile } from './use-profile';

const StickyHeader = styled.button`
  position: sticky;
  top: 0;
  z-index: 5;
  width: 100%;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  border: 0;
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  background: rgb(255 255 255 / 0.9);
  backdrop-filter: blur(6px);
  font: inherit;
  font-weight: 700;
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
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(2)};
  align-items: center;
  justify-content: space-between;
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
    text-decoration: none;
  }
  strong {
    margin-right: 4px;
  }
`;

/** Spec §2 "Profile" (/profile/:id?; without an id, the signed-in user's own profile). */
export default function ProfilePage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const userId = id ? Number(id) : (session.user?.id ?? null);
  const validId = userId !== null && Number.isInteger(userId) && userId > 0 ? userId : null;
  const { data: profile, error, isLoading, mutate } = useProfile(validId);
  const isOwn = validId !== null && validId === session.user?.id;

  if (isLoading) {
    return (
      <Header aria-busy="true">
        <Skeleton $width="80px" $height="80px" $round />
        <Skeleton $width="40%" $height="24px" />
        <Skeleton $width="60%" />
      </Header>
    );
  }
  if (!profile || error || validId === null) {
    return <EmptyState title="User not found" description="This user profile doesn't exist." />;
  }

  return (
    <div>
      <StickyHeader type="button" onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}>
        {profile.name}
      </StickyHeader>
      <Header aria-label={`${profile.name}'s profile`}>
        <Row>
          <Avatar name={profile.name} src={profile.avatarUrl} size={80} />
          <Row>
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
                <Button variant="ghost" size="sm" onClick={session.logout}>
                  Logout
                </Button>
              </>
            ) : (
              <>
                <Button variant="ghost" size="sm" onClick={() => navigate(-1)}>
                  ← Back
                </Button>
                <FollowButton
                  userId={profile.id}
                  isFollowing={profile.isFollowing}
                  onChanged={() => void mutate()}
                />
              </>
            )}
          </Row>
        </Row>
        <div>
          <h1>{profile.name}</h1>
          <Muted>{handleFromEmail(profile.email)}</Muted>
        </div>
        {profile.bio && <p>{profile.bio}</p>}
        <Muted>Joined {relativeTime(profile.createdAt)}</Muted>
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
