import type { MediaUploadResponse, MediaVariant, PostImage } from '@campus/contracts';
import { MEDIA_PATH_PREFIX } from '../../platform/media-store';
import type { MediaDoc, MediaVariantDoc } from './model';

/**
 * An image as a post keeps it (a copy made when it was attached: a feed page reads no other
 * collection for its images). The URLs are made on the way out, on `PUBLIC_URL`.
 */
export interface StoredImage {
  /** The upload's id. */
  id: string;
  alt: string;
  width: number;
  height: number;
  placeholder: string;
  variants: Array<Pick<MediaVariantDoc, 'name' | 'width' | 'height' | 'type'>>;
}

const toVariant = (
  v: Pick<MediaVariantDoc, 'name' | 'width' | 'height' | 'type'>,
  publicUrl: string,
): MediaVariant => ({
  url: `${publicUrl}${MEDIA_PATH_PREFIX}${v.name}`,
  width: v.width,
  height: v.height,
  type: v.type,
});

/** A post's stored images as the client sees them. */
export function toPostImages(images: readonly StoredImage[], publicUrl: string): PostImage[] {
  return images.map((image) => ({
    id: image.id,
    alt: image.alt,
    width: image.width,
    height: image.height,
    placeholder: image.placeholder,
    variants: image.variants.map((v) => toVariant(v, publicUrl)),
  }));
}

/** `POST /api/media`'s answer. */
export function toUploadResponse(doc: MediaDoc, publicUrl: string): MediaUploadResponse {
  return {
    id: doc._id,
    width: doc.width,
    height: doc.height,
    placeholder: doc.placeholder,
    variants: doc.variants.map((v) => toVariant(v, publicUrl)),
    expiresAt: (doc.expiresAt ?? doc.createdAt).toISOString(),
  };
}

/** What a post keeps of an upload it attaches, with its alt text. */
export function toStoredImage(doc: MediaDoc, alt: string): StoredImage {
  return {
    id: doc._id,
    alt,
    width: doc.width,
    height: doc.height,
    placeholder: doc.placeholder,
    variants: doc.variants.map(({ name, width, height, type }) => ({ name, width, height, type })),
  };
}
