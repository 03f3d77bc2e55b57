import { useLayoutEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import type { TextMention } from '@campus/contracts';
import { Linkified } from '@campus/kit/text';

/** Spec §9: post text is clamped to 5 lines. */
export const POST_CLAMP_LINES = 5;

const Text = styled.p<{ $clamped: boolean }>`
  margin: 0;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  ${({ $clamped }) =>
    $clamped &&
    `
    display: -webkit-box;
    -webkit-line-clamp: ${POST_CLAMP_LINES};
    -webkit-box-orient: vertical;
    overflow: hidden;
  `}
`;

const Toggle = styled.button`
  justify-self: start;
  padding: 0;
  border: 0;
  background: none;
  font: inherit;
  font-size: 0.875rem;
  font-weight: 600;
  color: ${({ theme }) => theme.colors.primary};
  cursor: pointer;
`;

/**
 * Text clamped to 5 lines with 'Show more' only when it really overflows (measured after layout
 * and again whenever the box is resized). The clamp draws the one ellipsis: nothing inside adds
 * another (links are never shortened with '…', long ones wrap instead). Post text: its #tags
 * and @mentions are links (issue 40).
 */
export function ClampedText({
  text,
  mentions,
}: {
  text: string;
  /** Its @mentions: links to the members (its #tags are always links, issue 40). */
  mentions?: readonly TextMention[];
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);

  useLayoutEffect(() => {
    const node = ref.current;
    if (!node || expanded) return;
    const measure = () => setOverflows(node.scrollHeight > node.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [text, expanded]);

  return (
    <>
      <Text ref={ref} dir="auto" $clamped={!expanded}>
        <Linkified text={text} mentions={mentions} tags />
      </Text>
      {(overflows || expanded) && (
        <Toggle
          type="button"
          aria-expanded={expanded}
          onClick={(event) => {
            event.stopPropagation();
            setExpanded((value) => !value);
          }}
        >
          {expanded ? 'Show less' : 'Show more'}
        </Toggle>
      )}
    </>
  );
}
