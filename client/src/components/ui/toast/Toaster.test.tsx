import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_MS } from '@auction/shared';
import { Toaster } from './Toaster';
import { CARRY_MS, toast, useToasts } from './toast-store';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useToasts.getState().clear();
  });
  afterEach(() => {
    cleanup();
    useToasts.getState().clear();
    vi.useRealTimers();
  });

  it('auto-dismisses after 5000 ms', () => {
    expect(TOAST_MS).toBe(5000);
    render(<Toaster />);
    act(() => {
      toast.success('Bid placed successfully!');
    });
    expect(screen.getByRole('status').textContent).toContain('Bid placed successfully!');

    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.queryByText('Bid placed successfully!')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Bid placed successfully!')).toBeNull();
  });

  it('stacks toasts of every kind, each on its own timer', () => {
    render(<Toaster />);
    act(() => {
      toast.error('Failed to load auctions');
    });
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    act(() => {
      toast.info('Info text');
      toast.warning('Warning text');
    });

    const shown = screen.getAllByRole('status');
    expect(shown).toHaveLength(3);
    expect(shown.map((el) => el.className)).toEqual(['toast toast-error', 'toast toast-info', 'toast toast-warning']);

    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(screen.queryByText('Failed to load auctions')).toBeNull();
    expect(screen.getAllByRole('status')).toHaveLength(2);
  });

  it('the same words again replace the toast shown (with a fresh timer) instead of piling up; at most three are shown', () => {
    render(<Toaster />);
    act(() => {
      toast.error('Failed to place bid');
    });
    act(() => {
      vi.advanceTimersByTime(4000);
      toast.error('Failed to place bid');
    });
    expect(screen.getAllByRole('status')).toHaveLength(1);
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    // Its timer started again with the repeat.
    expect(screen.getAllByRole('status')).toHaveLength(1);
    act(() => {
      for (const m of ['One', 'Two', 'Three']) toast.info(m);
    });
    expect(screen.getAllByRole('status').map((t) => t.textContent)).toEqual(['One', 'Two', 'Three']);
  });

  it('leaving a page takes its toasts away, but not the one the navigation itself brought', () => {
    render(<Toaster />);
    act(() => {
      toast.error('Failed to load auctions');
    });
    act(() => {
      vi.advanceTimersByTime(3000);
      toast.success('Login successful!');
    });
    act(() => {
      vi.advanceTimersByTime(100);
      useToasts.getState().leavePage();
    });
    expect(screen.getAllByRole('status').map((t) => t.textContent)).toEqual(['Login successful!']);
    act(() => {
      vi.advanceTimersByTime(CARRY_MS);
      useToasts.getState().leavePage();
    });
    expect(screen.queryAllByRole('status')).toHaveLength(0);
  });

  it('a toast with the key of one shown replaces it in place, on a fresh timer', () => {
    render(<Toaster />);
    act(() => {
      useToasts.getState().show('warning', 'You were outbid on Lamp', 'lot:A:1');
      toast.info('Something else');
    });
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    act(() => {
      useToasts.getState().show('info', 'Your bid on Lamp is leading again', 'lot:A:1');
      useToasts.getState().show('warning', 'You were outbid on Clock', 'lot:A:2');
    });
    expect(screen.getAllByRole('status').map((el) => [el.className, el.textContent])).toEqual([
      ['toast toast-info', 'Your bid on Lamp is leading again'], ['toast toast-info', 'Something else'], ['toast toast-warning', 'You were outbid on Clock'],
    ]);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    // The replaced one lives 5 s from its replacement; the other went at its own time.
    expect(screen.getAllByRole('status').map((el) => el.textContent)).toEqual(['Your bid on Lamp is leading again', 'You were outbid on Clock']);
  });

  it('closes a toast with its dismiss button', () => {
    render(<Toaster />);
    act(() => {
      toast.success('First');
      toast.error('Second');
    });
    const buttons = screen.getAllByRole('button', { name: 'Dismiss notification' });
    expect(buttons).toHaveLength(2);

    fireEvent.click(buttons[0]!);

    expect(screen.queryByText('First')).toBeNull();
    expect(screen.queryByText('Second')).not.toBeNull();
    expect(useToasts.getState().toasts.map((t) => t.message)).toEqual(['Second']);
  });

  it('tells the page how much room to leave at its bottom while toasts are shown', () => {
    const space = () => document.documentElement.style.getPropertyValue('--toast-space');
    render(<Toaster />);
    expect(space()).toBe('');
    let id = 0;
    act(() => {
      id = toast.success('Bid placed successfully!');
    });
    // The stack's height (0 in jsdom) plus its offset from the bottom and a gap.
    expect(space()).toBe('28px');
    act(() => {
      useToasts.getState().dismiss(id);
    });
    expect(space()).toBe('');
  });
});
