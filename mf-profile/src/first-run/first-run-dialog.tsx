import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import styled from 'styled-components';
import { BIO_MAX_LENGTH, profileUpdateSchema, type UserSuggestion } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { keys, useCallData } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { FollowButton } from '@campus/kit/follow-button';
import { handleFromEmail } from '@campus/kit/format';
import { useSession } from '@campus/kit/session';
import { toast } from '@campus/kit/toast';
import { Avatar, Button, Dialog, Skeleton, TextArea } from '@campus/kit/ui';
import { AvatarCropper } from '../edit-profile/avatar-crop-dialog';
import { AvatarField, FileButton, FileError, Muted } from '../edit-profile/avatar-field';
import { saveProfile, uploadAvatar, UploadError } from '../edit-profile/save-profile';

/** The first run's steps (issue 41), each its own title: the dialog is labelled by it. */
export const FIRST_RUN_STEPS = ['Add a photo and a bio', 'People to follow'] as const;

export interface FirstRunDialogProps {
  /** Skip (at any step, or Escape) and Done end the run: the shell forgets it is pending. */
  onClose: () => void;
}

const Step = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};

  &:focus {
    outline: none;
  }
`;

const Progress = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

const People = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Person = styled.li`
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: center;
  min-width: 0;

  > button {
    flex: none;
  }
`;

const Who = styled.div`
  flex: 1;
  min-width: 0;
  display: grid;
  font-size: 0.875rem;
  overflow-wrap: anywhere;

  strong {
    color: ${({ theme }) => theme.colors.text};
  }
  span {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: 0.8125rem;
  }
