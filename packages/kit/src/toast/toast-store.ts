export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long it stays, in milliseconds (spec §9: 5000 by default). */
  duration?: number;
}

export interface ActiveToast extends Required<Omit<ToastOptions, 'description'>> {
  id: number;
  description?: string;
}

export const TOAST_DEFAULT_DURATION_MS = 5000;

/**
 * One toast at a time (spec §9): a new toast replaces the one on screen. The store lives outside
 * React so any code (and any remote, through the shared kit) can raise a toast.
 */
let current: ActiveToast | null = null;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function publish(next: ActiveToast | null) {
  current = next;
  listeners.forEach((listener) => listener());
}

export function showToast(options: ToastOptions): number {
  const shown: ActiveToast = {
    id: nextId++,
    title: options.title,
    description: options.description,
    variant: options.variant ?? 'default',
    duration: options.duration ?? TOAST_DEFAULT_DURATION_MS,
  };
  clearTimeout(timer);
  timer = setTimeout(() => hideToast(shown.id), shown.duration);
  publish(shown);
  return shown.id;
}

/** Hides the toast with this id (or whatever is shown, without an id). */
export function hideToast(id?: number): void {
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimeout(timer);
  publish(null);
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function currentToast(): ActiveToast | null {
  return current;
}
