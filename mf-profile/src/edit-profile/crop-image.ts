import type { PixelCrop } from 'react-image-crop';

/** Spec §5/§9: the cropped avatar is a square JPEG at quality 0.9. */
export const CROPPED_AVATAR_NAME = 'cropped-avatar.jpg';
export const CROPPED_AVATAR_TYPE = 'image/jpeg';
export const CROPPED_AVATAR_QUALITY = 0.9;

/**
 * Draws the selected part of `image` (a crop measured on the image as displayed) at the image's
 * own resolution and encodes it as the cropped-avatar JPEG file.
 */
export async function cropImage(image: HTMLImageElement, crop: PixelCrop): Promise<File> {
  if (!crop.width || !crop.height || !image.width || !image.height) {
    throw new Error('Nothing is selected');
  }
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(crop.width * scaleX));
  canvas.height = Math.max(1, Math.round(crop.height * scaleY));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  context.imageSmoothingQuality = 'high';
  context.drawImage(
    image,
    crop.x * scaleX,
    crop.y * scaleY,
    crop.width * scaleX,
    crop.height * scaleY,
    0,
    0,
    canvas.width,
    canvas.height,
  );
  const blob = await new Promise<Blob | null>((resolve) =>
    canvas.toBlob(resolve, CROPPED_AVATAR_TYPE, CROPPED_AVATAR_QUALITY),
  );
  if (!blob) throw new Error('The image could not be encoded');
  return new File([blob], CROPPED_AVATAR_NAME, { type: CROPPED_AVATAR_TYPE });
}
