import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import styled from 'styled-components';
import { MEDIA_ALT_MAX_LENGTH, MEDIA_MAX_IMAGES } from '@campus/contracts';
import { Button, TextArea, useMediaQuery, visuallyHidden } from '@campus/kit/ui';
import type { ImageAttachment, ImageAttachmentsState } from './attachments';
import { uploadFailureText, uploadImage, type UploadImage } from './upload-image';

export interface ImageAttachmentsProps {
  /** The composer's images (`useImageAttachments()`). */
  attachments: ImageAttachmentsState;
  /** While the post is being sent. */
  disabled?: boolean;
  /** Replaces `POST /api/media` (tests). */
  upload?: UploadImage;
}

const Section = styled.section<{ $dragging: boolean }>`
  display: grid;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(2)};
  border: 1px dashed
    ${({ theme, $dragging }) => ($dragging ? theme.colors.primary : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme, $dragging }) => ($dragging ? theme.colors.surfaceMuted : 'transparent')};
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Notice = styled.p`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.danger};

  &:empty {
    display: none;
  }
`;

const List = styled.ol`
  display: grid;
  gap: ${({ theme }) => theme.space(3)};
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Item = styled.li`
  display: grid;
  grid-template-columns: 96px minmax(0, 1fr);
  gap: ${({ theme }) => theme.space(3)};
`;

const Preview = styled.div`
  position: relative;
  width: 96px;
  height: 96px;
  overflow: hidden;
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.colors.surfaceMuted};

  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  progress {
    position: absolute;
    left: 4px;
    right: 4px;
    bottom: 4px;
    width: calc(100% - 8px);
    height: 6px;
  }
`;

const Fields = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space(1.5)};
  min-width: 0;
`;

const Hint = styled.p<{ $tone?: 'danger' }>`
  margin: 0;
  font-size: 0.8125rem;
  color: ${({ theme, $tone }) => ($tone === 'danger' ? theme.colors.danger : theme.colors.textMuted)};
`;

const ItemActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(1.5)};
`;

/** The uploads under way, by attachment key: removing an image stops its upload. */
const inFlight = new Map<string, AbortController>();

function patch(key: string, change: Partial<ImageAttachment>) {
  return (items: ImageAttachment[]) =>
    items.map((item) => (item.key === key ? { ...item, ...change } : item));
}

/**
 * Sends every queued image, one request each, reporting progress into the composer's list. An
 * upload outlives this component (the dialog may close meanwhile): it reports to the composer,
 * which keeps the list.
 */
function useUploads({ items, update }: ImageAttachmentsState, upload: UploadImage) {
  useEffect(() => {
    for (const item of items) {
      if (item.status !== 'queued' || inFlight.has(item.key)) continue;
      const controller = new AbortController();
      inFlight.set(item.key, controller);
      update(patch(item.key, { status: 'uploading', progress: 0, error: undefined }));
      upload(item.file, {
        signal: controller.signal,
        onProgress: (progress) => update(patch(item.key, { progress })),
      })
        .then(
          (media) => update(patch(item.key, { status: 'uploaded', progress: 1, media })),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            update(patch(item.key, { status: 'failed', error: uploadFailureText(error) }));
          },
        )
        .finally(() => inFlight.delete(item.key));
    }
  }, [items, update, upload]);
}

/**
 * The images of a post or a quote (issue 39): pick them, drop them here, paste them into the
 * composer (it hands them to `attachments.addFiles`) or take one with the phone's camera; up to
 * four, each previewed with its upload's progress, an alt-text field (at most 1,500 characters,
 * with a reminder while it is empty), Move up / Move down and Remove. A failed upload says why
 * and offers Retry; the text and the other images stay.
 */