`;

/** What the file input accepts, as in the profile editor. */
const PICTURE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];

function notAPicture(file: File): string {
  return `${file.name} is not a picture. Choose a JPEG, PNG, WebP or GIF file.`;
}

/** A chosen or cropped picture and the object URL that shows it (freed when replaced). */
interface Picture {
  file: File;
  url: string;
}

function usePicture() {
  const [picture, setPicture] = useState<Picture | null>(null);
  useEffect(() => {
    if (!picture) return;
    return () => URL.revokeObjectURL(picture.url);
  }, [picture]);
  const set = (file: File | null) =>
    setPicture(file ? { file, url: URL.createObjectURL(file) } : null);
  return [picture, set] as const;
}

/**
 * Issue 41: the first run after a member's first sign-in, over the feed. Step 1 asks for a photo
 * (cropped as in the profile editor) and a bio, saved with the profile editor's calls; step 2
 * offers the who-to-follow suggestions with Follow buttons. Skip (or Escape) ends the run at any
 * step, Done at the last; both call `onClose`.
 */
export default function FirstRunDialog({ onClose }: FirstRunDialogProps) {
  const [step, setStep] = useState(0);
  const stepRef = useRef<HTMLDivElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    // The dialog moves focus into the first step itself; the next step takes it on arrival
    // (the button that led there is gone).
    if (shownStep.current === step) return;
    shownStep.current = step;
    stepRef.current?.focus();
  }, [step]);

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={FIRST_RUN_STEPS[step]!}
      width={560}
    >
      <Step ref={stepRef} tabIndex={-1} key={step}>
        <Progress>
          Step {step + 1} of {FIRST_RUN_STEPS.length}
        </Progress>
        {step === 0 ? (
          <PhotoAndBio onNext={() => setStep(1)} onSkip={onClose} />
        ) : (
          <PeopleToFollow onDone={onClose} onSkip={onClose} />
        )}
      </Step>
    </Dialog>
  );
}

type SaveState = 'idle' | 'uploading' | 'saving';

function PhotoAndBio({ onNext, onSkip }: { onNext: () => void; onSkip: () => void }) {
  const session = useSession();
  const user = session.user;
  const [picked, setPicked] = usePicture(); // waiting to be cropped
  const [cropped, setCropped] = usePicture(); // uploaded on Next
  const [fileError, setFileError] = useState<string | null>(null);
  const [bio, setBio] = useState('');
  const [bioError, setBioError] = useState<string | undefined>();
  const [state, setState] = useState<SaveState>('idle');
  const busy = state !== 'idle';
  // Back from the crop, focus returns to the photo's control (the cropper's buttons are gone).
  const fileInput = useRef<HTMLInputElement>(null);
  const wasCropping = useRef(false);
  useEffect(() => {
    if (picked) wasCropping.current = true;
    else if (wasCropping.current) {
      wasCropping.current = false;
      fileInput.current?.focus();
    }
  }, [picked]);

  const onFileChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // choosing the same file again is a new choice
    if (!file) return;
    if (!PICTURE_TYPES.includes(file.type)) {
      setFileError(notAPicture(file));
      return;
    }
    setFileError(null);
    setPicked(file);
  };

  const next = async () => {
    const checked = profileUpdateSchema.shape.bio.safeParse(bio);
    if (!checked.success) {
      setBioError(checked.error.issues[0]?.message);
      return;
    }
    const newBio = checked.data ?? '';
    if (!user || (!cropped && newBio === '')) {
      onNext(); // nothing to save
      return;
    }
    try {
      let avatarUrl: string | undefined;
      if (cropped) {
        setState('uploading');
        avatarUrl = await uploadAvatar(cropped.file);
      }
      setState('saving');
      const saved = await saveProfile(user.id, {
        name: user.name,
        ...(newBio ? { bio: newBio } : {}),
        ...(avatarUrl ? { avatarUrl } : {}),
      });
      session.updateUser({
        id: saved.id,
        name: saved.name,
        email: saved.email,
        avatarUrl: saved.avatarUrl,
      });
      emitAppEvent('profileChanged', { userId: saved.id });
      toast({ title: 'Profile updated successfully!' });
      onNext();
    } catch (error) {
      setState('idle');
      toast(
        error instanceof UploadError
          ? { title: 'Failed to upload image', description: error.message, variant: 'destructive' }
          : {
              title: 'Error',
              description:
                (error instanceof ApiError && error.serverMessage) || 'Failed to update profile.',
              variant: 'destructive',
            },
      );
    }
  };

  if (picked) {
    return (
      <AvatarCropper
        key={picked.url}
        source={picked.url}
        onApply={(file) => {
          setCropped(file);
          setPicked(null);
        }}
        onCancel={() => setPicked(null)}
        onUnreadable={() => {
          setFileError(notAPicture(picked.file));
          setPicked(null);
        }}
      />
    );
  }

  return (
    <form
      noValidate
      aria-busy={busy || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void next();
      }}
    >
      <Step as="div">
        <AvatarField>
          <legend>Profile picture</legend>
          <Avatar name={user?.name ?? ''} src={cropped?.url ?? user?.avatarUrl ?? null} size={80} />
          <div style={{ display: 'grid', gap: 8 }}>
            <div>
              <input
                ref={fileInput}
                id="first-run-photo"
                type="file"
                accept={PICTURE_TYPES.join(',')}
                onChange={onFileChosen}
                disabled={busy}
                aria-invalid={fileError ? true : undefined}
                aria-describedby="first-run-photo-hint"
              />
              <FileButton htmlFor="first-run-photo">
                {cropped ? 'Choose another photo' : 'Choose a photo'}
              </FileButton>
            </div>
            {fileError ? (
              <FileError id="first-run-photo-hint" role="alert">
                {fileError}
              </FileError>
            ) : (
              <Muted id="first-run-photo-hint" aria-live="polite">
                {cropped
                  ? `${cropped.file.name} will be uploaded when you continue.`
                  : 'JPEG, PNG, WebP or GIF, up to 5 MB.'}
              </Muted>
            )}
          </div>
        </AvatarField>
        <TextArea
          label="Bio"
          rows={3}
          placeholder="A line about you: what you study, what you are into"
          maxLength={BIO_MAX_LENGTH}
          value={bio}
          error={bioError}
          disabled={busy}
          onChange={(event) => {
            setBio(event.target.value);
            setBioError(undefined);
          }}
        />
        <Actions>
          <Button variant="secondary" onClick={onSkip} disabled={busy}>
            Skip
          </Button>
          <Button type="submit" disabled={busy}>
            {state === 'uploading' ? 'Uploading...' : state === 'saving' ? 'Saving...' : 'Next'}
          </Button>
        </Actions>
      </Step>
    </form>
  );
}

/** Why this person is suggested, in a few words (as the feed's 'Who to follow' says it). */
function reason(person: UserSuggestion): string {
  if (person.mutualCount > 0) {
    return `Followed by ${person.mutualCount} ${person.mutualCount === 1 ? 'person' : 'people'} you follow`;
  }
  return `${person.followersCount} ${person.followersCount === 1 ? 'follower' : 'followers'}`;
}

function PeopleToFollow({ onDone, onSkip }: { onDone: () => void; onSkip: () => void }) {
  const { data, error, isLoading, mutate } = useCallData(keys.userSuggestions(), {
    revalidateOnMount: true,
  });
  // Someone followed here stays in the list, as 'Following' (the click can be undone).
  const [following, setFollowing] = useState<ReadonlySet<number>>(new Set());

  let content;
  if (error) {
    content = (
      <>
        <Muted>Suggestions could not be loaded.</Muted>
        <div>
          <Button variant="secondary" size="sm" onClick={() => void mutate()}>
            Retry
          </Button>
        </div>
      </>
    );
  } else if (isLoading || !data) {
    content = (
      <div aria-busy="true" aria-label="Loading suggestions">
        <Skeleton $height="40px" />
      </div>
    );
  } else if (data.length === 0) {
    content = <Muted>No suggestions right now.</Muted>;
  } else {
    content = (
      <People aria-label="Suggested people">
        {data.map((person) => (
          <Person key={person.id} aria-label={person.name}>
            <Avatar name={person.name} src={person.avatarUrl} size={40} />
            <Who>
              <strong dir="auto">{person.name}</strong>
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
      </People>
    );
  }

  return (
    <>
      <Muted>Follow a few people to fill your feed. You can find more under Search.</Muted>
      {content}
      <Actions>
        <Button variant="secondary" onClick={onSkip}>
          Skip
        </Button>
        <Button onClick={onDone}>Done</Button>
      </Actions>
    </>
  );
}
