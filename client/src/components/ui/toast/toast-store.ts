import { create } from 'zustand';
import { TOAST_MS } from '@auction/shared';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

interface ToastState {
  toasts: Toast[];
  show: (kind: ToastKind, message: string) => number;
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

  show: (kind, message) => {
    const id = nextId++;
    const toasts = [...get().toasts, { id, kind, message }];
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
