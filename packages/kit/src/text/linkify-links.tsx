// linkify-react and its tokenizer (about 10 KiB gzip): fetched by linkified-text.tsx only for a
// text that can hold a web address.
import Linkify from 'linkify-react';
import type { Opts } from 'linkifyjs';
import { USER_LINK_REL } from './link-rel';

/** Only web addresses become links (not e-mail addresses or other schemes members type). */
export const LINK_OPTIONS: Opts = {
  defaultProtocol: 'https',
  target: '_blank',
  rel: USER_LINK_REL,
  validate: (value, type) => type === 'url' && !/^(?!https?:)[a-z][a-z0-9+.-]*:/i.test(value),
};

/** The text with its web addresses as links (linkifyjs finds them). */
export function LinkifiedLinks({ text }: { text: string }) {
  return <Linkify options={LINK_OPTIONS}>{text}</Linkify>;
}
