import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';
import './ui.css';

interface ModalProps {
  title: string;
  /** Id of the element that says what the dialog is about (read with the title when focus enters). */
  describedBy?: string;
  onClose: () => void;
  children: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  /** Narrow dialogs for confirmations. */
  size?: 'sm' | 'md' | 'lg';
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * An accessible dialog: focus moves in (first field, else the close button), Tab stays inside, Escape
 * and the backdrop close it, and focus returns to what opened it. Tab follows the visual order, which
 * is the DOM order: the header's close button, the content, the footer; then round to the close button.
 */
export function Modal({ title, describedBy, onClose, children, footer, size = 'md' }: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const root = panel.current;
    // Keep a child's own autoFocus; otherwise the first field, else the first control in reading order
    // (the close button: a confirmation never starts on its irreversible button), else the dialog.
    if (root && !root.contains(document.activeElement)) {
      (root.querySelector<HTMLElement>('input, select, textarea') ?? root.querySelector<HTMLElement>(FOCUSABLE) ?? root).focus();
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        closeRef.current();
        return;
      }
      if (e.key !== 'Tab' || !root) return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const [head, tail] = [items[0]!, items.at(-1)!];
      const active = document.activeElement;
      // Focus on the dialog itself, or on a button disabled while focused ("Placing bid…"; or fallen to
      // <body>): the browser would step out of the dialog, so start again from the top or the bottom.
      const lost = !items.some((el) => el === active);
      if (e.shiftKey && (active === head || lost)) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (active === tail || lost)) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, []);

  return (
    <div className="modal-backdrop" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div ref={panel} className={`modal modal-${size}`} role="dialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={describedBy} tabIndex={-1}>
        <div className="modal-header">
          <h2 id={titleId} className="modal-title">{title}</h2>
          <button type="button" className="icon-btn" aria-label="Close" onClick={onClose}>
            <Icon name="close" size={18} />
          </button>
        </div>
        <div className="modal-body">{children}</div>
        {footer && <div className="modal-footer">{footer}</div>}
      </div>
    </div>
  );
}

/** A yes/no question (the confirmations before cancelling a bid, deleting, settling), worded by the caller. */
export function ConfirmDialog({ title, message, confirmLabel, danger, busy, onConfirm, onCancel }: {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const messageId = useId();
  return (
    <Modal
      title={title}
      describedBy={messageId}
      size="sm"
      onClose={onCancel}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="button" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} onClick={onConfirm} disabled={busy}>
            {confirmLabel}
          </button>
        </>
      )}
    >
      <p id={messageId} className="modal-message">{message}</p>
    </Modal>
  );
}
