import { lazy, Suspense } from 'react';
import type { ImageAttachmentsProps } from './image-attachments';

const Loaded = lazy(() => import('./image-attachments'));

/** As tall as the attachments' toolbar, so nothing below moves when it arrives. */
const placeholder = <div style={{ minHeight: 42 }} aria-busy="true" />;

/**
 * The composer's images (image-attachments.tsx), fetched the first time a composer shows them:
 * a page's first load carries none of it.
 */
export function ImageAttachments(props: ImageAttachmentsProps) {
  return (
    <Suspense fallback={placeholder}>
      <Loaded {...props} />
    </Suspense>
  );
}
