import { z } from 'zod';

/**
 * Pictures in posts (issue 39). A member uploads each image on its own (`POST /api/media`,
 * multipart, one file in `image`), gets back its id and the stored variants, then attaches up to
 * `MEDIA_MAX_IMAGES` of them, each with its alt text, to a post or a quote (`images` of
 * `POST /api/posts` and `POST /api/posts/:id/repost`). An upload never attached expires after
 * `MEDIA_UNATTACHED_TTL_HOURS`.
 */
export const MEDIA_FIELD = 'image';
export const MEDIA_MAX_IMAGES = 4;
export const MEDIA_ALT_MAX_LENGTH = 1500;
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
export const MEDIA_MAX_PIXELS = 40_000_000;
export const MEDIA_UNATTACHED_TTL_HOURS = 24;
/** The types `POST /api/media` accepts, recognised by content (the name and MIME type are ignored). */
export const MEDIA_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

/** The MIME types of the stored variants: WebP always, AVIF where it came out smaller. */
export const mediaVariantTypeSchema = z.enum(['image/webp', 'image/avif']);

/** One stored rendition of an image: a content-addressed, immutable URL served by the API. */
export const mediaVariantSchema = z.object({
  url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  type: mediaVariantTypeSchema,
});
export type MediaVariant = z.infer<typeof mediaVariantSchema>;

const mediaFields = {
  /** The upload's id: what `images[].id` of a post names. */
  id: z.string(),
  /** Of the largest stored variant (the original capped at 2,048 px, EXIF-rotated). */
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** A ThumbHash (base64) painted until the image arrives. */
  placeholder: z.string(),
  /** ~400 px (feed), ~1,200 px (viewer), ≤ 2,048 px (original), each in WebP and maybe AVIF. */
  variants: z.array(mediaVariantSchema).min(1),
};

/** `POST /api/media` response (201). */
export const mediaUploadResponseSchema = z.object({
  ...mediaFields,
  /** When the upload is deleted unless a post attaches it first. */
  expiresAt: z.string(),
});
export type MediaUploadResponse = z.infer<typeof mediaUploadResponseSchema>;

/** An image as a post carries it. */
export const postImageSchema = z.object({ ...mediaFields, alt: z.string() });
export type PostImage = z.infer<typeof postImageSchema>;

/** One image to attach, in `images` of a post or quote payload. */
export const attachImageSchema = z.strictObject({
  id: z.string().min(1).max(100),
  alt: z
    .string()
    .trim()
    .max(MEDIA_ALT_MAX_LENGTH, `Alt text must be at most ${MEDIA_ALT_MAX_LENGTH} characters`)
    .default(''),
});
export type AttachImageRequest = z.input<typeof attachImageSchema>;

/** `images` of a post or quote payload: at most `MEDIA_MAX_IMAGES`, each upload once. */
export const attachImagesSchema = z
  .array(attachImageSchema)
  .max(MEDIA_MAX_IMAGES, `A post can have at most ${MEDIA_MAX_IMAGES} images`)
  .refine((images) => new Set(images.map((i) => i.id)).size === images.length, {
    message: 'The same image is attached twice',
  });
