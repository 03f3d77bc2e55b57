import type { CSSProperties } from 'react';
import type { PostImage } from '@campus/contracts';
import { sourcesOf } from './image-sources';

/** One image as `<picture>`: AVIF variants first where there are any, then WebP. */
export function ImagePicture({
  image,
  sizes,
  loading,
  high = false,
  style,
}: {
  image: PostImage;
  sizes: string;
  loading: 'eager' | 'lazy';
  high?: boolean;
  style?: CSSProperties;
}) {
  const sources = sourcesOf(image);
  return (
    <picture style={style}>
      {sources.avif && <source type="image/avif" srcSet={sources.avif} sizes={sizes} />}
      {sources.webp && <source type="image/webp" srcSet={sources.webp} sizes={sizes} />}
      <img
        src={sources.src}
        alt={image.alt}
        width={image.width}
        height={image.height}
        loading={loading}
        decoding="async"
        fetchPriority={high ? 'high' : undefined}
      />
    </picture>
  );
}
