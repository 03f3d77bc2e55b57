import { useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { currentToast, hideToast, showToast, subscribe, type ActiveToast } from './toast-store';

export { TOAST_DEFAULT_DURATION_MS } from './toast-store';
export type { ToastOptions, ToastVariant } from './toast-store';

/** Shows a toast, replacing the current one; returns its id. */
export const toast = showToast;
export const dismissToast = hideToast;

export function useToast() {
  const active = useSyncExternalStore(subscribe, currentToast, currentToast);
  return { toast: showToast, dismiss: hideToast, active };
}

/**
 * What the app keeps at the bottom of the screen (the shell's bottom bar on phones) sets this
 * custom property to its height, so a toast sits above it instead of covering it (issue 41).
 */
export const TOAST_BOTTOM_INSET_PROPERTY = '--kit-toast-bottom-inset';

const Region = styled.div`
  position: fixed;
  z-index: 1000;
  right: ${({ theme }) => theme.space(4)};
  bottom: calc(var(${TOAST_BOTTOM_INSET_PROPERTY}, 0px) + ${({ theme }) => theme.space(4)});
  left: ${({ theme }) => theme.space(4)};
  display: flex;
  justify-content: flex-end;
  pointer-events: none;

  @media (min-width: ${({ theme }) => theme.breakpoints.mobile}px) {
    left: auto;
    width: 380px;
  }
`;

const Card = styled.div<{ $variant: ActiveToast['variant'] }>`
  pointer-events: auto;
  display: flex;
  gap: ${({ theme }) => theme.space(3)};
  align-items: flex-start;
  width: 100%;
  padding: ${({ theme }) => theme.space(4)};
  border-radius: ${({ theme }) => theme.radius.md};
  box-shadow: ${({ theme }) => theme.shadow.lg};
  border: 1px solid
    ${({ theme, $variant }) => ($variant === 'destructive' ? theme.colors.danger : theme.colors.border)};
  background: ${({ theme, $variant }) =>
    $variant === 'destructive' ? theme.colors.danger : theme.colors.surface};
  color: ${({ theme, $variant }) => ($variant === 'destructive' ? theme.colors.onDanger : theme.colors.text)};
`;

const Text = styled.div`
  flex: 1;
  display: grid;
  gap: ${({ theme }) => theme.space(1)};
  font-size: 0.875rem;
`;

/**
 * 44×44 CSS px to touch (issue 41), drawn as the small × it was: the negative margins give the
 * card's padding to the hit area instead of growing the card.
 */
const Close = styled.button`
  display: inline-flex;
  flex: none;
  align-items: center;
  justify-content: center;
  min-width: 44px;
  min-height: 44px;
  margin: -${({ theme }) => theme.space(3)} -${({ theme }) => theme.space(3)} -${({ theme }) =>
      theme.space(3)}
    0;
  padding: 0;
  border: 0;
  border-radius: ${({ theme }) => theme.radius.md};
  background: transparent;
  color: inherit;
  cursor: pointer;
  font-size: 1.25rem;
  line-height: 1;
`;

/**
 * Where toasts appear; the shell mounts it once. It lives in its own layer under <body>, so a
 * modal dialog (which makes the rest of the page inert) never silences it.
 */
export function Toaster() {
  const { active } = useToast();
  return createPortal(
    <Region aria-live="polite" aria-atomic="true" data-kit-layer="toasts">
      {active && (
        <Card
          key={active.id}
          $variant={active.variant}
          role={active.variant === 'destructive' ? 'alert' : 'status'}
          data-variant={active.variant}
        >
          <Text>
            <strong>{active.title}</strong>
            {active.description && <span>{active.description}</span>}
          </Text>
          <Close
            type="button"
            aria-label="Dismiss notification"
            onClick={() => hideToast(active.id)}
          >
            ×
          </Close>
        </Card>
      )}
    </Region>,
    document.body,
  );
}