export default function ImageAttachments({
  attachments,
  disabled = false,
  upload = uploadImage,
}: ImageAttachmentsProps) {
  const { items, update, addFiles, notice } = attachments;
  useUploads(attachments, upload);
  const pick = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const [dragging, setDragging] = useState(false);
  // `capture` opens the camera on a phone; on a computer it would only be a second file picker.
  const touch = useMediaQuery('(pointer: coarse)');
  const full = items.length >= MEDIA_MAX_IMAGES;
  // After a move, the moved image's other button keeps the focus when the one pressed is disabled.
  const moved = useRef<{ key: string; direction: -1 | 1 } | null>(null);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const last = moved.current;
    if (!last) return;
    moved.current = null;
    const row = list.current?.querySelector(`[data-key="${last.key}"]`);
    const pressed = row?.querySelector<HTMLButtonElement>(`[data-move="${last.direction}"]`);
    const other = row?.querySelector<HTMLButtonElement>(`[data-move="${-last.direction}"]`);
    if (pressed?.disabled) other?.focus();
  }, [items]);

  const remove = (item: ImageAttachment) => {
    inFlight.get(item.key)?.abort();
    URL.revokeObjectURL(item.previewUrl);
    update((list) => list.filter((other) => other.key !== item.key));
  };

  const move = (item: ImageAttachment, direction: -1 | 1) => {
    update((list) => {
      const from = list.findIndex((other) => other.key === item.key);
      const to = from + direction;
      if (from < 0 || to < 0 || to >= list.length) return list;
      const next = [...list];
      [next[from], next[to]] = [next[to]!, next[from]!];
      return next;
    });
    moved.current = { key: item.key, direction };
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setDragging(false);
    if (!disabled) addFiles(event.dataTransfer.files);
  };

  const onFiles = (input: HTMLInputElement) => {
    if (input.files) addFiles(input.files);
    input.value = ''; // the same file may be picked again after a removal
  };

  return (
    <Section
      aria-labelledby={headingId}
      $dragging={dragging}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <Toolbar>
        <span id={headingId} style={visuallyHidden}>
          Images
        </span>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          disabled={disabled || full}
          onClick={() => pick.current?.click()}
        >
          Add images
        </Button>
        {touch && (
          <Button
            type="button"
            size="sm"
            variant="secondary"
            disabled={disabled || full}
            onClick={() => camera.current?.click()}
          >
            Take a photo
          </Button>
        )}
        <span>
          {items.length}/{MEDIA_MAX_IMAGES} · or drop or paste images here
        </span>
        <input
          ref={pick}
          type="file"
          accept="image/*"
          multiple
          tabIndex={-1}
          aria-label="Choose images"
          style={visuallyHidden}
          onChange={(event) => onFiles(event.currentTarget)}
        />
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          tabIndex={-1}
          aria-label="Take a photo"
          style={visuallyHidden}
          onChange={(event) => onFiles(event.currentTarget)}
        />
      </Toolbar>
      <Notice role="status">{notice}</Notice>
      {items.length > 0 && (
        <List ref={list} aria-label="Attached images">
          {items.map((item, index) => (
            <AttachmentRow
              key={item.key}
              item={item}
              number={index + 1}
              last={index === items.length - 1}
              disabled={disabled}
              onAlt={(alt) => update(patch(item.key, { alt }))}
              onRetry={() => update(patch(item.key, { status: 'queued', progress: 0 }))}
              onRemove={() => remove(item)}
              onMove={(direction) => move(item, direction)}
            />
          ))}
        </List>
      )}
    </Section>
  );
}

function AttachmentRow({
  item,
  number,
  last,
  disabled,
  onAlt,
  onRetry,
  onRemove,
  onMove,
}: {
  item: ImageAttachment;
  number: number;
  last: boolean;
  disabled: boolean;
  onAlt: (alt: string) => void;
  onRetry: () => void;
  onRemove: () => void;
  onMove: (direction: -1 | 1) => void;
}) {
  const name = `image ${number}`;
  const sending = item.status === 'queued' || item.status === 'uploading';
  const percent = Math.round(item.progress * 100);
  return (
    <Item data-key={item.key} aria-label={`Image ${number}: ${item.file.name}`}>
      <Preview>
        <img src={item.previewUrl} alt="" />
        {sending && (
          <progress max={100} value={percent} aria-label={`Uploading ${name}: ${percent}%`} />
        )}
      </Preview>
      <Fields>
        {item.status === 'failed' && (
          <Hint $tone="danger" role="alert">
            Upload failed: {item.error}
          </Hint>
        )}
        {sending && <Hint>Uploading… {percent}%</Hint>}
        <TextArea
          label={`Alt text for ${name}`}
          placeholder="Describe the image for people who cannot see it"
          rows={2}
          maxLength={MEDIA_ALT_MAX_LENGTH}
          value={item.alt}
          disabled={disabled}
          onChange={(event) => onAlt(event.target.value)}
        />
        {item.alt.trim() === '' && (
          <Hint>
            Adding alt text helps people who use a screen reader know what the image shows.
          </Hint>
        )}
        <ItemActions>
          {item.status === 'failed' && (
            <Button type="button" size="sm" disabled={disabled} onClick={onRetry}>
              Retry
            </Button>
          )}
          <Button
            type="button"
            size="sm"
            variant="ghost"
            data-move={-1}
            aria-label={`Move ${name} up`}
            disabled={disabled || number === 1}
            onClick={() => onMove(-1)}
          >
            Move up
          </Button>
          <Button
            type="button"
            size="sm"
            variant="ghost"
            data-move={1}
            aria-label={`Move ${name} down`}
            disabled={disabled || last}
            onClick={() => onMove(1)}
          >
            Move down
          </Button>
          <Button
            type="button"
            size="sm"
            variant="ghost"
            aria-label={`Remove ${name}`}
            disabled={disabled}
            onClick={onRemove}
          >
            Remove
          </Button>
        </ItemActions>
      </Fields>
    </Item>
  );
}
