import { useRef, useState, type FormEvent, type RefObject } from 'react';
import styled from 'styled-components';
import { MUTED_WORD_MAX_LENGTH, type MuteDuration } from '@campus/contracts';
import { ApiError } from '@campus/kit/api';
import { keys, useCallData } from '@campus/kit/data';
import { emitAppEvent } from '@campus/kit/events';
import { monthDay } from '@campus/kit/format';
import {
  addMutedWord,
  MUTE_CHOICES,
  removeMutedWord,
  unblockMember,
  unmuteMember,
} from '@campus/kit/safety';
import { toast } from '@campus/kit/toast';
import { Button, TextField } from '@campus/kit/ui';

const Lists = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(4)};
  width: 100%;

  h3 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: 0.9375rem;
  }
  ul {
    display: grid;
    gap: ${({ theme }) => theme.space(2)};
    margin: 0;
    padding: 0;
    list-style: none;
  }
  li {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: ${({ theme }) => theme.space(3)};
    padding: ${({ theme }) => theme.space(2)} ${({ theme }) => theme.space(3)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
  }
  li span {
    min-width: 0;
    overflow-wrap: anywhere;
  }
`;

const WordForm = styled.form`
  display: flex;
  flex-wrap: wrap;
  align-items: end;
  gap: ${({ theme }) => theme.space(2)};

  select {
    height: 40px;
    padding: 0 ${({ theme }) => theme.space(2)};
    border: 1px solid ${({ theme }) => theme.colors.border};
    border-radius: ${({ theme }) => theme.radius.md};
    font: inherit;
  }
  label.duration {
    display: grid;
    gap: ${({ theme }) => theme.space(1.5)};
    font-size: 0.875rem;
    font-weight: 600;
  }
`;

// One way to write a date across the apps (issue 41): the kit's "Dec 12, 2026".
const until = (iso: string | null) =>
  iso === null ? '' : ` · until ${monthDay(new Date(iso), { year: true })}`;

/**
 * Settings, "Privacy and safety" (issue 38): the members the member blocked and mutes and the
 * words and phrases they mute, each with its undo, and a form to mute a word or phrase. After an
 * undo, focus goes to the list's heading (the row and its button are gone).
 */
export function PrivacyAndSafety() {
  const { data, error, mutate } = useCallData(keys.safety(), { revalidateOnMount: true });
  const [phrase, setPhrase] = useState('');
  const [duration, setDuration] = useState<MuteDuration>('forever');
  const [wordError, setWordError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const blockedHeading = useRef<HTMLHeadingElement>(null);
  const mutedHeading = useRef<HTMLHeadingElement>(null);
  const wordsHeading = useRef<HTMLHeadingElement>(null);

  const undo = async (
    heading: RefObject<HTMLHeadingElement | null>,
    request: () => Promise<unknown>,
    done: string,
    userId?: number,
  ) => {
    try {
      await request();
    } catch {
      toast({
        title: 'Error',
        description: 'That did not work. Please try again.',
        variant: 'destructive',
      });
      return;
    }
    await mutate();
    heading.current?.focus();
    toast({ title: done });
    if (userId !== undefined) emitAppEvent('memberHidden', { userId });
  };

  const onAddWord = async (event: FormEvent) => {
    event.preventDefault();
    const text = phrase.trim();
    if (!text) {
      setWordError('Word or phrase is required');
      return;
    }
    setBusy(true);
    try {
      await addMutedWord(text, duration);
      setPhrase('');
      setWordError(undefined);
      await mutate();
      toast({
        title: 'Word muted',
        description: `Posts with “${text}” are collapsed in your feeds.`,
      });
    } catch (err) {
      setWordError(
        (err instanceof ApiError && err.status === 400 && err.serverMessage) ||
          'Failed to mute that word. Please try again.',
      );
    } finally {
      setBusy(false);
    }
  };

  if (error)
    return (
      <>
        <p role="alert">Your lists could not be loaded.</p>
        <Button variant="secondary" size="sm" onClick={() => void mutate()}>
          Retry
        </Button>
      </>
    );
  if (!data) return <p role="status">Loading your lists...</p>;

  return (
    <Lists>
      <section aria-labelledby="safety-blocked">
        <h3 id="safety-blocked" ref={blockedHeading} tabIndex={-1}>
          Blocked members
        </h3>
        {data.blocked.length === 0 ? (
          <p>You have not blocked anyone.</p>
        ) : (
          <ul>
            {data.blocked.map((m) => (
              <li key={m.id}>
                <span>{m.name}</span>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Unblock ${m.name}`}
                  onClick={() =>
                    void undo(
                      blockedHeading,
                      () => unblockMember(m.id),
                      `${m.name} is unblocked`,
                      m.id,
                    )
                  }
                >
                  Unblock
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="safety-muted">
        <h3 id="safety-muted" ref={mutedHeading} tabIndex={-1}>
          Muted members
        </h3>
        {data.muted.length === 0 ? (
          <p>You have not muted anyone.</p>
        ) : (
          <ul>
            {data.muted.map((m) => (
              <li key={m.id}>
                <span>
                  {m.name}
                  {until(m.until)}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Unmute ${m.name}`}
                  onClick={() =>
                    void undo(mutedHeading, () => unmuteMember(m.id), `${m.name} is unmuted`, m.id)
                  }
                >
                  Unmute
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="safety-words">
        <h3 id="safety-words" ref={wordsHeading} tabIndex={-1}>
          Muted words and phrases
        </h3>
        {data.words.length === 0 ? (
          <p>You have not muted any words.</p>
        ) : (
          <ul>
            {data.words.map((w) => (
              <li key={w.id}>
                <span>
                  {w.phrase}
                  {until(w.until)}
                </span>
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Unmute “${w.phrase}”`}
                  onClick={() =>
                    void undo(wordsHeading, () => removeMutedWord(w.id), `“${w.phrase}” is unmuted`)
                  }
                >
                  Unmute
                </Button>
              </li>
            ))}
          </ul>
        )}
        <WordForm onSubmit={(event) => void onAddWord(event)} noValidate>
          <TextField
            label="Word or phrase to mute"
            value={phrase}
            maxLength={MUTED_WORD_MAX_LENGTH}
            error={wordError}
            onChange={(event) => setPhrase(event.target.value)}
          />
          <label className="duration">
            For how long
            <select
              value={duration}
              onChange={(event) => setDuration(event.target.value as MuteDuration)}
            >
              {MUTE_CHOICES.map((c) => (
                <option key={c.duration} value={c.duration}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" disabled={busy}>
            Mute word
          </Button>
        </WordForm>
      </section>
    </Lists>
  );
}
