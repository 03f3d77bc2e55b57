import { useId, useRef, useState, type SyntheticEvent } from 'react';
import ReactCrop, {
  centerCrop,
  convertToPixelCrop,
  makeAspectCrop,
  type Crop,
  type PixelCrop,
} from 'react-image-crop';
import styled from 'styled-components';
import { toast } from '@campus/kit/toast';
import { Button, Dialog } from '@campus/kit/ui';
import { cropImage } from './crop-image';
import { CropStyles } from './crop-styles';

/** Spec §2: square crop, starting at 90 % of the width, centred; preview at most 400 px high. */
export const CROP_ASPECT = 1;
export const INITIAL_CROP_WIDTH_PERCENT = 90;
export const PREVIEW_MAX_HEIGHT_PX = 400;

// Keyboard nudges of the selection: arrow keys move by 1 px, with Shift by 10, with Ctrl/Cmd by 100.
ReactCrop.nudgeStep = 1;
ReactCrop.nudgeStepMedium = 10;
ReactCrop.nudgeStepLarge = 100;

export function initialCrop(width: number, height: number): Crop {
  return centerCrop(
    makeAspectCrop({ unit: '%', width: INITIAL_CROP_WIDTH_PERCENT }, CROP_ASPECT, width, height),
    width,
    height,
  );
}

const Stage = styled.div`
  display: flex;
  justify-content: center;
  margin-bottom: ${({ theme }) => theme.space(4)};
  background: ${({ theme }) => theme.colors.surfaceMuted};

  img {
    display: block;
    max-width: 100%;
    max-height: ${PREVIEW_MAX_HEIGHT_PX}px;
  }
`;

const Hint = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(4)};
  font-size: 0.8125rem;
  color: ${({ theme }) => theme.colors.textMuted};
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: ${({ theme }) => theme.space(2)};
`;

interface CropProps {
  onApply: (file: File) => void;
  onCancel: () => void;
  /** The file says it is a picture but the browser cannot draw it (a renamed or broken file). */
  onUnreadable: () => void;
}

/**
 * Crops a chosen picture to a square. 'Apply Crop' hands back the JPEG file; Cancel (or Escape)
 * gives up the chosen file.
 */
export function AvatarCropDialog({
  source,
  ...crop
}: CropProps & {
  /** Object URL of the chosen file; the dialog is open while there is one. */
  source: string | null;
}) {
  return (
    <Dialog
      open={source !== null}
      onOpenChange={(open) => !open && crop.onCancel()}
      title="Crop your picture"
      width={640}
    >
      {source && <AvatarCropper source={source} {...crop} />}
    </Dialog>
  );
}

/**
 * The crop itself (the square on the picture, its hint, Cancel and 'Apply Crop'): in its own
 * dialog in the profile editor, inside the first run's dialog (first-run/first-run-dialog.tsx).
 */
export function AvatarCropper({
  source,
  onApply,
  onCancel,
  onUnreadable,
}: CropProps & { source: string }) {
  const image = useRef<HTMLImageElement>(null);
  const hintId = useId();
  const [crop, setCrop] = useState<Crop>();
  const [pixelCrop, setPixelCrop] = useState<PixelCrop>();
  const [applying, setApplying] = useState(false);

  const onImageLoad = (event: SyntheticEvent<HTMLImageElement>) => {
    const { width, height } = event.currentTarget;
    const start = initialCrop(width, height);
    setCrop(start);
    setPixelCrop(convertToPixelCrop(start, width, height));
  };

  const apply = async () => {
    if (!image.current || !pixelCrop) return;
    setApplying(true);
    try {
      onApply(await cropImage(image.current, pixelCrop));
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to crop image. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setApplying(false);
    }
  };

  return (
    <>
      <CropStyles />
      <Hint id={hintId}>
        Drag the square to choose what shows. With the square focused, arrow keys move it by 1
        pixel, with Shift by 10 and with Ctrl or Cmd by 100.
      </Hint>
      <Stage>
        <ReactCrop
          crop={crop}
          aspect={CROP_ASPECT}
          keepSelection
          minWidth={16}
          onChange={(pixels, percent) => {
            setCrop(percent);
            setPixelCrop(pixels);
          }}
        >
          <img
            ref={image}
            src={source}
            alt="Picture to crop"
            onLoad={onImageLoad}
            onError={onUnreadable}
          />
        </ReactCrop>
      </Stage>
      <Actions>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={apply} disabled={!pixelCrop || applying}>
          Apply Crop
        </Button>
      </Actions>
    </>
  );
}
