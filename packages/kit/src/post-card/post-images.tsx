import { useRef, useState } from 'react';
import styled from 'styled-components';
import type { PostImage } from '@campus/contracts';
import { ImagePicture } from './image-picture';
import { usePaintedOnce } from './first-paint';
import { gridRatio, gridSizes, placeholderColor, placeholderUrl } from './image-sources';
import { ImageViewer } from './image-viewer';

const Grid = styled.div<{ $count: number }>`
  position: relative;
  display: grid;
  grid-template-columns: ${({ $count }) => ($count === 1 ? '1fr' : '1fr 1fr')};
  grid-template-rows: ${({ $count }) => ($count > 2 ? '1fr 1fr' : '1fr')};
  gap: 2px;
  width: 100%;
  overflow: hidden;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surfaceMuted};

  /* Three images: the first fills the left column. */
  > :first-child:nth-last-child(3) {
    grid-row: span 2;
  }
`;

const Cell = styled.button`
  position: relative;
  display: block;
  min-width: 0;
  min-height: 0;
  padding: 0;
  border: 0;
  background-color: transparent;
  background-size: cover;
  background-position: center;
  cursor: zoom-in;

  picture,
  img {
    display: block;
    width: 100%;
    height: 100%;
  }
  img {
    object-fit: cover;
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -3px;
  }
`;

const Still = styled.div`
  min-width: 0;
  min-height: 0;
  background-size: cover;
  background-position: center;
`;

const AltMark = styled.span`
  position: absolute;
  left: 6px;
  bottom: 6px;
  padding: 1px 5px;
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.media.scrim};
  color: ${({ theme }) => theme.media.text};
  font-size: 0.6875rem;
  font-weight: 700;
  letter-spacing: 0.04em;
`;

const Reveal = styled.button`
  position: absolute;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
  border: 0;
  background: ${({ theme }) => theme.media.veil};
  color: ${({ theme }) => theme.media.text};
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  backdrop-filter: blur(24px);

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.colors.focus};
    outline-offset: -3px;
  }
`;

export interface PostImagesProps {
  images: readonly PostImage[];
  /**
   * The first post of a page: its images load at once, the first with high priority (it is the
   * page's largest paint); every other post's load lazily, as they near the viewport.
   */
  priority?: boolean;
  /**
   * A reported post in the admin's queue: only the blurred placeholders until the admin clicks
   * to show the images (nothing of them is fetched before).
   */
  hidden?: boolean;
}

/**
 * An image's box before its picture arrives: the ThumbHash's average colour at once, and the
 * ThumbHash's picture (decoded to a PNG data URL) once `decoded` (see PostImages).
 */
const backgroundOf = (image: PostImage, decoded: boolean) => {
  const url = decoded ? placeholderUrl(image.placeholder) : '';
  const colour = placeholderColor(image.placeholder);
  if (!url && !colour) return undefined;
  return {
    ...(colour ? { backgroundColor: colour } : {}),
    ...(url ? { backgroundImage: `url("${url}")` } : {}),
  };
};

/**
 * The images of a post (issue 39): one to four in a grid whose shape comes from the stored
 * dimensions (nothing moves when they arrive), each painted with its ThumbHash until it loads,
 * in a `<picture>` whose `srcset` and `sizes` let the browser pick the variant (AVIF where
 * there is one, else WebP). Each opens the full-screen viewer; focus comes back to it after.
 *
 * Until the page has first painted with post images in it (usePaintedOnce), the images of every
 * post but the `priority` one are only their boxes in the ThumbHash's average colour: the posts
 * show first, then their pictures (the boxes keep their size, so nothing moves). On a feed page
 * the pictures' work (their elements, choosing and fetching the variants, decoding them and
 * the ThumbHash placeholders) would otherwise run on the same cores as the posts' first frame and
 * delay it (issue 39's "first post visible").
 */
export function PostImages({ images, priority = false, hidden = false }: PostImagesProps) {
  const painted = usePaintedOnce();
  const drawn = painted || priority;
  const [viewing, setViewing] = useState<number | null>(null);
  const [revealed, setRevealed] = useState(!hidden);
  const cells = useRef<(HTMLButtonElement | null)[]>([]);
  const opener = useRef<number | null>(null);
  if (images.length === 0) return null;
  const count = images.length;
  const sizes = gridSizes(count);

  const close = (open: boolean) => {
    if (open) return;
    setViewing(null);
    // Back to the image that opened the viewer, whichever one the member ended on.
    const index = opener.current;
    if (index !== null) requestAnimationFrame(() => cells.current[index]?.focus());
  };

  return (
    <>
      <Grid
        $count={count}
        style={{ aspectRatio: gridRatio(images) }}
        role="group"
        aria-label={count === 1 ? 'Image' : `${count} images`}
      >
        {images.map((image, index) =>
          revealed ? (
            <Cell
              key={image.id}
              ref={(node) => {
                cells.current[index] = node;
              }}
              type="button"
              style={backgroundOf(image, drawn)}
              aria-label={`Open image ${index + 1} of ${count}${image.alt ? `: ${image.alt}` : ''}`}
              onClick={() => {
                opener.current = index;
                setViewing(index);
              }}
            >
              {drawn && (
                <ImagePicture
                  image={image}
                  sizes={sizes}
                  loading={priority ? 'eager' : 'lazy'}
                  high={priority && index === 0}
                />
              )}
              {image.alt && <AltMark aria-hidden="true">ALT</AltMark>}
            </Cell>
          ) : (
            <Still key={image.id} style={backgroundOf(image, drawn)} />
          ),
        )}
        {!revealed && (
          <Reveal type="button" onClick={() => setRevealed(true)}>
            {count === 1 ? 'Show the reported image' : `Show the ${count} reported images`}
          </Reveal>
        )}
      </Grid>
      <ImageViewer
        images={images}
        start={viewing ?? 0}
        open={viewing !== null}
        onOpenChange={close}
      />
    </>
  );
}
