import { useState } from 'react';
import styled from 'styled-components';
import { resolveApiUrl } from '@campus/kit/api';

const Frame = styled.span<{ $size: number }>`
  display: inline-flex;
  flex: none;
  align-items: center;
  justify-content: center;
  width: ${({ $size }) => $size}px;
  height: ${({ $size }) => $size}px;
  border-radius: 50%;
  overflow: hidden;
  background: ${({ theme }) => theme.colors.surfaceMuted};
  color: ${({ theme }) => theme.colors.textMuted};
  font-weight: 600;
  font-size: ${({ $size }) => Math.max(10, Math.round($size * 0.4))}px;

  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return letters.map((part) => part?.[0]?.toUpperCase() ?? '').join('') || '?';
}

/** A round picture of a user; their initials when there is no picture or it fails to load. */
export function Avatar({
  name,
  src,
  size = 40,
}: {
  name: string;
  src?: string | null;
  size?: number;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const url = src ? resolveApiUrl(src) : null;
  const showImage = url !== null && failedSrc !== url;
  return (
    <Frame $size={size} aria-hidden={showImage ? undefined : true} data-testid="avatar">
      {showImage ? (
        <img src={url} alt={name} onError={() => setFailedSrc(url)} />
      ) : (
        <span>{initials(name)}</span>
      )}
    </Frame>
  );
}
