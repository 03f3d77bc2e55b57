import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type ChangeEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import styled from 'styled-components';
import type { z } from 'zod';
import {
  BIO_MAX_LENGTH,
  profileUpdateSchema,
  uploadPathOf,
  type Profile,
  type ProfileUpdate,
} from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { emitAppEvent } from '@campus/kit/events';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Avatar, Button, TextArea, TextField } from '@campus/kit/ui';
import { AvatarCropDialog } from './avatar-crop-dialog';
import { AvatarField, FileButton, FileError, Muted } from './avatar-field';
import { saveProfile, uploadAvatar, UploadError } from './save-profile';

/** Spec §4 "Profile save". */
export type SaveState = 'idle' | 'uploading' | 'saving' | 'success' | 'error';

type FormInput = z.input<typeof profileUpdateSchema>;

const Form = styled.form`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

const SUBMIT_TEXT: Record<SaveState, string> = {
  idle: 'Save Changes',
  uploading: 'Uploading...',
  saving: 'Saving...',
  success: 'Saved',
  error: 'Save Changes',
};

/** A chosen picture and the object URL that shows it. */
interface Picture {
  file: File;
  url: string;
}

/** What the file input accepts; a browser lets a member pick any file anyway ("All files"). */
const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

function notAPicture(file: File): string {
  return `${file.name} is not a picture. Choose a JPEG, PNG, WebP or GIF file.`;
}

function pictureOf(file: File): Picture {
  return { file, url: URL.createObjectURL(file) };
}

/** Frees a picture's object URL when it is replaced or the form goes away. */
function useRevokeOnChange(picture: Picture | null) {
  useEffect(() => {
    if (!picture) return;
    return () => URL.revokeObjectURL(picture.url);
  }, [picture]);
}

/**
 * Spec §2 "Edit profile": avatar file (cropped to a square JPEG) or an image URL, display name
 * and bio. Validation runs on submit, then on every change.
 */
export function ProfileForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate();
  const session = useSession();
  const [picked, setPicked] = useState<Picture | null>(null); // waiting in the crop dialog
  const [cropped, setCropped] = useState<Picture | null>(null); // to upload on save
  const [fileError, setFileError] = useState<string | null>(null);
  const [state, setState] = useState<SaveState>('idle');
  useRevokeOnChange(picked);
  useRevokeOnChange(cropped);
  const avatarFile = cropped?.file ?? null;

  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<FormInput, unknown, ProfileUpdate>({
    resolver: zodResolver(profileUpdateSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: profile.name, bio: profile.bio ?? '', avatarUrl: '' },
  });
  const typedUrl = (useWatch({ control, name: 'avatarUrl' }) ?? '').trim();
  const bio = useWatch({ control, name: 'bio' }) ?? '';
  const busy = state === 'uploading' || state === 'saving' || state === 'success';
  // Only a Campus upload is previewed: another site's image would be fetched for nothing (the
  // API refuses it) and would tell that site who is editing their profile.
  const typedUpload = typedUrl && uploadPathOf(typedUrl) ? typedUrl : '';
  const preview = cropped?.url ?? (typedUpload || profile.avatarUrl);

  const clearFile = () => {
    setPicked(null);
    setCropped(null);
  };

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again is a new choice
    if (!file) return;
    // A crop dialog around a file no browser can draw would show nothing and crop nothing.
    if (!PICTURE_TYPES.includes(file.type)) {
      setFileError(notAPicture(file));
      return;
    }
    setFileError(null);
    setPicked(pictureOf(file));
  };

  const urlField = register('avatarUrl', {
    // A non-blank URL wins over a chosen file (spec §4).
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      if (event.target.value.trim()) clearFile();
    },
  });

  const onValid = async (values: ProfileUpdate) => {
    let avatarUrl = values.avatarUrl || profile.avatarUrl;
    try {
      if (avatarFile) {
        setState('uploading');
        avatarUrl = await uploadAvatar(avatarFile);
      }
      setState('saving');
      const user = await saveProfile(profile.id, {
        name: values.name,
        bio: values.bio ?? '',
        avatarUrl: avatarUrl ?? '',
      });
      setState('success');
      session.updateUser({
        id: user.id,
        name: user.name,
        email: user.email,
        avatarUrl: user.avatarUrl,
      });
      emitAppEvent('profileChanged', { userId: user.id });
      toast({ title: 'Profile updated successfully!' });
      void navigate(`/profile/${profile.id}`);
    } catch (error) {
      setState('error');
      if (error instanceof UploadError) {
        toast({
          title: 'Failed to upload image',
          description: error.message,
          variant: 'destructive',
        });
      } else {
        toast({
          title: 'Error',
          description:
            (error instanceof ApiError ? error.serverMessage : (error as Error)?.message) ||
            'Failed to update profile.',
          variant: 'destructive',
        });
      }
    }
  };

  return (
    <Form noValidate onSubmit={handleSubmit(onValid)} aria-busy={busy || undefined}>
      <AvatarField>
        <legend>Profile picture</legend>
        <Avatar name={profile.name} src={preview} size={96} />
        <div style={{ display: 'grid', gap: 8 }}>
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
            <input
              id="avatar-file"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/gif"
              onChange={onFileChosen}
              disabled={busy}
              aria-invalid={fileError ? true : undefined}
              aria-describedby="avatar-file-hint"
            />
            <FileButton htmlFor="avatar-file">Upload picture</FileButton>
            {avatarFile && (
              <Button variant="ghost" size="sm" onClick={clearFile} disabled={busy}>
                Remove chosen picture
              </Button>
            )}
          </div>
          {fileError ? (
            <FileError id="avatar-file-hint" role="alert">
              {fileError}
            </FileError>
          ) : (
            <Muted id="avatar-file-hint" aria-live="polite">
              {avatarFile
                ? `${avatarFile.name} will be uploaded when you save.`
                : 'JPEG, PNG, WebP or GIF, up to 5 MB.'}
            </Muted>
          )}
        </div>
      </AvatarField>
      <TextField
        label="Or use an image URL"
        type="url"
        inputMode="url"
        placeholder="Link to a picture uploaded to Campus"
        error={errors.avatarUrl?.message}
        disabled={busy}
        {...urlField}
      />
      <TextField
        label="Display name"
        autoComplete="name"
        error={errors.name?.message}
        disabled={busy}
        {...register('name')}
      />
      <TextArea
        label="Bio"
        rows={4}
        aria-describedby="bio-count"
        error={errors.bio?.message}
        disabled={busy}
        {...register('bio')}
      />
      <Muted id="bio-count" aria-live="polite">
        {bio.length}/{BIO_MAX_LENGTH}
      </Muted>
      <Actions>
        <Button
          variant="secondary"
          onClick={() => navigate(`/profile/${profile.id}`)}
          disabled={busy}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={busy} data-state={state}>
          {SUBMIT_TEXT[state]}
        </Button>
      </Actions>
      <AvatarCropDialog
        source={picked?.url ?? null}
        onApply={(file) => {
          setPicked(null);
          setCropped(pictureOf(file));
          setValue('avatarUrl', '');
        }}
        onCancel={clearFile}
        onUnreadable={() => {
          if (picked) setFileError(notAPicture(picked.file));
          clearFile();
        }}
      />
    </Form>
  );
}
