import { Dialog, lazyOnOpen } from '@campus/kit/ui';
import type { ImageViewerProps } from './image-viewer-panel';

export type { ImageViewerProps };

/**
 * The full-screen image viewer (image-viewer-panel.tsx), fetched the first time a member opens
 * an image, with the dialog's code in parallel.
 */
export const ImageViewer = lazyOnOpen<ImageViewerProps>(() =>
  Promise.all([import('./image-viewer-panel'), Dialog.preload()]).then(
    ([module]) => module.ImageViewerPanel,
  ),
);
