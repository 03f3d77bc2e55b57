export { toast, dismissToast, useToast, Toaster, TOAST_DEFAULT_DURATION_MS } from './toast';
export type { ToastOptions, ToastVariant } from './toast';
