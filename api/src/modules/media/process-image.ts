/**
 * What happens to an uploaded picture (issue 39), on a worker thread (image-pool.ts): recognised
 * by its content, refused when it is not an accepted image or too large, auto-rotated by its EXIF
 * orientation, then re-encoded from its pixels alone into variants (so EXIF, GPS, XMP, ICC
 * profiles, comments and anything appended to the file do not survive), with a ThumbHash
 * placeholder. This file never touches the database: it answers bytes and figures.
 */
import fs from 'node:fs/promises';
import sharp, { type OutputInfo } from 'sharp';

/** Formats recognised by content; GIF keeps its first frame. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif']);
/** The longest side of the largest variant ("the original"). */
export const LARGEST_SIDE = 2048;
/** The smaller variants' widths: the feed's thumbnails, the viewer. */
export const VARIANT_WIDTHS = [400, 1200] as const;
const THUMBHASH_SIDE = 100;

/**
 * Markup that makes a file a polyglot: an image that is also an HTML page, an SVG or a script to
 * a browser that sniffs it, or to anything that trusts its name. Such a file is refused, not
 * cleaned: whoever made it meant it to be read as something else.
 */
const MARKUP = /<(?:script|html|svg|iframe|body|object|embed|!doctype|\?php)[\s>/]/i;

export const NOT_AN_IMAGE = 'Only JPEG, PNG, WebP or GIF images are accepted';
export const POLYGLOT = 'The file is not only an image (it carries markup or script)';
export const TOO_MANY_PIXELS = 'Image dimensions are too large';

export interface ProcessImageTask {
  /** The uploaded file (a temporary file of the request's own), or the image itself. */
  source: { path: string } | { bytes: Uint8Array };
  maxPixels: number;
}

export interface ProcessedVariant {
  width: number;
  height: number;
  type: 'image/webp' | 'image/avif';
  data: Uint8Array;
}

export type ProcessImageResult =
  | {
      ok: true;
      /** Of the largest variant. */
      width: number;
      height: number;
      placeholder: string;
      /** Smallest first; each width in WebP, and in AVIF too where that came out smaller. */
      variants: ProcessedVariant[];
    }
  /** A refusal the API answers as it is (415, 413). */
  | { ok: false; status: 413 | 415; message: string };

const refuse = (status: 413 | 415, message: string): ProcessImageResult => ({
  ok: false,
  status,
  message,
});

/** The widths to store for an image `width` wide once capped: the smaller ones it exceeds, and itself. */
export function variantWidths(width: number): number[] {
  return [...VARIANT_WIDTHS.filter((w) => w < width * 0.9), width];
}

export async function processImage(task: ProcessImageTask): Promise<ProcessImageResult> {
  const input =
    'path' in task.source ? await fs.readFile(task.source.path) : Buffer.from(task.source.bytes);
  // The header only; the pixel limit is checked here so that it gets its own status.
  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    return refuse(415, NOT_AN_IMAGE);
  }
  const sourceWidth = metadata.width ?? 0;
  const sourceHeight = (metadata.pageHeight ?? metadata.height) || 0;
  if (sourceWidth === 0 || sourceHeight === 0) return refuse(415, NOT_AN_IMAGE);
  if (MARKUP.test(input.toString('latin1'))) return refuse(415, POLYGLOT);
  if (sourceWidth * sourceHeight > task.maxPixels) return refuse(413, TOO_MANY_PIXELS);

  let base: { data: Buffer; info: OutputInfo };
  try {
    // Decoded once (JPEG shrinks on load), rotated upright, capped, as raw sRGB pixels: nothing
    // of the file but its pixels goes further.
    base = await sharp(input, { limitInputPixels: task.maxPixels, failOn: 'error' })
      .rotate()
      .resize(LARGEST_SIDE, LARGEST_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return refuse(415, NOT_AN_IMAGE);
  }
  const { width, height, channels } = base.info;
  const raw = { raw: { width, height, channels } };

  const variants: ProcessedVariant[] = [];
  for (const targetWidth of variantWidths(width)) {
    const resized =
      targetWidth === width
        ? { data: base.data, info: base.info }
        : await sharp(base.data, raw)
            .resize(targetWidth, null)
            .raw()
            .toBuffer({ resolveWithObject: true });
    const pixels = () =>
      sharp(resized.data, {
        raw: {
          width: resized.info.width,
          height: resized.info.height,
          channels: resized.info.channels,
        },
      });
    const [webp, avif] = await Promise.all([
      pixels().webp({ quality: 80, effort: 2 }).toBuffer(),
      pixels().avif({ quality: 50, effort: 0 }).toBuffer(),
    ]);
    const size = { width: resized.info.width, height: resized.info.height };
    variants.push({ ...size, type: 'image/webp', data: webp });
    if (avif.length < webp.length) variants.push({ ...size, type: 'image/avif', data: avif });
  }
  return { ok: true, width, height, placeholder: await thumbHash(base.data, raw), variants };
}

/** The ThumbHash of the pixels (at most 100 px a side, as the algorithm asks), base64. */
async function thumbHash(
  pixels: Buffer,
  raw: { raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } },
): Promise<string> {
  const small = await sharp(pixels, raw)
    .resize(THUMBHASH_SIDE, THUMBHASH_SIDE, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // An ES module: imported, not required (this file runs as CommonJS).
  const { rgbaToThumbHash } = await import('thumbhash');
  const hash = rgbaToThumbHash(small.info.width, small.info.height, small.data);
  return Buffer.from(hash).toString('base64');
}
