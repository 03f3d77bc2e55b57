// The @mention suggestions list (issue 40): fetched by mention-text-area.tsx the first time a
// member types '@', with its requests.
import { useEffect, useLayoutEffect, useState, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { callRoutes, type MentionCandidate } from '@campus/contracts';
import { callApi } from '@campus/kit/api';
import { handleFromEmail } from '@campus/kit/format';
import { Avatar } from '@campus/kit/ui';
import type { MentionListState } from './mention-text-area';

/** How long typing pauses before the members are asked for. */
export const MENTION_DEBOUNCE_MS = 150;

const List = styled.ul`
  margin: ${({ theme }) => theme.space(1)} 0 0;
  padding: ${({ theme }) => theme.space(1)} 0;
  /* At most 8 rows (the API's limit): no scrolling region, which the keyboard could not reach. */
  list-style: none;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surface};
`;

const Option = styled.li`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  min-height: 44px;
  padding: ${({ theme }) => theme.space(1)} ${({ theme }) => theme.space(3)};
  cursor: pointer;
  touch-action: manipulation;

  &[aria-selected='true'] {
    background: ${({ theme }) => theme.colors.surfaceMuted};
  }
  span {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .handle,
  small {
    color: ${({ theme }) => theme.colors.textMuted};
    font-size: 0.8125rem;
  }
  small {
    margin-left: auto;
  }
`;

const Status = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;

const NOBODY: MentionCandidate[] = [];

export interface MentionSuggestionsProps {
  /** The listbox's id (the field's `aria-controls`). */
  id: string;
  /** What follows the '@' so far ('' for people the writer follows). */
  query: string;
  onPick: (candidate: MentionCandidate) => void;
  /** Escape: the field closes the list for this '@'. */
  onClose: () => void;
  /** Whether the list shows, its active option and its keys, for the field. */
  onStateChange: (state: MentionListState) => void;
}

/**
 * Members to mention for what follows the '@': asked for once typing pauses
 * (`GET /api/users/mention-suggestions`, at most 8, people the writer follows first), each answer
 * kept while the field is open. Nothing shows while there is no member to offer.
 */
export function MentionSuggestions({
  id,
  query,
  onPick,
  onClose,
  onStateChange,
}: MentionSuggestionsProps) {
  const q = query.trim();
  // Each answer, kept while the list is open; a failed ask counts as nobody (another q asks again).
  const [answers, setAnswers] = useState<ReadonlyMap<string, MentionCandidate[]>>(new Map());
  const [lastAnswered, setLastAnswered] = useState<string | null>(null);
  // Until q's answer comes, the last one stays (no flicker while typing on).
  const candidates = answers.get(q) ?? answers.get(lastAnswered ?? '') ?? NOBODY;
  // The active option, for the list it was chosen in: a new list starts at its first member.
  const [active, setActive] = useState({ list: candidates, index: 0 });
  const index = active.list === candidates ? Math.min(active.index, candidates.length - 1) : 0;

  useEffect(() => {
    if (answers.has(q)) return;
    const controller = new AbortController();
    const answered = (found: MentionCandidate[]) => {
      setAnswers((before) => new Map(before).set(q, found));
      setLastAnswered(q);
    };
    const timer = setTimeout(() => {
      callApi(callRoutes.mentionSuggestions, { query: { q }, signal: controller.signal }).then(
        answered,
        () => {
          // Offer nobody; the field works as a plain one.
          if (!controller.signal.aborted) answered(NOBODY);
        },
      );
    }, MENTION_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, answers]);

  const optionId = (candidate: MentionCandidate) => `${id}-member-${candidate.id}`;
  const current = candidates[index];

  // Told before the browser paints, so the field's ARIA names the list as soon as it shows.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent<HTMLTextAreaElement>) => {
      if (event.nativeEvent.isComposing) return false;
      switch (event.key) {
        case 'ArrowDown':
        case 'ArrowUp': {
          const step = event.key === 'ArrowDown' ? 1 : -1;
          setActive({
            list: candidates,
            index: (index + step + candidates.length) % candidates.length,
          });
          break;
        }
        case 'Enter':
        case 'Tab':
          if (event.shiftKey || !current) return false;
          onPick(current);
          break;
        case 'Escape':
          onClose();
          break;
        default:
          return false;
      }
      event.preventDefault();
      return true;
    };
    onStateChange(
      candidates.length > 0
        ? { open: true, activeId: current ? optionId(current) : undefined, onKey }
        : { open: false },
    );
    // optionId reads only `id`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [candidates, current, index, id, onPick, onClose, onStateChange]);

  useLayoutEffect(() => () => onStateChange({ open: false }), [onStateChange]);

  // Keep the active option in view when the arrows reach one below the dialog's or page's fold.
  useEffect(() => {
    if (current) document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  return (
    <>
      <Status role="status">
        {candidates.length > 0
          ? `${candidates.length} ${candidates.length === 1 ? 'member' : 'members'} to mention`
          : ''}
      </Status>
      {candidates.length > 0 && (
        <List id={id} role="listbox" aria-label="Members to mention">
          {candidates.map((candidate) => (
            <Option
              key={candidate.id}
              id={optionId(candidate)}
              role="option"
              aria-selected={candidate === current}
              // The field keeps the focus (and its caret) through a click or a tap.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(candidate)}
            >
              <Avatar name={candidate.name} src={candidate.avatarUrl} size={28} />
              <span dir="auto">{candidate.name}</span>
              <span className="handle">{handleFromEmail(candidate.email)}</span>
              {candidate.isFollowing && <small>Following</small>}
            </Option>
          ))}
        </List>
      )}
    </>
  );
}
