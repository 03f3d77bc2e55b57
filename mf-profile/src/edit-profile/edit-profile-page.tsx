import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import styled from 'styled-components';
import type { z } from 'zod';
import { profileUpdateSchema, type ProfileUpdate, type PublicUser } from '@campus/contracts';
import { ApiError, apiRequest } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Avatar, Button, Skeleton, TextArea, TextField } from '@campus/kit/ui';
import type { Profile } from '@campus/contracts';
import { useProfile } from '../profile/use-profile';

const Card = styled.section`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  padding: ${({ theme }) => theme.space(4)};

  h1 {
    margin: 0;
    font-size: 1.25rem;
  }
  form {
    display: grid;
    gap: ${({ theme }) => theme.space(4)};
  }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

type ProfileInput = z.input<typeof profileUpdateSchema>;

function ProfileForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const session = useSession();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: {
      name: profile.name,
      bio: profile.bio ?? '',
      avatarUrl: profile.avatarUrl ?? '',
    },
  });
  const avatarUrl = useWatch({ control, name: 'avatarUrl' });

  const onValid = async (update: ProfileUpdate) => {
    try {
      const user = await apiRequest<PublicUser>(`/api/users/${profile.id}`, {
        method: 'PUT',
        body: { ...update, avatarUrl: update.avatarUrl || null },
      });
      session.updateUser({
        id: user.id,
        name: user.name,
        email: user.email,
        avatarUrl: user.avatarUrl,
      });
      emitAppEvent('profileChanged', { userId: user.id });
      toast({ title: 'Success', description: 'Profile updated successfully!' });
      navigate(`/profile/${profile.id}`);
    } catch (error) {
      toast({
        title: 'Error',
        description:
          (error instanceof ApiError && error.serverMessage) || 'Failed to update profile.',
        variant: 'destructive',
      });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid)}>
      <Avatar name={profile.name} src={avatarUrl?.trim() || profile.avatarUrl} size={80} />
      <TextField
        label="Image URL"
        placeholder="https://..."
        error={errors.avatarUrl?.message}
        {...register('avatarUrl')}
      />
      <TextField label="Display name" error={errors.name?.message} {...register('name')} />
      <TextArea
        label="Bio"
        rows={4}
        maxLength={500}
        error={errors.bio?.message}
        {...register('bio')}
      />
      <Actions>
        <Button variant="secondary" onClick={() => navigate(`/profile/${profile.id}`)}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Save'}
        </Button>
      </Actions>
    </form>
  );
}

/** Spec §2 "Edit profile" (/profile/:id/edit): only one's own profile. */
export default function EditProfilePage() {
  const { id } = useParams();
  const session = useSession();
  const ownId = session.user?.id ?? null;
  const { data: profile, isLoading } = useProfile(ownId);
  if (ownId === null || Number(id) !== ownId)
    return <Navigate to={`/profile/${id ?? ''}`} replace />;

  return (
    <Card aria-labelledby="edit-profile-title">
      <h1 id="edit-profile-title">Edit Profile</h1>
      {isLoading || !profile ? (
        <div aria-busy="true" style={{ display: 'grid', gap: 12 }}>
          <Skeleton $width="80px" $height="80px" $round />
          <Skeleton $height="40px" />
          <Skeleton $height="96px" />
        </div>
      ) : (
        <ProfileForm profile={profile} />
      )}
    </Card>
  );
}
