import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog, Modal } from './Modal';

/** An opener button and a form dialog: close (X) in the header, two fields, Cancel and Save below. */
function FormHarness({ onClose = () => undefined }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Open</button>
      {open && (
        <Modal
          title="Edit thing"
          onClose={() => { onClose(); setOpen(false); }}
          footer={(
            <>
              <button type="button" className="btn btn-outline">Cancel</button>
              <button type="button" className="btn btn-primary">Save</button>
            </>
          )}
        >
          <label htmlFor="f-name">Name</label>
          <input id="f-name" />
          <label htmlFor="f-note">Note</label>
          <input id="f-note" />
        </Modal>
      )}
    </>
  );
}

/** A name for an element: its aria-label, else its id, else its text. */
const nameOf = (el: Element | null) => el?.getAttribute('aria-label') ?? (el?.id || el?.textContent || '');
const focused = () => nameOf(document.activeElement);
const tab = (shift = false) => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Tab', shiftKey: shift });

describe('Modal', () => {
  afterEach(cleanup);

  it('reads and tabs in visual order: the close button, the fields, the footer', () => {
    render(<FormHarness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit thing' });
    expect([...dialog.querySelectorAll('button, input')].map(nameOf)).toEqual(['Close', 'f-name', 'f-note', 'Cancel', 'Save']);
    // Focus starts on the first field (between the edges the browser steps in DOM order); Shift+Tab
    // from the close button wraps to the footer's last button.
    expect(focused()).toBe('f-name');
    within(dialog).getByRole('button', { name: 'Close' }).focus();
    tab(true);
    expect(focused()).toBe('Save');
    // Tab from the footer's last button wraps to the close button first.
    tab();
    expect(focused()).toBe('Close');
  });

  it('brings Tab back in when the focus is on the dialog itself or fell out of it', () => {
    render(<FormHarness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog');
    dialog.focus();
    tab();
    expect(focused()).toBe('Close');
    dialog.focus();
    tab(true);
    expect(focused()).toBe('Save');
    // A focused button that became disabled drops the focus to <body>.
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    tab();
    expect(focused()).toBe('Close');
  });

  it('closes on Escape and gives the focus back to the opener', () => {
    const onClose = vi.fn();
    render(<FormHarness onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('a confirmation starts on the close button, never on the irreversible one, and is described by its message', () => {
    render(<ConfirmDialog title="Deactivate user" message="Sure?" confirmLabel="Deactivate" danger onConfirm={() => undefined} onCancel={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Deactivate user' });
    expect(within(dialog).getAllByRole('button').map(nameOf)).toEqual(['Close', 'Cancel', 'Deactivate']);
    expect(focused()).toBe('Close');
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toBe('Sure?');
    within(dialog).getByRole('button', { name: 'Deactivate' }).focus();
    tab();
    expect(focused()).toBe('Close');
  });
});
