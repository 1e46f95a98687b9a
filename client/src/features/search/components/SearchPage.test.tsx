import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Category } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, resetAppState, setServerNow } from '../../../test/utils';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { countText } from '../model';
import { lotPage, makeLotCard } from '../testing';
import { SearchPage } from './SearchPage';

const NOW = Date.parse('2026-06-01T10:00:00.000Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

const categories: Category[] = [
  { id: 1, name: 'Lighting', slug: 'lighting', parent_id: null, open_lots: 3 },
  { id: 2, name: 'Desk Lamps', slug: 'desk-lamps', parent_id: 1, open_lots: 2 },
  { id: 3, name: 'Cameras', slug: 'cameras', parent_id: null, open_lots: 1 },
];

const lamp = makeLotCard({
  id: 'LAMP', lot_number: 12, name: 'Brass Desk Lamp', highest_bid: 0, min_next_bid: 500, bid_count: 0, buy_now_price: 4000,
  cover: { url: '/media/lamp.webp', thumb_url: '/media/lamp-400.webp' }, category: { id: 2, name: 'Desk Lamps', slug: 'desk-lamps' },
  auction: { id: 'AUC-1', name: 'Spring Sale', valid_until: at(2.5) },
});
const lantern = makeLotCard({ id: 'LANTERN', lot_number: 3, name: 'Ship Lantern', highest_bid: 1500, min_next_bid: 1600, bid_count: 4, auction: { id: 'AUC-2', name: 'Sea Things', valid_until: at(30) } });
const globe = makeLotCard({ id: 'GLOBE', lot_number: 7, name: 'Glass Globe Lamp', highest_bid: 900, min_next_bid: 950, bid_count: 1, auction: { id: 'AUC-1', name: 'Spring Sale', valid_until: at(2.5) } });

type Answer = Response | (() => Promise<Response>);

/** Stubs fetch: the lots route answers in turn from `lots` (the last repeats), categories always the same. */
function stubApi(lots: Answer[]) {
  let i = 0;
  const fn = vi.fn(async (url: string) => {
    const u = new URL(url, 'http://x');
    if (u.pathname === '/api/categories') return jsonResponse(200, { categories });
    if (u.pathname === '/api/catalogue/lots') {
      const answer = lots[Math.min(i++, lots.length - 1)]!;
      return typeof answer === 'function' ? answer() : answer.clone();
    }
    return jsonResponse(404, { error: 'unrouted', code: 'NOT_FOUND' });
  });
  vi.stubGlobal('fetch', fn);
  const lotCalls = () => fn.mock.calls.map(([url]) => new URL(url, 'http://x')).filter((u) => u.pathname === '/api/catalogue/lots');
  return { fn, lotCalls, lotQuery: (n: number) => Object.fromEntries(lotCalls()[n]!.searchParams) };
}

function Probe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

function renderPage(url = '/user/search?q=lamp') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/user/search" element={<SearchPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Probe />
    </MemoryRouter>,
  );
}

const card = (id: string) => within(screen.getByTestId(`lot-card-${id}`));
const cardIds = () => [...document.querySelectorAll('.lot-card')].map((n) => (n as HTMLElement).dataset.testid);
const location = () => screen.getByTestId('location').textContent;

