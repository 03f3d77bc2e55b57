import { startTransition, useEffect, useState } from 'react';

/**
 * Whether the page has painted since the first post images were drawn (issue 39's "first post
 * visible"): until then a post's images are only their reserved, coloured boxes, so the posts'
 * first frame has none of the pictures' work in it (creating `<picture>` elements and choosing a
 * variant from `srcset`/`sizes`, the requests and their answers, decoding them, decoding the
 * ThumbHash placeholders) competing with it for the main thread and a phone's cores. Once true,
 * true for the rest of the page's life: images drawn later (the feed's later cards, another page)
 * come with their pictures at once.
 */
let painted = false;
let scheduled = false;
const listeners = new Set<() => void>();

function schedule(): void {
  if (painted || scheduled) return;
  scheduled = true;
  // The frame being prepared paints, then the task after it runs (the frame is on screen).
  requestAnimationFrame(() => {
    setTimeout(() => {
      painted = true;
      for (const listener of [...listeners]) listener();
    }, 0);
  });
}

/** Calls `listener` once the page has painted (at once if it has). */
function subscribe(listener: () => void): () => void {
  if (painted) {
    listener();
    return () => undefined;
  }
  listeners.add(listener);
  schedule();
  return () => listeners.delete(listener);
}

/**
 * False until the first frame with post images in it has painted; true from then on. The change
 * to true draws the pictures in a transition: the cards of a whole feed page taking their
 * pictures at once are drawn in slices that let the page answer input between them.
 */
export function usePaintedOnce(): boolean {
  const [value, setValue] = useState(painted);
  useEffect(() => {
    if (value) return;
    return subscribe(() => startTransition(() => setValue(true)));
  }, [value]);
  return value;
}
