import { create } from 'zustand';
import { TOAST_MS } from '@auction/shared';

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** When it was shown (Date.now()). */
  at: number;
  /** Toasts about one thing (a lot's standing) share a key: a new one replaces the one shown. */
  key?: string;
}

interface ToastState {
  toasts: Toast[];
  /** With `key`, a toast of that key already shown is replaced in place (its text, kind and timer). */
  show: (kind: ToastKind, message: string, key?: string) => number;
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

  show: (kind, message, key) => {
    const same = key === undefined ? undefined : get().toasts.find((t) => t.key === key);
    if (same) {
      stopTimer(same.id);
      set({ toasts: get().toasts.map((t) => (t.id === same.id ? { ...t, kind, message, at: Date.now() } : t)) });
      timers.set(same.id, setTimeout(() => get().dismiss(same.id), TOAST_MS));
      return same.id;
    }
    const id = nextId++;
    // The same words again (a retry failing twice, a burst of one error) replace the toast shown,
    // with a fresh timer, instead of piling up.
    const repeated = get().toasts.filter((t) => t.kind === kind && t.message === message);
    for (const t of repeated) stopTimer(t.id);
    const toasts = [...get().toasts.filter((t) => !repeated.includes(t)), { id, kind, message, at: Date.now(), ...(key === undefined ? {} : { key }) }];
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
