import { useCallback, useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import styled from 'styled-components';
import type { PostImage } from '@campus/contracts';
import { Dialog } from '@campus/kit/ui';
import { ImagePicture } from './image-picture';

export interface ImageViewerProps {
  images: readonly PostImage[];
  /** The image it opens on. */
  start: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

const Stage = styled.div`
  position: relative;
  flex: 1;
  min-height: 0;
  overflow: hidden;
  /* The viewer does its own swipe, pinch and pan: the page must neither scroll nor zoom. */
  touch-action: none;
  user-select: none;

  picture {
    display: flex;
    align-items: center;
    justify-content: center;
    width: 100%;
    height: 100%;
    transform-origin: center;
  }
  img {
    max-width: 100%;
    max-height: 100%;
    width: auto;
    height: auto;
    object-fit: contain;
    -webkit-user-drag: none;
  }
`;

const Bar = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(3)};
`;

const Control = styled.button`
  min-width: 44px;
  min-height: 44px;
  padding: 0 ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.media.controlBorder};
  border-radius: ${({ theme }) => theme.radius.full};
  background: ${({ theme }) => theme.media.controlBackground};
  color: ${({ theme }) => theme.media.text};
  font: inherit;
  font-weight: 700;
  cursor: pointer;

  &:disabled {
    opacity: 0.35;
    cursor: default;
  }
  &[aria-expanded='true'] {
    background: ${({ theme }) => theme.media.text};
    color: ${({ theme }) => theme.media.controlActiveText};
  }
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.media.focus};
    outline-offset: 2px;
  }
`;

const AltText = styled.p`
  max-height: 30vh;
  margin: 0 auto;
  padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
  max-width: 680px;
  overflow: auto;
  white-space: pre-wrap;
  overflow-wrap: anywhere;
  font-size: 0.9375rem;
`;

/** A horizontal move longer than this (px) and mostly sideways is a swipe to the next image. */
const SWIPE_PX = 50;
const MAX_ZOOM = 4;

interface View {
  scale: number;
  x: number;
  y: number;
}

const AT_REST: View = { scale: 1, x: 0, y: 0 };

const distance = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Swipe between images, pinch to zoom (1 to 4×) and drag to pan a zoomed image, with pointer
 * events (touch, pen and mouse alike). Zoom and pan start again on each image.
 */
function useGestures(onSwipe: (direction: -1 | 1) => void) {
  const [view, setView] = useState<View>(AT_REST);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    start: { x: number; y: number };
    view: View;
    pinch?: { distance: number; scale: number };
  } | null>(null);

  const begin = (current: View) => {
    const points = [...pointers.current.values()];
    const [first, second] = points;
    if (!first) {
      gesture.current = null;
      return;
    }
    gesture.current = {
      start: first,
      view: current,
      pinch: second ? { distance: distance(first, second), scale: current.scale } : undefined,
    };
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    event.currentTarget.setPointerCapture?.(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    begin(view);
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const { start, view: from, pinch } = gesture.current;
    const [first, second] = [...pointers.current.values()];
    if (pinch && first && second && pinch.distance > 0) {
      const scale = Math.min(
        MAX_ZOOM,
        Math.max(1, (pinch.scale * distance(first, second)) / pinch.distance),
      );
      setView(scale === 1 ? AT_REST : { ...from, scale });
    } else if (from.scale > 1 && first) {
      setView({ ...from, x: from.x + first.x - start.x, y: from.y + first.y - start.y });
    }
  };

  const onPointerEnd = (event: PointerEvent<HTMLElement>) => {
    const point = pointers.current.get(event.pointerId);
    if (!point) return;
    pointers.current.delete(event.pointerId);
    const current = gesture.current;
    if (current && !current.pinch && current.view.scale === 1 && pointers.current.size === 0) {
      const dx = event.clientX - current.start.x;
      const dy = event.clientY - current.start.y;
      if (Math.abs(dx) > SWIPE_PX && Math.abs(dx) > Math.abs(dy)) onSwipe(dx < 0 ? 1 : -1);
    }
    begin(view);
  };

  const reset = useCallback(() => setView(AT_REST), []);

  return {
    view,
    reset,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: onPointerEnd,
      onPointerCancel: onPointerEnd,
    },
  };
}

/**
 * The full-screen viewer of a post's images (issue 39): Previous / Next buttons, the arrow keys
 * and a swipe move between them; Escape or Close leaves, and the grid gives the focus back to
 * the image that opened it; pinch zooms on a phone. An ALT button shows the image's alt text.
 * Apps reach it through `PostImages` (image-viewer.tsx fetches this code when first opened).
 */
export function ImageViewerPanel({ images, start, open, onOpenChange }: ImageViewerProps) {
  const [index, setIndex] = useState(start);
  const [showAlt, setShowAlt] = useState(false);
  const [openedAt, setOpenedAt] = useState<number | null>(open ? start : null);
  const altId = useId();
  const count = images.length;
  const go = (direction: -1 | 1) => {
    setIndex((current) => Math.min(count - 1, Math.max(0, current + direction)));
  };
  const gestures = useGestures(go);
  const { reset } = gestures;

  // Each opening starts on the image clicked, alt text folded (state adjusted while rendering).
  if (open && openedAt !== start) {
    setOpenedAt(start);
    setIndex(start);
    setShowAlt(false);
  } else if (!open && openedAt !== null) {
    setOpenedAt(null);
  }

  useEffect(() => reset(), [index, reset]);

  // At the first or last image its button is disabled: the focus moves to the other one.
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const [pressed, other] = index === 0 ? [previous, next] : [next, previous];
    const active = document.activeElement;
    if (pressed.current?.disabled && (active === pressed.current || active === document.body)) {
      other.current?.focus();
    }
  }, [index]);

  const latest = useRef(go);
  useEffect(() => {
    latest.current = go;
  });
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft') latest.current(-1);
      else if (event.key === 'ArrowRight') latest.current(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const image = images[Math.min(index, count - 1)];
  if (!image) return null;
  const { scale, x, y } = gestures.view;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={count === 1 ? 'Image' : `Image ${index + 1} of ${count}`}
      fullScreen
    >
      <Stage {...gestures.handlers} data-testid="image-viewer-stage">
        <ImagePicture
          key={image.id}
          image={image}
          sizes="100vw"
          loading="eager"
          high
          style={
            scale === 1 ? undefined : { transform: `translate(${x}px, ${y}px) scale(${scale})` }
          }
        />
      </Stage>
      <Bar>
        {count > 1 && (
          <Control
            ref={previous}
            type="button"
            aria-label="Previous image"
            disabled={index === 0}
            onClick={() => go(-1)}
          >
            ‹
          </Control>
        )}
        {image.alt && (
          <Control
            type="button"
            aria-expanded={showAlt}
            aria-controls={altId}
            title="Show the image's alt text"
            onClick={() => setShowAlt((shown) => !shown)}
          >
            ALT
          </Control>
        )}
        {count > 1 && (
          <Control
            ref={next}
            type="button"
            aria-label="Next image"
            disabled={index === count - 1}
            onClick={() => go(1)}
          >
            ›
          </Control>
        )}
      </Bar>
      {image.alt && (
        <AltText id={altId} hidden={!showAlt} dir="auto">
          {image.alt}
        </AltText>
      )}
    </Dialog>
  );
}
