import {
  useEffect,
  useState,
  type ComponentType,
  type ElementType,
  type HTMLAttributes,
} from 'react';

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

type Links = ComponentType<{ text: string }>;

let loadedLinks: Links | null = null;
let loading: Promise<Links> | null = null;

/** linkify-links.tsx, fetched once; a failed fetch is tried again by the next text that needs it. */
function loadLinks(): Promise<Links> {
  loading ??= import('./linkify-links').then(
    (module) => (loadedLinks = module.LinkifiedLinks),
    (failure: unknown) => {
      loading = null;
      throw failure;
    },
  );
  return loading;
}

/**
 * The text with its web addresses as links, and nothing around it: for an element that already
 * has its own styles (put `dir="auto"` on that element). The links are found by linkifyjs, which
 * is fetched the first time a text may hold one; until it is there (or if it cannot be fetched)
 * the same characters are shown as plain text, so nothing moves when the links appear.
 */
export function Linkified({ text }: { text: string }) {
  const needed = mayContainLink(text);
  const [Links, setLinks] = useState<Links | null>(() => loadedLinks);

  useEffect(() => {
    if (!needed || Links) return;
    let current = true;
    loadLinks().then(
      (loaded) => {
        if (current) setLinks(() => loaded);
      },
      () => {
        // The text stays plain; the next text that needs the links tries again.
      },
    );
    return () => {
      current = false;
    };
  }, [needed, Links]);

  return needed && Links ? <Links text={text} /> : <>{text}</>;
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
