import { act, cleanup, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScrollToTop } from './ScrollToTop';

let go: ReturnType<typeof useNavigate>;
function Page({ name }: { name: string }) {
  go = useNavigate();
  return <p>{name} <Link to="/b">to b</Link> <Link to="/a?tab=2">tab</Link></p>;
}

describe('ScrollToTop', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('opens a new page at its top, but keeps the place on back and forward and on a change of the query alone', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/a']}>
        <ScrollToTop />
        <Routes>
          <Route path="/a" element={<Page name="A" />} />
          <Route path="/b" element={<Page name="B" />} />
        </Routes>
      </MemoryRouter>,
    );
    // The first page is the browser's to place (a reload keeps its position).
    expect(scrollTo).not.toHaveBeenCalled();
    act(() => screen.getByRole('link', { name: 'to b' }).click());
    expect(screen.getByText(/^B/)).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    act(() => { void go(-1); });
    expect(screen.getByText(/^A/)).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledTimes(1);
    act(() => screen.getByRole('link', { name: 'tab' }).click());
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });
});
