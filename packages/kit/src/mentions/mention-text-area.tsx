import {
  forwardRef,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentProps,
  type ComponentType,
  type KeyboardEvent,
  type Ref,
} from 'react';
import styled from 'styled-components';
import type { MentionCandidate } from '@campus/contracts';
import { TextArea } from '@campus/kit/ui';
import {
  activeMention,
  insertMention,
  mentionIdsIn,
  type ActiveMention,
  type MentionPick,
} from './mention-query';
import type { MentionSuggestionsProps } from './mention-suggestions';

type Suggestions = ComponentType<MentionSuggestionsProps>;
let loadedSuggestions: Suggestions | null = null;
let loading: Promise<Suggestions> | null = null;

/** mention-suggestions.tsx, fetched the first time a member types '@'; tried again after a failure. */
function loadSuggestions(): Promise<Suggestions> {
  loading ??= import('./mention-suggestions').then(
    (module) => (loadedSuggestions = module.MentionSuggestions),
    (failure: unknown) => {
      loading = null;
      throw failure;
    },
  );
  return loading;
}

/** What the suggestions list tells the field: shown or not, the active option, its keys. */
export interface MentionListState {
  /** The list is shown with at least one member. */
  open: boolean;
  /** The id of the active option's element (`aria-activedescendant`). */
  activeId?: string;
  /** Handles a key of the field while the list is open; true when it used it. */
  onKey?: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
}

export type MentionTextAreaProps = Omit<ComponentProps<typeof TextArea>, 'value' | 'onChange'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** A member was picked in the list: keep them (`useMentionPicks().add`) for the call's `mentions`. */
  onMention: (pick: MentionPick) => void;
  /**
   * The most characters the call accepts (issue 41): a live "n/limit" counter under the field
   * and, over it, a warning. Unlike `maxLength`, the text is never cut, so a long paste stays
   * whole for the writer to shorten; the form disables its send button (`isOverLimit`).
   */
  limit?: number;
};

/** The text is longer than `limit` characters (counted as the counter and `maxLength` count). */
export function isOverLimit(text: string, limit: number): boolean {
  return text.length > limit;
}

/** What the writer reads under a field over its limit. */
export function overLimitText(length: number, limit: number): string {
  const over = length - limit;
  return over > 0 ? `${over} ${over === 1 ? 'character' : 'characters'} over the limit` : '';
}

const Counter = styled.p<{ $over: boolean }>`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
  margin: ${({ theme }) => theme.space(1)} 0 0;
  font-size: 0.8125rem;
  font-variant-numeric: tabular-nums;
  color: ${({ theme, $over }) => ($over ? theme.colors.danger : theme.colors.textMuted)};
  font-weight: ${({ $over }) => ($over ? 600 : 'inherit')};
`;

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === 'function') ref(value);
  else if (ref) (ref as { current: T | null }).current = value;
}

/**
 * A `TextArea` in which typing '@' suggests members to mention (issue 40): people the writer
 * follows first (the API orders them), found by name as they type on. The list is a listbox the
 * field points at (`aria-controls`, `aria-activedescendant`); ArrowDown / ArrowUp move in it,
 * Enter or Tab picks, Escape closes it (not the dialog around it), a click or a tap picks.
 * Picking puts '@Name ' in the text and calls `onMention`. The list's code and its requests
 * (debounced) come the first time a member types '@'.
 */
