import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoadMore } from './LoadMore';

/** A list whose last page lands (and `more` turns false) a moment before its load resolves, as a live patch of a query does. */
function List({ pages }: { pages: number }) {
  const [shown, setShown] = useState(10);
  const [left, setLeft] = useState(pages);
  return (
    <LoadMore shown={shown} total={10 + 10 * pages} more={left > 0} noun="rows" failed="Could not load"
      onLoadMore={async () => {
        setShown((n) => n + 10);
        setLeft((n) => n - 1);
        await new Promise((r) => setTimeout(r, 5));
      }} />
  );
}

describe('LoadMore', () => {
  afterEach(cleanup);

  it('a button with the count beside it; says nothing at the end of a list that fit on one page', () => {
    const { unmount } = render(<List pages={1} />);
    expect(screen.getByRole('button', { name: 'Load more' }).tagName).toBe('BUTTON');
    expect(screen.getByText('Showing 10 of 20 rows')).toBeTruthy();
    unmount();
    const { container } = render(<List pages={0} />);
    expect(container.textContent).toBe('');
  });

  it('stays focusable while busy; at the last page the focus moves to the line saying all are shown', async () => {
    render(<List pages={2} />);
    const button = screen.getByRole('button', { name: 'Load more' });
    button.focus();
    fireEvent.click(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button);
    await waitFor(() => expect(screen.getByText('Showing 20 of 30 rows')).toBeTruthy());
    await act(async () => { await new Promise((r) => setTimeout(r, 10)); });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByText('All 30 rows shown')));
  });

  it('a list of two pages: the one Load more brings the last, and the focus still moves on', async () => {
    render(<List pages={1} />);
    const button = screen.getByRole('button', { name: 'Load more' });
    button.focus();
    fireEvent.click(button);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByText('All 20 rows shown')));
  });
});
