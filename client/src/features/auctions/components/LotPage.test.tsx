/** The lot page (/auctions/:auctionId/products/:productId): its read, its gallery, live numbers and history, its dialogs. */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { wireBidStatus, type BidStatus, type LotHistoryEntry, type LotPage as LotPageData, type Product } from '@auction/shared';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { LOT_REREAD_MS } from '../store/lot-store';
import { LocationSearchProbe, T0, callsTo, inHours, makeAuction, makeProduct, placedEvent, routeFetch, setUpUser, tearDownStores } from '../test/fixtures';
import { LotPage } from './LotPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const watches = makeAuction({ id: 'AUC-1', name: 'Vintage Watches', valid_until: inHours(72), registered: true, registrations: [7], product_ids: ['P-1'] });
const photos = [1, 2, 3].map((n) => ({ id: n, url: `/media/full${n}.webp`, thumb_url: `/media/thumb${n}.webp` }));
const rolex = makeProduct({ id: 'P-1', name: 'Rolex Datejust', description: '1978, steel case.\nServiced.', highest_bid: 1200, bid_count: 2, images: photos, saved: false });
/** A history entry as the server sends it: its full `state` (default outbid) and the spec's `status` beside it. */
const entry = ({ state = 'outbid', ...over }: Partial<LotHistoryEntry> & { state?: BidStatus }): LotHistoryEntry => ({
  bid_id: 1, amount: 1000, status: wireBidStatus(state), state, timestamp: T0, bidder: 'Bidder 1', auto: false, buy_now: false, ...over,
});
const history = [entry({ bid_id: 2, amount: 1200, state: 'success', bidder: 'Bidder 2' }), entry({ bid_id: 1, amount: 1000, bidder: 'You' })];
const page = (product: Product, over: Partial<LotPageData> = {}): LotPageData => ({ ...product, auction: watches, bids: history, bids_next_before: null, ...over });

function routes(lot: LotPageData | ReturnType<typeof jsonResponse> = page(rolex), products: Product[] = [rolex]) {
  return routeFetch({
    'GET /api/products/P-1': 'status' in lot && typeof lot.status === 'number' ? lot : jsonResponse(200, lot),
    'GET /api/auctions/AUC-1/products': jsonResponse(200, products),
    'GET /api/auctions/AUC-9/products': jsonResponse(200, []),
    'POST /api/wallet': jsonResponse(200, { wallet_balance: 5000, on_hold: 0 }),
  });
}

function renderPage(url = '/auctions/AUC-1/products/P-1') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/auctions/:auctionId/products/:productId" element={<LotPage />} />
        <Route path="*" element={null} />
      </Routes>
      <LocationSearchProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

const gallery = () => screen.getByRole('region', { name: 'Photos of Rolex Datejust' });
const shownPhoto = () => within(gallery()).getAllByRole('img')[0]!;
const historyEntries = () => [...document.querySelectorAll('.lot-entry')].map((li) => li.textContent);

