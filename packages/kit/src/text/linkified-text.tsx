import Linkify from 'linkify-react';
import type { Opts } from 'linkifyjs';
import type { ElementType, HTMLAttributes } from 'react';

/**
 * What a link in members' text carries: it opens in a new tab that cannot reach back to Campus
 * (`noopener`), passes no reputation (`nofollow`) and is marked as user-generated (`ugc`).
 */
export const USER_LINK_REL = 'noopener nofollow ugc';

/** Only web addresses become links (not e-mail addresses or other schemes members type). */
const OPTIONS: Opts = {
  defaultProtocol: 'https',
  target: '_blank',
  rel: USER_LINK_REL,
  validate: (value, type) => type === 'url' && !/^(?!https?:)[a-z][a-z0-9+.-]*:/i.test(value),
};

/**
 * The text with its web addresses as links, and nothing around it: for an element that already
 * has its own styles (put `dir="auto"` on that element).
 */
export function Linkified({ text }: { text: string }) {
  return <Linkify options={OPTIONS}>{text}</Linkify>;
}

export interface UserTextProps extends HTMLAttributes<HTMLElement> {
  /** The member's text (a post, a comment, a bio): rendered as text, web addresses as links. */
  text: string;
  /** The element that holds it (default `p`). */
  as?: ElementType;
}

/**
 * Text a member wrote. Its direction follows its own first strong character (`dir="auto"`), so
 * Arabic and Hebrew read right to left beside English; web addresses in it are links that open
 * in a new tab (linkifyjs finds them: a tokenizer that knows the top-level domains, not a regex).
 */
export function UserText({ text, as: Element = 'p', ...rest }: UserTextProps) {
  return (
    <Element dir="auto" {...rest}>
      <Linkified text={text} />
    </Element>
  );
}
