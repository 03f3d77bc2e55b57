import { useSyncExternalStore } from 'react';

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

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  schedule();
  return () => listeners.delete(listener);
}

const getSnapshot = () => painted;
const getServerSnapshot = () => false;

/** False until the first frame with post images in it has painted; true from then on. */
export function usePaintedOnce(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
