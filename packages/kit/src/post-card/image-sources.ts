import type { MediaVariant, PostImage } from '@campus/contracts';
import { resolveApiUrl } from '@campus/kit/api';
import { mediaMobile } from '@campus/kit/theme';
import { thumbHashToAverageRGBA, thumbHashToDataURL } from 'thumbhash';

/**
 * A post's images (issue 39), or none: `images` is absent on a post without any. Reads any
 * record that may carry them (a post, the original of a quote, possibly null once deleted, a
 * reported post in the admin's queue).
 */
export function imagesOf(
  owner: { images?: readonly PostImage[] } | null | undefined,
): readonly PostImage[] {
  return owner?.images ?? [];
}

/** A `srcset` of one format's variants, smallest first (`url 400w, url 1200w`). */
function srcSetOf(variants: readonly MediaVariant[]): string {
  return [...variants]
    .sort((a, b) => a.width - b.width)
    .map((variant) => `${resolveApiUrl(variant.url)} ${variant.width}w`)
    .join(', ');
}

export interface ImageSources {
  /** AVIF variants, where the API stored any (it does where AVIF came out smaller). */
  avif: string;
  webp: string;
  /** The `src` of a browser that reads no `srcset`: the smallest WebP. */
  src: string;
}

/** The `<picture>` sources of an image: AVIF first where there is one, then WebP. */
export function sourcesOf(image: Pick<PostImage, 'variants'>): ImageSources {
  const avif = image.variants.filter((variant) => variant.type === 'image/avif');
  const webp = image.variants.filter((variant) => variant.type === 'image/webp');
  const fallback = [...(webp.length > 0 ? webp : image.variants)].sort(
    (a, b) => a.width - b.width,
  )[0];
  return {
    avif: srcSetOf(avif),
    webp: srcSetOf(webp),
    src: fallback ? resolveApiUrl(fallback.url) : '',
  };
}

/**
 * The width an image of the grid is drawn at, for `sizes`: the card's text column (the page's
 * 680 px column less the card's padding and the avatar: 594 px; the viewport less 84 px on a
 * phone), or half of it for a cell beside another.
 */
export function gridSizes(count: number): string {
  const phone = mediaMobile.replace(/^@media\s+/, '');
  return count === 1 ? `${phone} calc(100vw - 84px), 594px` : `${phone} calc(50vw - 44px), 296px`;
}

/** A single image keeps its own shape, between 4:5 (portrait) and 2:1 (panorama). */
const MIN_RATIO = 4 / 5;
const MAX_RATIO = 2;

/**
 * The grid's shape (width / height), from the stored dimensions, so its room is kept before any
 * image arrives: one image its own (clamped), two side by side 2:1... three or four 3:2.
 */
export function gridRatio(images: readonly Pick<PostImage, 'width' | 'height'>[]): number {
  if (images.length === 1) {
    const [{ width, height }] = images as [Pick<PostImage, 'width' | 'height'>];
    return Math.min(MAX_RATIO, Math.max(MIN_RATIO, width / height));
  }
  return images.length === 2 ? 2 : 3 / 2;
}

const placeholders = new Map<string, string>();
const colours = new Map<string, string>();

/** A ThumbHash's bytes, or null when the string is not one. */
function hashBytes(hash: string): Uint8Array | null {
  try {
    const bytes = Uint8Array.from(atob(hash), (char) => char.charCodeAt(0));
    return bytes.length >= 5 ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * The average colour of a ThumbHash as a CSS colour ('' when the hash is not one): what an
 * image's box is painted with before the ThumbHash picture is decoded (a few operations, where
 * decoding the picture to a PNG costs milliseconds of the main thread per image).
 */
export function placeholderColor(hash: string): string {
  let colour = colours.get(hash);
  if (colour === undefined) {
    const bytes = hashBytes(hash);
    if (bytes) {
      const { r, g, b, a } = thumbHashToAverageRGBA(bytes);
      const channel = (value: number) => Math.round(value * 255);
      colour = `rgb(${channel(r)} ${channel(g)} ${channel(b)} / ${a.toFixed(2)})`;
    } else {
      colour = '';
    }
    colours.set(hash, colour);
  }
  return colour;
}

/**
 * The ThumbHash painted until an image arrives, as a PNG data URL (decoded once per hash);
 * '' when the hash is not one.
 */
export function placeholderUrl(hash: string): string {
  let url = placeholders.get(hash);
  if (url === undefined) {
    const bytes = hashBytes(hash);
    url = bytes ? thumbHashToDataURL(bytes) : '';
    placeholders.set(hash, url);
  }
  return url;
}