export const MentionTextArea = forwardRef<HTMLTextAreaElement, MentionTextAreaProps>(
  function MentionTextArea(
    { value, onValueChange, onMention, onKeyDown, onSelect, onBlur, limit, ...rest },
    ref,
  ) {
    const field = useRef<HTMLTextAreaElement | null>(null);
    const listId = useId();
    const counterId = useId();
    const over = limit !== undefined && isOverLimit(value, limit);
    const [typing, setTyping] = useState<ActiveMention | null>(null);
    // The '@' whose list was closed (Escape, or a member picked): it stays closed until another.
    const closedAt = useRef<number | null>(null);
    const [Suggestions, setSuggestions] = useState<Suggestions | null>(() => loadedSuggestions);
    const [list, setList] = useState<MentionListState>({ open: false });
    const caretAfterPick = useRef<number | null>(null);
    const setField = useCallback(
      (element: HTMLTextAreaElement | null) => {
        field.current = element;
        assignRef(ref, element);
      },
      [ref],
    );

    const track = useCallback((element: HTMLTextAreaElement) => {
      const { selectionStart, selectionEnd } = element;
      const found =
        selectionStart === selectionEnd ? activeMention(element.value, selectionStart) : null;
      if (found?.start !== closedAt.current) closedAt.current = null;
      setTyping(found && found.start !== closedAt.current ? found : null);
    }, []);

    useEffect(() => {
      if (!typing || Suggestions) return;
      let current = true;
      loadSuggestions().then(
        (loaded) => {
          if (current) setSuggestions(() => loaded);
        },
        () => {
          // No suggestions this time: the field works as a plain one; the next '@' tries again.
        },
      );
      return () => {
        current = false;
      };
    }, [typing, Suggestions]);

    // After a pick, the caret goes just after the inserted '@Name '.
    useLayoutEffect(() => {
      const caret = caretAfterPick.current;
      if (caret === null || !field.current) return;
      caretAfterPick.current = null;
      field.current.setSelectionRange(caret, caret);
    }, [value]);

    const pick = useCallback(
      (candidate: MentionCandidate) => {
        const element = field.current;
        if (!typing || !element) return;
        const next = insertMention(
          value,
          { start: typing.start, caret: typing.start + 1 + typing.query.length },
          candidate.name,
        );
        closedAt.current = typing.start;
        caretAfterPick.current = next.caret;
        setTyping(null);
        onValueChange(next.text);
        onMention({ id: candidate.id, name: candidate.name });
        element.focus();
      },
      [typing, value, onValueChange, onMention],
    );

    const close = useCallback(() => {
      if (typing) closedAt.current = typing.start;
      setTyping(null);
    }, [typing]);

    const open = Boolean(typing && Suggestions && list.open);
    return (
      <div>
        <TextArea
          {...rest}
          ref={setField}
          value={value}
          aria-autocomplete="list"
          aria-haspopup="listbox"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? list.activeId : undefined}
          data-kit-popup-open={open ? '' : undefined}
          aria-describedby={limit !== undefined ? counterId : rest['aria-describedby']}
          aria-invalid={over ? true : rest['aria-invalid']}
          onChange={(event) => {
            onValueChange(event.target.value);
            track(event.target);
          }}
          onSelect={(event) => {
            track(event.currentTarget);
            onSelect?.(event);
          }}
          onKeyDown={(event) => {
            if (open && list.onKey?.(event)) return;
            onKeyDown?.(event);
          }}
          onBlur={(event) => {
            setTyping(null);
            onBlur?.(event);
          }}
        />
        {limit !== undefined && (
          <Counter id={counterId} $over={over}>
            {/* Announced when the text goes over the limit (or back under), not at every key. */}
            <span role="status">{overLimitText(value.length, limit)}</span>
            <span>
              {value.length}/{limit}
            </span>
          </Counter>
        )}
        {typing && Suggestions && (
          <Suggestions
            id={listId}
            query={typing.query}
            onPick={pick}
            onClose={close}
            onStateChange={setList}
          />
        )}
      </div>
    );
  },
);

const NO_PICKS: readonly MentionPick[] = [];

/**
 * The members picked in a field's autocomplete, for the writing call's `mentions`: `idsIn(text)`
 * is the ids whose '@Name' the text still holds (contracts' `mentionIdsSchema`). `initial`: the
 * members an edited text already mentions.
 */
export function useMentionPicks(initial: readonly MentionPick[] = NO_PICKS) {
  const [picks, setPicks] = useState<readonly MentionPick[]>(initial);
  const add = useCallback(
    (pick: MentionPick) =>
      setPicks((before) => (before.some((p) => p.id === pick.id) ? before : [...before, pick])),
    [],
  );
  const reset = useCallback(() => setPicks([]), []);
  const idsIn = useCallback((text: string) => mentionIdsIn(text, picks), [picks]);
  return { picks, add, reset, idsIn };
}