describe('SearchPage', () => {
  beforeEach(() => {
    resetAppState();
    setServerNow(NOW);
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows each lot as a card: cover, number, name, category, price, bids, Buy now, auction and time left, linked to its page', async () => {
    const api = stubApi([jsonResponse(200, lotPage([lamp, lantern], null, 2))]);
    renderPage();
    await screen.findByText('Brass Desk Lamp');
    // A visitor (no session): the read carries no token.
    expect((api.fn.mock.calls[0] as unknown as [string, RequestInit])[1].headers).not.toHaveProperty('authorization');
    expect(screen.getByRole('heading', { name: '2 lots' })).toBeTruthy();
    const l = card('LAMP');
    expect(screen.getByTestId('lot-card-LAMP').className).toBe('lot-card');
    expect(l.getByText('Lot 12')).toBeTruthy();
    expect(l.getByText('Desk Lamps')).toBeTruthy();
    expect(l.getByText('Starting bid')).toBeTruthy();
    expect(l.getByText('₹500')).toBeTruthy();
    expect(l.getByText('0 bids')).toBeTruthy();
    expect(l.getByText(/Buy now ₹4,000/)).toBeTruthy();
    expect(l.getByText('Spring Sale')).toBeTruthy();
    expect(l.getByRole('timer').textContent).toBe('Ends in 2h 30m');
    expect(document.querySelector('[data-testid="lot-card-LAMP"] img')?.getAttribute('src')).toBe('/media/lamp-400.webp');
    expect(l.getByRole('link', { name: 'Lot 12: Brass Desk Lamp' }).getAttribute('href')).toBe('/auctions/AUC-1/products/LAMP');

    const s = card('LANTERN');
    expect(s.getByText('Highest bid')).toBeTruthy();
    expect(s.getByText('₹1,500')).toBeTruthy();
    expect(s.getByText('4 bids')).toBeTruthy();
    expect(s.queryByText(/Buy now/)).toBeNull();
    fireEvent.click(s.getByRole('link', { name: /Ship Lantern/ }));
    expect(location()).toBe('/auctions/AUC-2/products/LANTERN');
  });

  it('asks the server for what the URL says, and a filter changed goes into the URL and a new read', async () => {
    const api = stubApi([jsonResponse(200, lotPage([lamp], null, 1))]);
    renderPage('/user/search?q=lamp&category=lighting&min_price=100&max_price=500.5&buy_now=1&status=ended&sort=price_desc');
    await screen.findByText('Brass Desk Lamp');
    expect(api.lotQuery(0)).toEqual({ q: 'lamp', category: 'lighting', min_price: '100', max_price: '500.5', buy_now: '1', status: 'ended', sort: 'price_desc' });
    expect(screen.getByLabelText<HTMLSelectElement>('Category').value).toBe('lighting');
    // Two levels: each subcategory under its parent, indented.
    await waitFor(() => expect([...screen.getByLabelText<HTMLSelectElement>('Category').options].map((o) => o.textContent)).toEqual(['All categories', 'Lighting', '\u00a0\u00a0\u00a0Desk Lamps', 'Cameras']));
    expect(screen.getByLabelText<HTMLSelectElement>('Sort by').value).toBe('price_desc');
    expect(screen.getByLabelText<HTMLInputElement>('Min price (₹)').value).toBe('100');
    expect(screen.getByLabelText<HTMLInputElement>('Buy now only').checked).toBe(true);

    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'cameras' } });
    await waitFor(() => expect(api.lotCalls()).toHaveLength(2));
    expect(api.lotQuery(1)).toMatchObject({ q: 'lamp', category: 'cameras' });
    expect(location()).toBe('/user/search?q=lamp&category=cameras&min_price=100&max_price=500.5&buy_now=1&status=ended&sort=price_desc');

    fireEvent.change(screen.getByLabelText('Words to search for'), { target: { value: 'desk lamp' } });
    fireEvent.change(screen.getByLabelText('Max price (₹)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.lotCalls()).toHaveLength(3));
    expect(api.lotQuery(2)).toEqual({ q: 'desk lamp', category: 'cameras', min_price: '100', buy_now: '1', status: 'ended', sort: 'price_desc' });
  });

  it('without words the default order is ending soonest, and Best match is not offered', async () => {
    const api = stubApi([jsonResponse(200, lotPage([lamp], null, 1))]);
    renderPage('/user/search?sort=relevance&category=cameras');
    await screen.findByText('Brass Desk Lamp');
    expect(api.lotQuery(0)).toEqual({ category: 'cameras' });
    const sort = screen.getByLabelText<HTMLSelectElement>('Sort by');
    expect([...sort.options].map((o) => o.textContent)).toEqual(['Ending soonest', 'Price: low to high', 'Price: high to low', 'Most bids']);
    expect(sort.value).toBe('');
    fireEvent.change(sort, { target: { value: 'bids' } });
    await waitFor(() => expect(api.lotCalls()).toHaveLength(2));
    expect(api.lotQuery(1)).toEqual({ category: 'cameras', sort: 'bids' });
  });

  it('among ended lots the end order is named for what it is: most recently ended first', async () => {
    stubApi([jsonResponse(200, lotPage([lamp], null, 1))]);
    renderPage('/user/search?status=ended');
    await screen.findByText('Brass Desk Lamp');
    const sort = screen.getByLabelText<HTMLSelectElement>('Sort by');
    expect([...sort.options].map((o) => o.textContent)).toEqual(['Most recently ended', 'Price: low to high', 'Price: high to low', 'Most bids']);
  });

  it('Load more adds the next page under the first, each lot once', async () => {
    const api = stubApi([
      jsonResponse(200, lotPage([lamp, globe], 'c1', 3)),
      jsonResponse(200, lotPage([globe, lantern], null, 3)),
    ]);
    renderPage('/user/search?q=lamp&sort=price_asc');
    await screen.findByText('Brass Desk Lamp');
    expect(screen.getByText('Showing 2 of 3 lots')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText('Ship Lantern');
    expect(api.lotQuery(1)).toEqual({ q: 'lamp', sort: 'price_asc', cursor: 'c1' });
    expect(cardIds()).toEqual(['lot-card-LAMP', 'lot-card-GLOBE', 'lot-card-LANTERN']);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(screen.getByText('All 3 lots shown')).toBeTruthy();
  });

  it('says how many lots were found, "1,000+" past what the server counts', async () => {
    expect(countText(1)).toBe('1 lot');
    expect(countText(24)).toBe('24 lots');
    expect(countText(1000)).toBe('1,000 lots');
    expect(countText(1001)).toBe('1,000+ lots');
    stubApi([jsonResponse(200, lotPage([lamp], 'c1', 1001))]);
    renderPage();
    expect(await screen.findByRole('heading', { name: '1,000+ lots' })).toBeTruthy();
    // No total beside the button when it is only a lower bound.
    expect(screen.getByText('Showing 1 lots')).toBeTruthy();
  });

  it('with nothing found, says what was searched and offers to remove the filters', async () => {
    const api = stubApi([jsonResponse(200, lotPage([], null, 0)), jsonResponse(200, lotPage([lamp], null, 1))]);
    renderPage('/user/search?q=zeppelin&category=lighting&buy_now=1');
    expect(await screen.findByText('No lots found for “zeppelin”, in Lighting, with Buy now')).toBeTruthy();
    expect(screen.getByText(/Try removing some filters/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: '0 lots' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove filters' }));
    expect(location()).toBe('/user/search?q=zeppelin');
    await screen.findByText('Brass Desk Lamp');
    expect(api.lotQuery(1)).toEqual({ q: 'zeppelin' });
  });

  it('a failed read says so, and Retry reads again', async () => {
    stubApi([jsonResponse(500, { error: 'Something went wrong', code: 'INTERNAL' }), jsonResponse(200, lotPage([lamp], null, 1))]);
    renderPage();
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('Brass Desk Lamp');
  });

  it('watches the auctions of its lots and folds their bids and sales into the cards', async () => {
    const watch = vi.fn();
    const unwatch = vi.fn();
    useLive.setState({ watch, unwatch });
    stubApi([jsonResponse(200, lotPage([lamp, lantern, globe], null, 3))]);
    const view = renderPage();
    await screen.findByText('Brass Desk Lamp');
    await waitFor(() => expect(watch).toHaveBeenCalledTimes(2));
    expect(watch.mock.calls.map(([id]) => id as string).sort()).toEqual(['AUC-1', 'AUC-2']);

    const placed = (product_id: string, highest_bid: number, bid_count: number, version: number, buy_now_available: boolean) => ({
      event: 'bid:placed' as const,
      data: {
        auction_id: 'AUC-1', product_id, bid_id: version, highest_bid, bid_count, version, bidder: 'r***i', amount: highest_bid,
        timestamp: at(0), min_next_bid: highest_bid + 50, reserve_met: null, buy_now_available, auto: false, server_time: at(0),
      },
    });
    act(() => injectLiveEvent(placed('LAMP', 600, 1, 5, false)));
    expect(card('LAMP').getByText('Highest bid')).toBeTruthy();
    expect(card('LAMP').getByText('₹600')).toBeTruthy();
    expect(card('LAMP').getByText('1 bid')).toBeTruthy();
    expect(card('LAMP').queryByText(/Buy now/)).toBeNull();
    // An older frame changes nothing.
    act(() => injectLiveEvent(placed('LAMP', 550, 1, 4, true)));
    expect(card('LAMP').getByText('₹600')).toBeTruthy();
    // A cancelled lead brings the Buy now price back.
    act(() => injectLiveEvent({ event: 'bid:rolledback', data: { auction_id: 'AUC-1', product_id: 'LAMP', highest_bid: 0, bid_count: 0, version: 6, min_next_bid: 500, reserve_met: null, buy_now_available: true, server_time: at(0) } }));
    expect(card('LAMP').getByText('Starting bid')).toBeTruthy();
    expect(card('LAMP').getByText(/Buy now ₹4,000/)).toBeTruthy();

    act(() => injectLiveEvent({ event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'GLOBE', amount: 1200, version: 9, buy_now: true, server_time: at(0) } }));
    expect(card('GLOBE').getByText('Sold for')).toBeTruthy();
    expect(card('GLOBE').getByText('₹1,200')).toBeTruthy();
    expect(card('GLOBE').getByText('Sold')).toBeTruthy();

    view.unmount();
    expect(unwatch.mock.calls.map(([id]) => id as string).sort()).toEqual(['AUC-1', 'AUC-2']);
  });

  it('a bid that lands while a page is on its way is folded into that page', async () => {
    let answer: (r: Response) => void = () => undefined;
    stubApi([() => new Promise<Response>((resolve) => { answer = resolve; })]);
    renderPage();
    await waitFor(() => expect(screen.getByText('Searching…')).toBeTruthy());
    act(() => injectLiveEvent({
      event: 'bid:placed',
      data: {
        auction_id: 'AUC-2', product_id: 'LANTERN', bid_id: 1, highest_bid: 2000, bid_count: 5, version: 3, bidder: 'r***i', amount: 2000,
        timestamp: at(0), min_next_bid: 2100, reserve_met: null, buy_now_available: false, auto: false, server_time: at(0),
      },
    }));
    await act(async () => answer(jsonResponse(200, lotPage([lantern], null, 1))));
    await screen.findByText('Ship Lantern');
    expect(card('LANTERN').getByText('₹2,000')).toBeTruthy();
    expect(card('LANTERN').getByText('5 bids')).toBeTruthy();
  });

  it('reads the next page while the end of the list is in view', async () => {
    // As a browser's observer does: a callback on observe() with whether the sentinel is in view now.
    let inView = false;
    const observers = new Set<() => void>();
    vi.stubGlobal('IntersectionObserver', class {
      callback: IntersectionObserverCallback;
      constructor(callback: IntersectionObserverCallback) { this.callback = callback; }
      observe(target: Element) {
        const fire = () => this.callback([{ isIntersecting: inView, target } as unknown as IntersectionObserverEntry], this as unknown as IntersectionObserver);
        observers.add(fire);
        queueMicrotask(fire);
      }
      disconnect() { observers.clear(); }
    });
    const api = stubApi([jsonResponse(200, lotPage([lamp], 'c1', 3)), jsonResponse(200, lotPage([globe], 'c2', 3)), jsonResponse(200, lotPage([lantern], null, 3))]);
    renderPage();
    await screen.findByText('Brass Desk Lamp');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(api.lotCalls()).toHaveLength(1);
    // Scrolled to the end: the next page, and (the end still in view) the one after.
    inView = true;
    act(() => observers.forEach((fire) => fire()));
    await screen.findByText('Ship Lantern');
    expect(api.lotQuery(1)).toMatchObject({ cursor: 'c1' });
    expect(api.lotQuery(2)).toMatchObject({ cursor: 'c2' });
    expect(cardIds()).toEqual(['lot-card-LAMP', 'lot-card-GLOBE', 'lot-card-LANTERN']);
  });
});
