import { Navigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import { useSession } from '@campus/kit/session';
import { Skeleton } from '@campus/kit/ui';
import { ProfileNotFound } from '../profile/profile-not-found';
import { useProfile } from '../profile/use-profile';
import { ProfileForm } from './profile-form';

const Card = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  margin: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(6)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};

  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
`;

const Loading = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
`;

/** Spec §2 "Edit profile" (/profile/:id/edit): only one's own profile; anyone else's shows it instead. */
export default function EditProfilePage() {
  const { id } = useParams();
  const session = useSession();
  const ownId = session.user?.id ?? null;
  const isOwn = ownId !== null && Number(id) === ownId;
  const { data: profile, error, isLoading, mutate } = useProfile(isOwn ? ownId : null);
  const checking = session.status === 'checking';
  if (!isOwn && !checking) return <Navigate to={id ? `/profile/${id}` : '/profile'} replace />;

  return (
    <Card aria-labelledby="edit-profile-title">
      <h1 id="edit-profile-title">Edit Profile</h1>
      {error && !profile ? (
        <ProfileNotFound error={error} retry={() => void mutate()} />
      ) : checking || isLoading || !profile ? (
        <Loading aria-busy="true" aria-label="Loading your profile">
          <Skeleton $width="96px" $height="96px" $round />
          <Skeleton $height="40px" />
          <Skeleton $height="40px" />
          <Skeleton $height="96px" />
        </Loading>
      ) : (
        <ProfileForm profile={profile} />
      )}
    </Card>
  );
}
