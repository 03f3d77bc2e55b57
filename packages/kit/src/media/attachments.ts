import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  MEDIA_MAX_BYTES,
  MEDIA_MAX_IMAGES,
  type AttachImageRequest,
  type MediaUploadResponse,
} from '@campus/contracts';

/**
 * One image a member is attaching to a post or a quote. `queued` waits for `ImageAttachments`
 * to send it, `uploading` is on its way (`progress` 0 to 1), `uploaded` carries the API's
 * answer, `failed` says why and may be sent again (Retry).
 */
export interface ImageAttachment {
  /** This page's own key for the image (the upload's id exists only once uploaded). */
  key: string;
  file: File;
  /** An object URL of the file, for the preview (revoked when the image is removed). */
  previewUrl: string;
  status: 'queued' | 'uploading' | 'uploaded' | 'failed';
  progress: number;
  error?: string;
  media?: MediaUploadResponse;
  alt: string;
}

export type AttachmentsUpdate = (items: ImageAttachment[]) => ImageAttachment[];

export interface ImageAttachmentsState {
  items: readonly ImageAttachment[];
  /** Applies an update to the list (the uploads report their progress through it). */
  update: (change: AttachmentsUpdate) => void;
  /** Adds the images among `files` (at most 4 in all, each at most 10 MB); says why others were left out. */
  addFiles: (files: Iterable<File> | ArrayLike<File>) => void;
  /** Why the last files were not all added (shown in a polite live region), or ''. */
  notice: string;
  /** What the post or quote payload's `images` takes: the uploaded images, in order. */
  images: AttachImageRequest[];
  /** An image is still being sent: posting waits. */
  uploading: boolean;
  /** An image failed: the member retries or removes it before posting. */
  failed: boolean;
  /** Forgets every image (after the post was created). */
  reset: () => void;
}

let nextKey = 0;

const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** The notice for the files `addFiles` left out, or '' when it took them all. */
export function refusalNotice(refused: {
  tooMany: number;
  notImages: string[];
  tooLarge: string[];
}) {
  const parts: string[] = [];
  if (refused.notImages.length > 0) parts.push(`${refused.notImages.join(', ')}: not an image.`);
  if (refused.tooLarge.length > 0) {
    parts.push(`${refused.tooLarge.join(', ')}: larger than ${megabytes(MEDIA_MAX_BYTES)} MB.`);
  }
  if (refused.tooMany > 0) parts.push(`A post can have at most ${MEDIA_MAX_IMAGES} images.`);
  return parts.join(' ');
}

/**
 * The images of a composer (the post dialog, the quote box), kept by the composer so that they
 * survive its dialog closing; `ImageAttachments` draws them and sends each one. A failed upload
 * stays in the list (with Retry) and leaves the text and the other images alone.
 */
export function useImageAttachments(): ImageAttachmentsState {
  const [items, setItems] = useState<ImageAttachment[]>([]);
  const [notice, setNotice] = useState('');
  const current = useRef(items);
  useEffect(() => {
    current.current = items;
  });
  // The previews' object URLs go with the composer.
  useEffect(
    () => () => current.current.forEach((item) => URL.revokeObjectURL(item.previewUrl)),
    [],
  );

  const update = useCallback((change: AttachmentsUpdate) => setItems(change), []);

  const addFiles = useCallback((files: Iterable<File> | ArrayLike<File>) => {
    const refused = { tooMany: 0, notImages: [] as string[], tooLarge: [] as string[] };
    const accepted: File[] = [];
    for (const file of Array.from(files)) {
      if (!file.type.startsWith('image/')) refused.notImages.push(file.name);
      else if (file.size > MEDIA_MAX_BYTES) refused.tooLarge.push(file.name);
      else accepted.push(file);
    }
    const room = Math.max(0, MEDIA_MAX_IMAGES - current.current.length);
    refused.tooMany = Math.max(0, accepted.length - room);
    const added = accepted.slice(0, room).map((file): ImageAttachment => ({
      key: `image-${++nextKey}`,
      file,
      previewUrl: URL.createObjectURL(file),
      status: 'queued',
      progress: 0,
      alt: '',
    }));
    setNotice(refusalNotice(refused));
    if (added.length === 0) return;
    current.current = [...current.current, ...added];
    setItems((list) => [...list, ...added]);
  }, []);

  const reset = useCallback(() => {
    current.current.forEach((item) => URL.revokeObjectURL(item.previewUrl));
    current.current = [];
    setItems([]);
    setNotice('');
  }, []);

  return useMemo(() => {
    const images = items
      .filter((item) => item.status === 'uploaded' && item.media)
      .map((item) => ({ id: item.media!.id, alt: item.alt.trim() }));
    return {
      items,
      update,
      addFiles,
      notice,
      images,
      uploading: items.some((item) => item.status === 'queued' || item.status === 'uploading'),
      failed: items.some((item) => item.status === 'failed'),
      reset,
    };
  }, [items, notice, update, addFiles, reset]);
}

/** The image files among what was pasted or dropped (none when it is only text). */
export function imageFilesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  return Array.from(data.files).filter((file) => file.type.startsWith('image/'));
}
