import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { lotPage, makeLotCard } from '../testing';
import { HeaderSearch, SUGGEST_DEBOUNCE_MS } from './HeaderSearch';

const lamp = makeLotCard({ id: 'LAMP', lot_number: 12, name: 'Brass Desk Lamp', highest_bid: 1500, auction: { id: 'AUC-1', name: 'Spring Sale', valid_until: '2026-06-02T10:00:00.000Z' } });
const lantern = makeLotCard({ id: 'LANTERN', lot_number: 3, name: 'Ship Lantern', min_next_bid: 800, auction: { id: 'AUC-2', name: 'Sea Things', valid_until: '2026-06-02T10:00:00.000Z' } });

interface Call { url: URL; signal: AbortSignal | undefined; answer: (body: unknown) => void }

/** A fetch stub whose answers the test gives when it wants; an aborted call rejects as fetch does. */
function manualFetch() {
  const calls: Call[] = [];
  const fn = vi.fn((url: string, init?: RequestInit) => new Promise<Response>((resolve, reject) => {
    const signal = init?.signal ?? undefined;
    signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    calls.push({ url: new URL(url, 'http://x'), signal, answer: (body) => resolve(jsonResponse(200, body)) });
  }));
  vi.stubGlobal('fetch', fn);
  return calls;
}

function Probe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

function renderBox() {
  render(
    <MemoryRouter initialEntries={['/user/dashboard']}>
      <HeaderSearch />
      <Probe />
    </MemoryRouter>,
  );
  return screen.getByRole('combobox', { name: 'Search lots' });
}

const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));
const location = () => screen.getByTestId('location').textContent;

describe('HeaderSearch', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('asks the server once for the final text when typing is fast', async () => {
    const calls = manualFetch();
    const box = renderBox();
    fireEvent.focus(box);
    for (const text of ['l', 'la', 'lam', 'lamp']) {
      fireEvent.change(box, { target: { value: text } });
      await wait(SUGGEST_DEBOUNCE_MS / 4);
    }
    expect(calls).toHaveLength(0);
    await waitFor(() => expect(calls).toHaveLength(1));
    await wait(SUGGEST_DEBOUNCE_MS * 2);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url.pathname).toBe('/api/catalogue/lots');
    expect(Object.fromEntries(calls[0]!.url.searchParams)).toEqual({ q: 'lamp', limit: '6' });
  });

  it('cancels the request for older text when the text changes', async () => {
    const calls = manualFetch();
    const box = renderBox();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'lam' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.signal?.aborted).toBe(false);
    fireEvent.change(box, { target: { value: 'lamp' } });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.url.searchParams.get('q')).toBe('lamp');
    expect(calls[0]!.signal?.aborted).toBe(true);
    expect(calls[1]!.signal?.aborted).toBe(false);
    act(() => calls[1]!.answer(lotPage([lamp])));
    await screen.findByRole('option', { name: /Brass Desk Lamp/ });
  });

  it('lists the suggestions; ArrowDown/ArrowUp move the highlight and Enter opens the highlighted lot', async () => {
    const calls = manualFetch();
    const box = renderBox();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'la' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.answer(lotPage([lamp, lantern])));
    await screen.findByRole('option', { name: /Ship Lantern/ });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Lot 12Brass Desk Lamp₹1,500', 'Lot 3Ship Lantern₹800', 'See all results for “la”']);
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(box.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    expect(box.getAttribute('aria-activedescendant')).toBeNull();

    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[2]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(box.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[0]!.getAttribute('aria-selected')).toBe('false');

    fireEvent.submit(box.closest('form')!);
    expect(location()).toBe('/auctions/AUC-2/products/LANTERN');
    expect((box as HTMLInputElement).value).toBe('');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  it('Escape closes the list; Enter with nothing highlighted goes to the Search page for the words', async () => {
    const calls = manualFetch();
    const box = renderBox();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'desk lamp' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.answer(lotPage([lamp])));
    await screen.findByRole('option', { name: /Brass Desk Lamp/ });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.getAttribute('aria-activedescendant')).toBeNull();
    expect(screen.queryByRole('option')).toBeNull();
    expect((box as HTMLInputElement).value).toBe('desk lamp');

    fireEvent.submit(box.closest('form')!);
    expect(location()).toBe('/user/search?q=desk+lamp');
  });

  it('"See all results" goes to the Search page too', async () => {
    const calls = manualFetch();
    const box = renderBox();
    fireEvent.focus(box);
    fireEvent.change(box, { target: { value: 'lamp' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.answer(lotPage([])));
    await screen.findByText('No open lots match');
    fireEvent.click(screen.getByRole('option', { name: 'See all results for “lamp”' }));
    expect(location()).toBe('/user/search?q=lamp');
  });

  it('the phone button opens the search field; Escape closes the list, then the row, and the focus goes back to the button', async () => {
    const calls = manualFetch();
    const box = renderBox();
    const toggle = screen.getByRole('button', { name: 'Search lots' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Close search');
    await waitFor(() => expect(document.activeElement).toBe(box));
    fireEvent.change(box, { target: { value: 'lamp' } });
    await waitFor(() => expect(calls).toHaveLength(1));
    act(() => calls[0]!.answer(lotPage([lamp])));
    await screen.findByRole('option', { name: /Brass Desk Lamp/ });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('option')).toBeNull();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });
});
