// Pictures in posts (issue 39): the composer's images. The drawing and the uploads are fetched
// when a composer first shows them (lazy-image-attachments.tsx).
export { ImageAttachments } from './lazy-image-attachments';
export type { ImageAttachmentsProps } from './image-attachments';
export { useImageAttachments, imageFilesOf } from './attachments';
export type { ImageAttachment, ImageAttachmentsState } from './attachments';
export type { UploadImage, UploadImageOptions } from './upload-image';
