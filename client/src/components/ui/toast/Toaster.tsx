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

/** Mounted once at the app root; stacks the live toasts top-right (top, full width on phones). */
export function Toaster() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);

  return (
    <div className="toaster" aria-live="polite" aria-relevant="additions text">
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
