import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { formatDateTime } from '../../../lib/format';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent, useClock, useLive } from '../../live';
import {
  LocationSearchProbe, NOW, callsTo, inHours, makeAuction, makeProduct, routeFetch, setUpUser, tearDownStores,
} from '../test/fixtures';
import { BrowseAuctionsPage } from './BrowseAuctionsPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const T = new Date(NOW).toISOString();

const watches = makeAuction({ id: 'AUC-1', name: 'Vintage Watches', valid_until: inHours(72), registered: true, registrations: [7], product_ids: ['P-1', 'P-2'], product_count: 2 });
const maps = makeAuction({ id: 'AUC-2', name: 'Old Maps', valid_until: inHours(0.5), product_ids: ['M-1'] });
const coins = makeAuction({ id: 'OLD-3', name: 'Rare Coins', valid_until: inHours(-1), status: 'ended', registered: true, product_ids: ['C-1'] });

const watchProducts = [
  makeProduct({ id: 'P-1', name: 'Rolex Datejust', description: '1978, steel case', highest_bid: 125000, bid_count: 4 }),
  makeProduct({ id: 'P-2', name: 'Omega Seamaster', description: 'Sold last week', status: 'sold', highest_bid: 5000, bid_count: 2 }),
];

function routes(over: Parameters<typeof routeFetch>[0] = {}) {
  return routeFetch({
    'GET /api/auctions': jsonResponse(200, [watches, maps, coins]),
    'GET /api/auctions/AUC-1/products': jsonResponse(200, watchProducts),
    'GET /api/auctions/AUC-2/products': jsonResponse(200, [makeProduct({ id: 'M-1', name: 'Bengal 1780', auction_id: 'AUC-2' })]),
    'GET /api/auctions/OLD-3/products': jsonResponse(200, [makeProduct({ id: 'C-1', name: 'Gold Mohur', auction_id: 'OLD-3', highest_bid: 900, bid_count: 1 })]),
    'POST /api/auctions/register': jsonResponse(200, { message: 'Successfully registered for auction!' }),
    ...over,
  });
}

function renderPage(url = '/user/auctions') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/user/auctions" element={<BrowseAuctionsPage />} />
      </Routes>
      <LocationSearchProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

const card = (name: string) => screen.getByRole('article', { name });
const findCard = (name: string) => screen.findByRole('article', { name });
const panel = () => screen.getByRole('region');
const toasts = () => [...document.querySelectorAll('.toast-message')].map((n) => n.textContent);
const button = (scope: HTMLElement, name: string) => within(scope).getByRole<HTMLButtonElement>('button', { name });

async function openProducts(name: string) {
  fireEvent.click(button(await findCard(name), 'View Products'));
  return within(panel());
}

