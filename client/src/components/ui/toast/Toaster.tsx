import { useLayoutEffect, useRef } from 'react';
import { Icon } from '../Icon';
import type { IconName } from '../Icon';
import { useToasts } from './toast-store';
import type { ToastKind } from './toast-store';
import './toast.css';

const ICONS: Record<ToastKind, IconName> = {
  success: 'check',
  error: 'alert',
  info: 'info',
  warning: 'warning',
};

/** Room the page keeps free below its content while toasts are shown: the stack, its offset and a gap. */
const TOAST_SPACE_VAR = '--toast-space';
const OFFSET_AND_GAP = 16 + 12;

/**
 * Mounted once at the app root; stacks the live toasts bottom right (at the top, compact, on phones).
 * While any is shown it publishes the stack's height as --toast-space, so pages can pad their bottom
 * by as much and the last row (a Place Bid, a Deactivate) can still be scrolled clear of the stack.
 */
export function Toaster() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  const stack = useRef<HTMLDivElement>(null);
  const showing = toasts.length > 0;

  useLayoutEffect(() => {
    const el = stack.current;
    const root = document.documentElement.style;
    if (!el || !showing) return;
    const publish = () => root.setProperty(TOAST_SPACE_VAR, `${Math.ceil(el.getBoundingClientRect().height) + OFFSET_AND_GAP}px`);
    publish();
    // Toasts come and go, and wrap differently as the window narrows: follow the stack's size.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.removeProperty(TOAST_SPACE_VAR);
    };
  }, [showing]);

  return (
    <div ref={stack} className="toaster" aria-live="polite" aria-relevant="additions text">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role="status">
          <Icon name={ICONS[t.kind]} className="toast-icon" />
          <p className="toast-message">{t.message}</p>
          <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(t.id)}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
