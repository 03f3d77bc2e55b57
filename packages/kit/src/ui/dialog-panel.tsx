import { useEffect, useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { MIN_TOUCH_TARGET_PX, mediaMobile } from '@campus/kit/theme';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Extra width for larger dialogs (the crop dialog). */
  width?: number;
  /** The whole screen, dark, without padding (the image viewer). */
  fullScreen?: boolean;
}

const Backdrop = styled.div<{ $fullScreen: boolean }>`
  position: fixed;
  inset: 0;
  z-index: 900;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: ${({ theme, $fullScreen }) => ($fullScreen ? 0 : theme.space(4))};
  background: ${({ theme, $fullScreen }) => ($fullScreen ? theme.media.backdrop : theme.colors.overlay)};
`;

const Panel = styled.div<{ $width: number }>`
  width: 100%;
  max-width: ${({ $width }) => $width}px;
  max-height: calc(100vh - 32px);
  overflow: auto;
  padding: ${({ theme }) => theme.space(6)};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.colors.surface};
  box-shadow: ${({ theme }) => theme.shadow.lg};

  h2 {
    margin: 0 0 ${({ theme }) => theme.space(2)};
    font-size: 1.125rem;
  }
`;

const FullScreenPanel = styled.div<{ $width: number }>`
  position: relative;
  display: flex;
  flex-direction: column;
  width: 100%;
  height: 100%;
  color: ${({ theme }) => theme.media.text};

  h2 {
    margin: 0;
    padding: ${({ theme }) => theme.space(3)} ${({ theme }) => theme.space(4)};
    font-size: 1rem;
  }
  > [data-dialog-close] {
    position: absolute;
    top: ${({ theme }) => theme.space(1)};
    right: ${({ theme }) => theme.space(2)};
    z-index: 2;
    min-width: 44px;
    min-height: 44px;
    color: ${({ theme }) => theme.media.text};
    font-size: 1.75rem;
  }
`;

const Description = styled.p`
  margin: 0 0 ${({ theme }) => theme.space(4)};
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: 0.875rem;
`;

const Close = styled.button`
  float: right;
  border: 0;
  background: transparent;
  font-size: 1.25rem;
  line-height: 1;
  cursor: pointer;
  color: ${({ theme }) => theme.colors.textMuted};

  /* A fingertip's target on a phone (issue 41); the negative margin keeps the × where it was. */
  ${mediaMobile} {
    min-width: ${MIN_TOUCH_TARGET_PX}px;
    min-height: ${MIN_TOUCH_TARGET_PX}px;
    margin: -10px -10px 0 0;
  }
`;

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog: focus moves inside and stays there (Tab wraps), Escape or a click on the
 * backdrop closes it, and focus returns to whatever had it before. Apps use `Dialog`
 * (dialog.tsx), which fetches this code the first time a dialog opens.
 */
export function DialogPanel({
  open,
  onOpenChange,
  title,
  description,
  children,
  width = 480,
  fullScreen = false,
}: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const backdrop = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const onOpenChangeRef = useRef(onOpenChange);
  useEffect(() => {
    onOpenChangeRef.current = onOpenChange;
  });

  // A layout effect: focus is inside the dialog in the same frame it first appears.
  useLayoutEffect(() => {
    if (!open) return;
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const node = panel.current;
    const first = node?.querySelector<HTMLElement>(
      `${FOCUSABLE.split(', ')
        .map((selector) => `${selector}:not([data-dialog-close])`)
        .join(', ')}`,
    );
    (first ?? node)?.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      // A field with a list open inside the dialog (the @mention suggestions) uses Escape, Tab
      // and Enter for that list first (`data-kit-popup-open`).
      if (event.target instanceof Element && event.target.closest('[data-kit-popup-open]')) return;
      if (event.key === 'Escape') {
        event.stopPropagation();
        onOpenChangeRef.current(false);
        return;
      }
      if (event.key !== 'Tab' || !node) return;
      const focusable = Array.from(node.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (focusable.length === 0) {
        event.preventDefault();
        return;
      }
      const firstItem = focusable[0];
      const lastItem = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === firstItem || !node.contains(active))) {
        event.preventDefault();
        lastItem?.focus();
      } else if (!event.shiftKey && (active === lastItem || !node.contains(active))) {
        event.preventDefault();
        firstItem?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    // Everything else on the page is out of reach while the dialog is open (toasts stay live).
    const madeInert = Array.from(document.body.children).filter(
      (element): element is HTMLElement =>
        element instanceof HTMLElement &&
        element !== backdrop.current &&
        !element.hasAttribute('data-kit-layer') &&
        !element.hasAttribute('inert'),
    );
    madeInert.forEach((element) => element.setAttribute('inert', ''));
    return () => {
      madeInert.forEach((element) => element.removeAttribute('inert'));
      document.removeEventListener('keydown', onKeyDown, true);
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open]);

  if (!open) return null;
  const PanelOfKind = fullScreen ? FullScreenPanel : Panel;
  return createPortal(
    <Backdrop
      ref={backdrop}
      $fullScreen={fullScreen}
      data-testid="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onOpenChange(false);
      }}
    >
      <PanelOfKind
        ref={panel}
        $width={width}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
      >
        <Close
          type="button"
          aria-label="Close"
          data-dialog-close=""
          onClick={() => onOpenChange(false)}
        >
          ×
        </Close>
        <h2 id={titleId}>{title}</h2>
        {description && <Description id={descriptionId}>{description}</Description>}
        {children}
      </PanelOfKind>
    </Backdrop>,
    document.body,
  );
}