describe('BrowseAuctionsPage', () => {
  let live: ReturnType<typeof setUpUser>;
  beforeEach(() => {
    resetAppState();
    live = setUpUser();
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
  });

  it('shows each auction with its id, end time, countdown and badge', async () => {
    routes();
    renderPage();

    const a = within(await findCard('Vintage Watches'));
    expect(a.getByText('ID: AUC-1')).toBeTruthy();
    expect(a.getByText(formatDateTime(watches.valid_until))).toBeTruthy();
    expect(a.getByRole('timer').textContent).toBe('3d 0h 0m');
    expect(a.getByText('Active').className).toContain('badge-success');

    const m = within(card('Old Maps'));
    expect(m.getByRole('timer').textContent).toBe('30m');
    expect(m.getByText('Active').className).toContain('badge-warning');

    const c = within(card('Rare Coins'));
    expect(c.getByRole('timer').textContent).toBe('Ended');
    expect(c.getAllByText('Ended').some((n) => n.className.includes('badge-danger'))).toBe(true);
  });

  it('counts down with the shared clock and shows Ended at zero, disabling Register', async () => {
    routes();
    renderPage();
    const m = within(await findCard('Old Maps'));
    expect(button(card('Old Maps'), 'Register').disabled).toBe(false);

    act(() => useClock.setState({ now: NOW + 61_000 }));
    expect(m.getByRole('timer').textContent).toBe('28m');

    act(() => useClock.setState({ now: NOW + 30 * 60_000 }));
    expect(m.getByRole('timer').textContent).toBe('Ended');
    expect(m.getAllByText('Ended').some((n) => n.className.includes('badge-danger'))).toBe(true);
    expect(button(card('Old Maps'), 'Register').disabled).toBe(true);
  });

  it('shows the Registered tag instead of Register for registered auctions', async () => {
    routes();
    renderPage();
    const a = within(await findCard('Vintage Watches'));
    expect(a.getByText('Registered')).toBeTruthy();
    expect(a.queryByRole('button', { name: 'Register' })).toBeNull();
    expect(within(card('Old Maps')).queryByText('Registered')).toBeNull();
  });

  it('searches by name or id, case-insensitive, and says when nothing matches', async () => {
    routes();
    renderPage();
    await findCard('Vintage Watches');
    const search = screen.getByLabelText('Search auctions by name or ID');

    fireEvent.change(search, { target: { value: 'MAPS' } });
    expect(screen.getAllByRole('article').map((n) => within(n).getByRole('heading').textContent)).toEqual(['Old Maps']);

    fireEvent.change(search, { target: { value: 'old-' } });
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Rare Coins' })).toBeTruthy();

    fireEvent.change(search, { target: { value: 'auc' } });
    expect(screen.getAllByRole('article')).toHaveLength(2);

    fireEvent.change(search, { target: { value: 'furniture' } });
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByText('No auctions found')).toBeTruthy();
  });

  it('?registered=1 shows only registered auctions, says so, and can be cleared', async () => {
    routes();
    renderPage('/user/auctions?registered=1');
    await findCard('Vintage Watches');
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('article', { name: 'Old Maps' })).toBeNull();
    expect(screen.getByText('Showing only auctions you registered for.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Registered only' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions');
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.queryByText('Showing only auctions you registered for.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Registered only' }));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions?registered=1');
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('registers for an auction: POST as the user, toast, and the button becomes the Registered tag', async () => {
    const fetchMock = routes();
    renderPage();
    fireEvent.click(button(await findCard('Old Maps'), 'Register'));

    await waitFor(() => expect(within(card('Old Maps')).getByText('Registered')).toBeTruthy());
    expect(within(card('Old Maps')).queryByRole('button', { name: 'Register' })).toBeNull();
    const [call] = callsTo(fetchMock, 'POST', '/api/auctions/register');
    expect(call?.body).toEqual({ auction_id: 'AUC-2' });
    expect(call?.headers.authorization).toBe('Bearer u-tok');
    expect(toasts()).toContain('Successfully registered for auction!');
    expect(document.activeElement?.textContent).toContain('Registered');
  });

  it('shows the server error, or "Failed to register", when registration fails', async () => {
    routes({ 'POST /api/auctions/register': jsonResponse(409, { error: 'This auction has ended', message: 'This auction has ended', code: 'AUCTION_ENDED' }) });
    renderPage();
    fireEvent.click(button(await findCard('Old Maps'), 'Register'));
    await waitFor(() => expect(toasts()).toContain('This auction has ended'));
    expect(button(card('Old Maps'), 'Register').disabled).toBe(false);

    routes({ 'POST /api/auctions/register': new TypeError('Failed to fetch') });
    fireEvent.click(button(card('Old Maps'), 'Register'));
    await waitFor(() => expect(toasts()).toContain('Failed to register'));
  });

  it('opens the products of an auction, watching it live, and closes them again', async () => {
    routes();
    renderPage();
    await findCard('Vintage Watches');
    expect(within(panel()).getByText('Select an Auction')).toBeTruthy();

    const p = await openProducts('Vintage Watches');
    expect(live.watch).toHaveBeenCalledWith('AUC-1');
    const rolex = within(await p.findByRole('listitem', { name: 'Rolex Datejust' }));
    expect(rolex.getByText('ID: P-1')).toBeTruthy();
    expect(rolex.getByText('1978, steel case')).toBeTruthy();
    expect(rolex.getByText('Available').className).toContain('badge-success');
    expect(rolex.getByText('₹1,25,000')).toBeTruthy();
    expect(rolex.getByText('4')).toBeTruthy();
    expect(within(p.getByRole('listitem', { name: 'Omega Seamaster' })).getByText('Sold').className).toContain('badge-info');
    expect(button(card('Vintage Watches'), 'View Products').getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(button(card('Old Maps'), 'View Products'));
    expect(live.unwatch).toHaveBeenCalledWith('AUC-1');
    expect(live.watch).toHaveBeenLastCalledWith('AUC-2');
    const bengal = within(await within(panel()).findByRole('listitem', { name: 'Bengal 1780' }));
    expect(bengal.getByText('₹0')).toBeTruthy();

    fireEvent.click(within(panel()).getByRole('button', { name: 'Close products' }));
    expect(live.unwatch).toHaveBeenLastCalledWith('AUC-2');
    expect(within(panel()).getByText('Select an Auction')).toBeTruthy();
  });

  it('says when an auction has no products, and when products fail to load', async () => {
    routes({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, []),
      'GET /api/auctions/AUC-2/products': jsonResponse(500, { error: 'Internal server error', message: 'Internal server error', code: 'INTERNAL' }),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    expect(await p.findByText('No products in this auction')).toBeTruthy();

    fireEvent.click(button(card('Old Maps'), 'View Products'));
    await waitFor(() => expect(toasts()).toContain('Internal server error'));
    expect(within(panel()).getByText('Failed to load products')).toBeTruthy();
  });

  it('toasts "Failed to load products" when the server gives no reason', async () => {
    routes({ 'GET /api/auctions/AUC-1/products': new TypeError('Failed to fetch') });
    renderPage();
    await openProducts('Vintage Watches');
    await waitFor(() => expect(toasts()).toContain('Failed to load products'));
  });

  it('toasts "Failed to load auctions" and shows the empty state when the list fails', async () => {
    routes({ 'GET /api/auctions': new TypeError('Failed to fetch') });
    renderPage();
    await waitFor(() => expect(toasts()).toContain('Failed to load auctions'));
    expect(screen.getByText('No auctions found')).toBeTruthy();
  });

  it('enables Place Bid only while the product is available and the auction open', async () => {
    routes();
    renderPage();
    let p = await openProducts('Vintage Watches');
    await p.findByRole('listitem', { name: 'Rolex Datejust' });
    expect(button(p.getByRole('listitem', { name: 'Rolex Datejust' }), 'Place Bid').disabled).toBe(false);
    expect(button(p.getByRole('listitem', { name: 'Omega Seamaster' }), 'Place Bid').disabled).toBe(true);

    p = await openProducts('Rare Coins');
    await p.findByRole('listitem', { name: 'Gold Mohur' });
    expect(button(p.getByRole('listitem', { name: 'Gold Mohur' }), 'Place Bid').disabled).toBe(true);
  });

  it('shows "Register to bid" when not registered, and registering turns it into Place Bid', async () => {
    const fetchMock = routes();
    renderPage();
    const p = await openProducts('Old Maps');
    const row = await p.findByRole('listitem', { name: 'Bengal 1780' });
    expect(p.getByText('Register for this auction to place bids.')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Place Bid' })).toBeNull();

    fireEvent.click(button(row, 'Register to bid'));
    await waitFor(() => expect(button(row, 'Place Bid').disabled).toBe(false));
    expect(callsTo(fetchMock, 'POST', '/api/auctions/register')[0]?.body).toEqual({ auction_id: 'AUC-2' });
    expect(within(card('Old Maps')).getByText('Registered')).toBeTruthy();
    expect(p.queryByText('Register for this auction to place bids.')).toBeNull();
  });

  it('disables Register to bid once the auction has ended', async () => {
    routes({ 'GET /api/auctions': jsonResponse(200, [{ ...coins, registered: false }]) });
    renderPage();
    const p = await openProducts('Rare Coins');
    const row = await p.findByRole('listitem', { name: 'Gold Mohur' });
    expect(button(row, 'Register to bid').disabled).toBe(true);
  });

  it('updates highest bids, sold badges, endings and watchers live, highlighting the change', async () => {
    routes();
    renderPage();
    const p = await openProducts('Vintage Watches');
    const row = await p.findByRole('listitem', { name: 'Rolex Datejust' });
    expect(row.className).not.toContain('auc-product-flash');

    act(() => injectLiveEvent({
      event: 'bid:placed',
      data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 11, highest_bid: 130000, bid_count: 5, version: 5, bidder: 'r***i', amount: 130000, timestamp: T, server_time: T },
    }));
    expect(within(row).getByText('₹1,30,000')).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy();
    expect(row.className).toContain('auc-product-flash');
    expect(within(row).getByText('New')).toBeTruthy();

    act(() => injectLiveEvent({ event: 'auction:watchers', data: { auction_id: 'AUC-1', watchers: 3, server_time: T } }));
    expect(within(card('Vintage Watches')).getByText(/3 watching/)).toBeTruthy();

    act(() => injectLiveEvent({ event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 130000, version: 6, server_time: T } }));
    expect(within(row).getByText('Sold')).toBeTruthy();
    expect(button(row, 'Place Bid').disabled).toBe(true);

    act(() => injectLiveEvent({ event: 'auction:ended', data: { auction_id: 'AUC-2', server_time: T } }));
    expect(within(card('Old Maps')).getByRole('timer').textContent).toBe('Ended');
  });

  it('adds, updates and removes auctions from catalogue events', async () => {
    routes();
    renderPage();
    await findCard('Vintage Watches');
    const base = { valid_until: inHours(48), product_count: 1, status: 'active' as const, server_time: T };

    act(() => injectLiveEvent({ event: 'auction:created', data: { ...base, id: 'NEW-1', name: 'Antique Clocks' } }));
    expect(screen.getAllByRole('article')[0]?.textContent).toContain('Antique Clocks');

    act(() => injectLiveEvent({ event: 'auction:updated', data: { ...base, id: 'AUC-1', name: 'Watches and Clocks', product_count: 2 } }));
    expect(within(card('Watches and Clocks')).getByText('Registered')).toBeTruthy();

    act(() => injectLiveEvent({ event: 'auction:deleted', data: { id: 'AUC-2', server_time: T } }));
    expect(screen.queryByRole('article', { name: 'Old Maps' })).toBeNull();
  });

  it('closes the panel when its auction is deleted', async () => {
    routes();
    renderPage();
    const p = await openProducts('Old Maps');
    await p.findByRole('listitem', { name: 'Bengal 1780' });
    act(() => injectLiveEvent({ event: 'auction:deleted', data: { id: 'AUC-2', server_time: T } }));
    await waitFor(() => expect(within(panel()).getByText('Select an Auction')).toBeTruthy());
    expect(live.unwatch).toHaveBeenCalledWith('AUC-2');
  });

  it('after a reconnect shows the bids and auctions the dropped connection missed', async () => {
    let server = { auctions: [watches, maps, coins], products: watchProducts };
    const fetchMock = routes({
      'GET /api/auctions': () => jsonResponse(200, server.auctions),
      'GET /api/auctions/AUC-1/products': () => jsonResponse(200, server.products),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    const row = await p.findByRole('listitem', { name: 'Rolex Datejust' });
    useLive.getState().connect('u-tok');
    act(() => lastSocket().open());

    const stamps = makeAuction({ id: 'AUC-9', name: 'Rare Stamps', product_ids: ['S-1'] });
    server = { auctions: [stamps, watches, maps, coins], products: [{ ...watchProducts[0]!, highest_bid: 140000, bid_count: 6, version: 6 }, watchProducts[1]!] };
    act(() => reconnect());
    await waitFor(() => expect(within(row).getByText('₹1,40,000')).toBeTruthy());
    expect(await findCard('Rare Stamps')).toBeTruthy();
    expect(callsTo(fetchMock, 'GET', '/api/auctions')).toHaveLength(2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
  });
});
