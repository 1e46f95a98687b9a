import { create } from 'zustand';
import { TOAST_MS } from '@auction/shared';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Toasts about one thing (a lot's standing) share a key: a new one replaces the one shown. */
  key?: string;
}

interface ToastState {
  toasts: Toast[];
  /** With `key`, a toast of that key already shown is replaced in place (its text, kind and timer). */
  show: (kind: ToastKind, message: string, key?: string) => number;
  dismiss: (id: number) => void;
  clear: () => void;
}

/** More than this and the oldest goes first, so a burst of errors cannot bury the page. */
const MAX_TOASTS = 5;

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

function stopTimer(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],

  show: (kind, message, key) => {
    const same = key === undefined ? undefined : get().toasts.find((t) => t.key === key);
    if (same) {
      stopTimer(same.id);
      set({ toasts: get().toasts.map((t) => (t.id === same.id ? { ...t, kind, message } : t)) });
      timers.set(same.id, setTimeout(() => get().dismiss(same.id), TOAST_MS));
      return same.id;
    }
    const id = nextId++;
    const toasts = [...get().toasts, { id, kind, message, ...(key === undefined ? {} : { key }) }];
    for (const dropped of toasts.slice(0, Math.max(0, toasts.length - MAX_TOASTS))) stopTimer(dropped.id);
    set({ toasts: toasts.slice(-MAX_TOASTS) });
    // Every toast auto-dismisses after TOAST_MS (5000 ms).
    timers.set(id, setTimeout(() => get().dismiss(id), TOAST_MS));
    return id;
  },

  dismiss: (id) => {
    stopTimer(id);
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },

  clear: () => {
    for (const id of timers.keys()) stopTimer(id);
    set({ toasts: [] });
  },
}));

/** Shorthands for callers outside React (API flows, stores). */
export const toast = {
  success: (message: string) => useToasts.getState().show('success', message),
  error: (message: string) => useToasts.getState().show('error', message),
  info: (message: string) => useToasts.getState().show('info', message),
  warning: (message: string) => useToasts.getState().show('warning', message),
};
