import { useEffect, useState, type ElementType, type HTMLAttributes, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { TextMention } from '@campus/contracts';
import { USER_LINK_REL } from './link-rel';
import { mentionPath, tagPath, textSegments, type FoundLink } from './text-entities';

export { USER_LINK_REL } from './link-rel';

/**
 * Whether linkifyjs could find a web address in the text. Every address it accepts has a dot
 * between two characters that are neither spaces nor dots (`campus.edu`), an `http:`/`https:`
 * scheme, or is `localhost`; a text without any of them is shown as it is, without fetching the
 * tokenizer. (A superset: `e.g.` or `3.5` also fetch it, and linkifyjs then finds nothing.)
 */
export function mayContainLink(text: string): boolean {
  return /[^\s.]\.[^\s.]|https?:|localhost/i.test(text);
}

type FindLinks = (text: string) => FoundLink[];

let loadedFinder: FindLinks | null = null;
let loading: Promise<FindLinks> | null = null;

/** linkify-links.ts, fetched once; a failed fetch is tried again by the next text that needs it. */
function loadFinder(): Promise<FindLinks> {
  loading ??= import('./linkify-links').then(
    (module) => (loadedFinder = module.findLinks),
    (failure: unknown) => {
      loading = null;
      throw failure;
    },
  );
  return loading;
}

/** What of a member's text is linked besides web addresses (issue 40). */
export interface TextEntitiesProps {
  /** The text's @mentions as the API answers them: each links to the member's profile. */
  mentions?: readonly TextMention[];
  /** Link its #tags to their pages (posts, quotes and comments; not bios). */
  tags?: boolean;
}

/**
 * The text with its web addresses, and with `tags` / `mentions` its #tags and @mentions, as
 * links, and nothing around it: for an element that already has its own styles (put
 * `dir="auto"` on that element). A #tag links to `/tags/<tag>` (contracts' `tagsInText`, the
 * tags the API stores) and a mention to `/profile/<id>` in the app; web addresses open in a new
 * tab. The addresses are found by linkifyjs, which is fetched the first time a text may hold one;
 * until it is there (or if it cannot be fetched) they show as plain text, so nothing moves when
 * the links appear.
 */
export function Linkified({ text, mentions, tags = false }: { text: string } & TextEntitiesProps) {
  const needed = mayContainLink(text);
  const [findLinks, setFindLinks] = useState<FindLinks | null>(() => loadedFinder);

  useEffect(() => {
    if (!needed || findLinks) return;
    let current = true;
    loadFinder().then(
      (loaded) => {
        if (current) setFindLinks(() => loaded);
      },
      () => {
        // The text stays plain; the next text that needs the links tries again.
      },
    );
    return () => {
      current = false;
    };
  }, [needed, findLinks]);

  const links = needed && findLinks ? findLinks(text) : [];
  if (links.length === 0 && !mentions?.length && !(tags && text.includes('#'))) return <>{text}</>;
  return <>{textSegments(text, { mentions, tags, links }).map(renderSegment)}</>;
}

/** A mention or tag link isolates its own direction (an Arabic name in English text). */
function renderSegment(segment: ReturnType<typeof textSegments>[number], index: number): ReactNode {
  switch (segment.kind) {
    case 'text':
      return segment.text;
    case 'url':
      return (
        <a key={index} href={segment.href} target="_blank" rel={USER_LINK_REL}>
          {segment.text}
        </a>
      );
    case 'mention':
      return (
        <Link key={index} to={mentionPath(segment.id)} dir="auto" data-mention={segment.id}>
          {segment.text}
        </Link>
      );
    case 'tag':
      return (
        <Link key={index} to={tagPath(segment.tag)} dir="auto" data-tag={segment.tag}>
          {segment.text}
        </Link>
      );
  }
}

export interface UserTextProps extends HTMLAttributes<HTMLElement>, TextEntitiesProps {
  /** The member's text (a post, a comment, a bio): rendered as text, web addresses as links. */
  text: string;
  /** The element that holds it (default `p`). */
  as?: ElementType;
}

/**
 * Text a member wrote. Its direction follows its own first strong character (`dir="auto"`), so
 * Arabic and Hebrew read right to left beside English; web addresses in it are links that open
 * in a new tab (linkifyjs finds them: a tokenizer that knows the top-level domains, not a regex);
 * with `tags` and `mentions`, its #tags and @mentions link to their pages (issue 40).
 */
export function UserText({ text, mentions, tags, as: Element = 'p', ...rest }: UserTextProps) {
  return (
    <Element dir="auto" {...rest}>
      <Linkified text={text} mentions={mentions} tags={tags} />
    </Element>
  );
}
