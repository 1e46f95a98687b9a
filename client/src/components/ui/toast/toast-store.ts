import { create } from 'zustand';
import { TOAST_MS } from '@auction/shared';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** When it was shown (Date.now()). */
  at: number;
}

interface ToastState {
  toasts: Toast[];
  show: (kind: ToastKind, message: string) => number;
  dismiss: (id: number) => void;
  /** The page changed: toasts of the page left go; those the navigation itself brought (just shown) stay. */
  leavePage: (now?: number) => void;
  clear: () => void;
}

/** More than this and the oldest goes first, so a burst of errors cannot bury the page. */
const MAX_TOASTS = 3;
/**
 * A toast shown this recently when the page changes came with the change (Login successful!, then the
 * dashboard) and goes with the reader to the new page; an older one belonged to the page left.
 */
export const CARRY_MS = 1500;

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
    // The same words again (a retry failing twice, a burst of one error) replace the toast shown,
    // with a fresh timer, instead of piling up.
    const same = get().toasts.filter((t) => t.kind === kind && t.message === message);
    for (const t of same) stopTimer(t.id);
    const toasts = [...get().toasts.filter((t) => !same.includes(t)), { id, kind, message, at: Date.now() }];
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

  leavePage: (now = Date.now()) => {
    const stale = get().toasts.filter((t) => now - t.at > CARRY_MS);
    if (stale.length === 0) return;
    for (const t of stale) stopTimer(t.id);
    set({ toasts: get().toasts.filter((t) => !stale.includes(t)) });
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