describe('LotPage', () => {
  let live: ReturnType<typeof setUpUser>;
  beforeEach(() => {
    resetAppState();
    live = setUpUser();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
  });

  it('shows the lot: name, description, price, the caller’s state, its auction, history with aliases and You; watches the auction', async () => {
    routes(page({ ...rolex, my_status: 'outbid' }), [{ ...rolex, my_status: 'outbid' }]);
    renderPage();
    expect(await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' })).toBeTruthy();
    expect(live.watch).toHaveBeenCalledWith('AUC-1');
    expect(screen.getByText(/1978, steel case\.\s+Serviced\./)).toBeTruthy();
    expect(screen.getByText('Highest bid', { selector: '.lot-price p' })).toBeTruthy();
    expect(document.querySelector('.lot-amount')?.textContent).toBe('₹1,200');
    // The phone's bid bar repeats the price for the eye only (hidden from assistive technology).
    expect(document.querySelector('.lot-actions-bar .lot-bar-price')?.getAttribute('aria-hidden')).toBe('true');
    expect(document.querySelector('.lot-bar-price')?.textContent).toBe('Highest bid₹1,200');
    expect(screen.getByText(/2 bids · Minimum next bid ₹1,201/)).toBeTruthy();
    expect(screen.getByText('Outbid — bid again')).toBeTruthy();
    expect(screen.getByText('Vintage Watches', { selector: '.lot-auction-name' })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('3d 0h 0m');
    expect(historyEntries()).toEqual([expect.stringMatching(/^Bidder 2₹1,200.*Leading$/), expect.stringMatching(/^You₹1,000/)]);
    expect(screen.getByRole('link', { name: /Back to Vintage Watches/ }).getAttribute('href')).toBe('/user/auctions?auction=AUC-1&lot=P-1');
  });

  it('moves through the photos by arrow keys, Home and End, the buttons and the thumbnails', async () => {
    routes();
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    expect(shownPhoto().getAttribute('alt')).toBe('Rolex Datejust, photo 1 of 3');
    expect(shownPhoto().getAttribute('src')).toBe('/media/full1.webp');
    fireEvent.keyDown(gallery(), { key: 'ArrowRight' });
    expect(shownPhoto().getAttribute('src')).toBe('/media/full2.webp');
    expect(within(gallery()).getByText('2 / 3')).toBeTruthy();
    fireEvent.keyDown(gallery(), { key: 'End' });
    expect(shownPhoto().getAttribute('src')).toBe('/media/full3.webp');
    // Round the end to the start, and back.
    fireEvent.keyDown(gallery(), { key: 'ArrowRight' });
    expect(shownPhoto().getAttribute('src')).toBe('/media/full1.webp');
    fireEvent.keyDown(gallery(), { key: 'ArrowLeft' });
    expect(shownPhoto().getAttribute('src')).toBe('/media/full3.webp');
    fireEvent.keyDown(gallery(), { key: 'Home' });
    expect(shownPhoto().getAttribute('src')).toBe('/media/full1.webp');
    fireEvent.click(within(gallery()).getByRole('button', { name: 'Next photo' }));
    expect(shownPhoto().getAttribute('src')).toBe('/media/full2.webp');
    const third = within(gallery()).getByRole('button', { name: 'Show photo 3 of 3' });
    fireEvent.click(third);
    expect(shownPhoto().getAttribute('src')).toBe('/media/full3.webp');
    expect(third.getAttribute('aria-current')).toBe('true');
    expect(third.querySelector('img')?.getAttribute('src')).toBe('/media/thumb3.webp');
  });

  it('a lot without photos says so, with no gallery controls', async () => {
    routes(page({ ...rolex, images: [] }), [{ ...rolex, images: [] }]);
    renderPage();
    expect(await screen.findByRole('img', { name: 'No photos of Rolex Datejust yet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next photo' })).toBeNull();
  });

  it('a live bid moves the price at once and the history after one re-read of the lot, however many bids arrive', async () => {
    const fetch = routes();
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    await waitFor(() => expect(callsTo(fetch, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(1));
    const reads = () => callsTo(fetch, 'GET', '/api/products/P-1').length;
    expect(reads()).toBe(1);
    routes(page({ ...rolex, highest_bid: 1500, bid_count: 4 }, { bids: [entry({ bid_id: 4, amount: 1500, state: 'success', bidder: 'Bidder 3' }), ...history] }), [rolex]);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => injectLiveEvent(placedEvent({ bid_id: 3, highest_bid: 1400, bid_count: 3, version: 3 })));
    act(() => injectLiveEvent(placedEvent({ bid_id: 4, highest_bid: 1500, bid_count: 4, version: 4 })));
    expect(document.querySelector('.lot-amount')?.textContent).toBe('₹1,500');
    expect(screen.getByText(/4 bids/)).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LOT_REREAD_MS);
    });
    vi.useRealTimers();
    await waitFor(() => expect(historyEntries()[0]).toMatch(/^Bidder 3₹1,500/));
    const after = callsTo(fetch, 'GET', '/api/products/P-1').length;
    expect(after).toBe(1);
  });

  it('a long history: Load more (a button the keyboard reaches) adds the next page; a re-read after a live bid reads as far again', async () => {
    const older = [entry({ bid_id: 0, amount: 900, bidder: 'Bidder 2' }), entry({ bid_id: -1, amount: 800, bidder: 'Bidder 1' })];
    const pages: LotHistoryEntry[][] = [older.slice(0, 1), older.slice(1)];
    let served = 0;
    const fetch = routeFetch({
      'GET /api/products/P-1': jsonResponse(200, page(rolex, { bids_next_before: '100000.1.0.1' })),
      'GET /api/products/P-1/bids': () => {
        const bids = pages[served % 2]!;
        served++;
        return jsonResponse(200, { bids, next_before: served % 2 === 1 ? '90000.1.0.0' : null });
      },
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [rolex]),
      'POST /api/wallet': jsonResponse(200, { wallet_balance: 5000, on_hold: 0 }),
    });
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    expect(historyEntries()).toHaveLength(2);
    expect(screen.getByRole('heading', { level: 2, name: /Bid history/ }).textContent).toBe('Bid history (2+)');
    const more = screen.getByRole('button', { name: 'Load more' });
    expect(more.tagName).toBe('BUTTON');
    more.focus();
    fireEvent.click(more);
    await waitFor(() => expect(historyEntries()).toHaveLength(3));
    const url = (n: number) => fetch.mock.calls.filter(([u]) => u.startsWith('/api/products/P-1/bids'))[n]![0];
    expect(url(0)).toBe('/api/products/P-1/bids?before=100000.1.0.1');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Load more' }));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(historyEntries()).toHaveLength(4));
    expect(url(1)).toBe('/api/products/P-1/bids?before=90000.1.0.0');
    const whoAndHowMuch = [...document.querySelectorAll('.lot-entry')].map((li) => `${li.querySelector('.lot-entry-bidder')!.textContent} ${li.querySelector('.lot-entry-amount')!.textContent}`);
    expect(whoAndHowMuch).toEqual(['Bidder 2 ₹1,200', 'You ₹1,000', 'Bidder 2 ₹900', 'Bidder 1 ₹800']);
    expect(screen.getByRole('heading', { level: 2, name: /Bid history/ }).textContent).toBe('Bid history (4)');
    expect(document.activeElement).toBe(screen.getByText('All bids shown'));

    // A live bid: the lot is read again, as far as it is shown (two more requests, the last asking for what is left).
    act(() => injectLiveEvent(placedEvent({ bid_id: 3, highest_bid: 1400, bid_count: 3, version: 3 })));
    await waitFor(() => expect(callsTo(fetch, 'GET', '/api/products/P-1')).toHaveLength(2));
    await waitFor(() => expect(served).toBe(4));
    expect(url(2)).toBe('/api/products/P-1/bids?before=100000.1.0.1&limit=2');
    await waitFor(() => expect(historyEntries()).toHaveLength(4));
  });

  it('Place Bid opens the bid dialog on this lot (its auction from the lot’s own read); Share copies the address', async () => {
    const api = routes();
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    const placeBid = screen.getByRole<HTMLButtonElement>('button', { name: 'Place Bid' });
    await waitFor(() => expect(placeBid.disabled).toBe(false));
    fireEvent.click(placeBid);
    const dialog = await screen.findByRole('dialog', { name: 'Place Bid' });
    expect(within(dialog).getByText('Rolex Datejust')).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Your bid (₹)').value).toBe('1201');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // The lot, its auction's lots and the balance the dialog shows: never the whole auction list.
    expect(new Set(api.mock.calls.map(([url]) => url))).toEqual(new Set(['/api/products/P-1', '/api/auctions/AUC-1/products', '/api/wallet']));

    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, share: undefined, clipboard: { writeText } });
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    await screen.findByText('Link copied');
    expect(writeText).toHaveBeenCalledWith(window.location.href);
  });

  it('an unregistered bidder is offered Register to bid; an ended auction closes bidding', async () => {
    const fetch = routes();
    vi.mocked(fetch).mockImplementation(async (url: string) => {
      const path = url.split('?')[0];
      if (path === '/api/products/P-1') return jsonResponse(200, page(rolex, { auction: { ...watches, registered: false, registrations: [] } }));
      return jsonResponse(200, [rolex]);
    });
    renderPage();
    expect(await screen.findByRole('button', { name: 'Register to bid' })).toBeTruthy();
    expect(screen.getByText('Register for this auction to place bids.')).toBeTruthy();
    cleanup();
    resetAppState();
    setUpUser();
    const ended = { ...watches, valid_until: inHours(-1), status: 'ended' as const };
    routeFetch({
      'GET /api/products/P-1': jsonResponse(200, page(rolex, { auction: ended })),
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [rolex]),
    });
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    expect(screen.getByRole('timer').textContent).toBe('Bidding closed');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Place Bid' }).disabled).toBe(true);
    expect(screen.getByText('This auction has ended.')).toBeTruthy();
  });

  it('Register to bid registers, and the page shows the caller registered at once (Place Bid)', async () => {
    const api = routeFetch({
      'GET /api/products/P-1': jsonResponse(200, page(rolex, { auction: { ...watches, registered: false, registrations: [] } })),
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [rolex]),
      'POST /api/auctions/register': jsonResponse(200, { message: 'Successfully registered for auction!' }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Register to bid' }));
    await screen.findByText('Successfully registered for auction!');
    await waitFor(() => expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Place Bid' }).disabled).toBe(false));
    expect(screen.queryByText('Register for this auction to place bids.')).toBeNull();
    expect(callsTo(api, 'POST', '/api/auctions/register')).toHaveLength(1);
    expect(callsTo(api, 'GET', '/api/auctions')).toHaveLength(0);
  });

  it('follows its auction live: soft close moves the end, the end closes bidding', async () => {
    const end = inHours(1);
    routes(page(rolex, { auction: { ...watches, valid_until: end, original_valid_until: end } }));
    renderPage();
    await screen.findByRole('heading', { level: 2, name: 'Rolex Datejust' });
    const later = new Date(Date.parse(end) + 120_000).toISOString();
    act(() => injectLiveEvent({ event: 'auction:extended', data: { server_time: T0, auction_id: 'AUC-1', valid_until: later, original_valid_until: end } }));
    expect(document.querySelector('.lot-timing time')?.getAttribute('datetime')).toBe(later);
    act(() => injectLiveEvent({ event: 'auction:ended', data: { server_time: T0, auction_id: 'AUC-1' } }));
    expect(screen.getByRole('timer').textContent).toBe('Bidding closed');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Place Bid' }).disabled).toBe(true);
  });

  it('a lot that moved to another auction leads there; one in no auction says so; an unknown one is not found', async () => {
    routes(page({ ...rolex, auction_id: 'AUC-9' }, { auction: { ...watches, id: 'AUC-9' } }));
    renderPage();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/auctions/AUC-9/products/P-1'));
    cleanup();
    resetAppState();
    setUpUser();

    routes(page({ ...rolex, auction_id: null }, { auction: null, bids: [] }), []);
    renderPage();
    expect(await screen.findByText('This lot is not in an auction right now.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Place Bid' })).toBeNull();
    expect(screen.getByText('No bids yet')).toBeTruthy();
    cleanup();
    resetAppState();
    setUpUser();

    routes(jsonResponse(404, { error: 'Product not found', message: 'Product not found', code: 'NOT_FOUND' }));
    renderPage();
    expect(await screen.findByText('This lot no longer exists')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse Auctions' }).getAttribute('href')).toBe('/user/auctions');
  });
});
