export {
  toast,
  dismissToast,
  useToast,
  Toaster,
  TOAST_BOTTOM_INSET_PROPERTY,
  TOAST_DEFAULT_DURATION_MS,
} from './toast';
export type { ToastOptions, ToastVariant } from './toast';
