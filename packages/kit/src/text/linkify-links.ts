// linkifyjs's tokenizer (about 10 KiB gzip): fetched by linkified-text.tsx only for a text that
// can hold a web address.
import { find, type Opts } from 'linkifyjs';
import { USER_LINK_REL } from './link-rel';
import type { FoundLink } from './text-entities';

/** Only web addresses become links (not e-mail addresses or other schemes members type). */
export const LINK_OPTIONS: Opts = {
  defaultProtocol: 'https',
  target: '_blank',
  rel: USER_LINK_REL,
  validate: (value, type) => type === 'url' && !/^(?!https?:)[a-z][a-z0-9+.-]*:/i.test(value),
};

/** The web addresses of a text (linkifyjs finds them), with the address each leads to. */
export function findLinks(text: string): FoundLink[] {
  return find(text, 'url', LINK_OPTIONS).map(({ start, end, href }) => ({ start, end, href }));
}
