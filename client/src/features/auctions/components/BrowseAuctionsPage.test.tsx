import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { formatDateTime } from '../../../lib/format';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, setServerNow } from '../../../test/utils';
import { injectLiveEvent, useLive } from '../../../lib/live';
import {
  LocationSearchProbe, NOW, callsTo, catalogueRoutes, inHours, liveAuction, makeAuction, makeProduct, placedEvent, routeFetch, setUpUser, soldEvent, tearDownStores,
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

function routes(over: Parameters<typeof routeFetch>[0] = {}, auctions = [watches, maps, coins]) {
  return routeFetch({
    ...catalogueRoutes({
      auctions,
      products: {
        'AUC-1': watchProducts,
        'AUC-2': [makeProduct({ id: 'M-1', name: 'Bengal 1780', auction_id: 'AUC-2' })],
        'OLD-3': [makeProduct({ id: 'C-1', name: 'Gold Mohur', auction_id: 'OLD-3', highest_bid: 900, bid_count: 1 })],
      },
    }),
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

/** Selects a Browse view tab: Active, Ending soon or Ended. */
const showView = (label: RegExp) => fireEvent.click(screen.getByRole('tab', { name: label }));

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
    expect(m.getByRole('timer').textContent).toBe('30m 00s');
    expect(m.getByText('Active').className).toContain('badge-warning');

    // Ended auctions are apart, in their own view.
    expect(screen.queryByRole('article', { name: 'Rare Coins' })).toBeNull();
    showView(/^Ended/);
    const c = within(await findCard('Rare Coins'));
    expect(c.getByRole('timer').textContent).toBe('Ended');
    expect(c.getAllByText('Ended').some((n) => n.className.includes('badge-danger'))).toBe(true);
  });

  it('cards show the cover photo and the highest bid, live once the auction’s products are open; rows show covers and link to lot pages', async () => {
    const cover = { url: '/media/w-full.webp', thumb_url: '/media/w-thumb.webp' };
    routes({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [
        { ...watchProducts[0]!, images: [{ id: 1, ...cover }] },
        watchProducts[1]!,
      ]),
    }, [{ ...watches, highest_bid: 125000, bid_count: 6, cover }, maps, coins]);
    renderPage();
    const w = await findCard('Vintage Watches');
    expect(w.querySelector('.auc-card-cover img')?.getAttribute('src')).toBe('/media/w-thumb.webp');
    expect(within(w).getByText('₹1,25,000').parentElement?.textContent).toBe('Highest bid ₹1,25,000');
    expect(within(w).getByText('6 bids')).toBeTruthy();
    // No photo and no bid: a placeholder and the words.
    const m = card('Old Maps');
    expect(m.querySelector('.auc-card-cover img')).toBeNull();
    expect(within(m).getByText('No bids yet')).toBeTruthy();
    expect(within(m).getByText('0 bids')).toBeTruthy();

    const products = await openProducts('Vintage Watches');
    const row = (await products.findByText('Rolex Datejust')).closest('li')!;
    expect(row.querySelector('.auc-product-thumb img')?.getAttribute('src')).toBe('/media/w-thumb.webp');
    expect(within(row).getByRole('link', { name: 'Rolex Datejust' }).getAttribute('href')).toBe('/auctions/AUC-1/products/P-1');
    act(() => injectLiveEvent(placedEvent({ bid_id: 11, highest_bid: 130000, bid_count: 7, version: 7 })));
    expect(within(card('Vintage Watches')).getByText('₹1,30,000').parentElement?.textContent).toBe('Highest bid ₹1,30,000');
    expect(within(card('Vintage Watches')).getByText('9 bids')).toBeTruthy();
  });

  it('views: Active ending soonest first, Ending soon within a day, Ended apart; the view is in the URL', async () => {
    routes();
    renderPage();
    await findCard('Vintage Watches');
    const names = () => screen.queryAllByRole('article').map((n) => within(n).getByRole('heading').textContent);
    expect(screen.getByRole('tab', { name: /^Active/ }).getAttribute('aria-selected')).toBe('true');
    expect(names()).toEqual(['Old Maps', 'Vintage Watches']);
    expect(screen.getByRole('tab', { name: /^Ending soon/ }).textContent).toContain('1');
    showView(/^Ending soon/);
    await waitFor(() => expect(names()).toEqual(['Old Maps']));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions?show=ending');
    showView(/^Ended/);
    await waitFor(() => expect(names()).toEqual(['Rare Coins']));
  });

  it('counts down with the shared clock and shows Ended at zero, disabling Register', async () => {
    routes();
    renderPage();
    const m = within(await findCard('Old Maps'));
    expect(button(card('Old Maps'), 'Register').disabled).toBe(false);

    act(() => setServerNow(NOW + 61_000));
    expect(m.getByRole('timer').textContent).toBe('28m 59s');

    // The card stays where it was read; its countdown says it is over.
    act(() => setServerNow(NOW + 30 * 60_000));
    const ended = within(card('Old Maps'));
    expect(ended.getByRole('timer').textContent).toBe('Ended');
    expect(ended.getAllByText('Ended').some((n) => n.className.includes('badge-danger'))).toBe(true);
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

  it('?registered=1 shows only registered auctions, says so, and can be cleared', async () => {
    const fetchMock = routes();
    renderPage('/user/auctions?registered=1');
    await findCard('Vintage Watches');
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.queryByRole('article', { name: 'Old Maps' })).toBeNull();
    expect(fetchMock.mock.calls.find(([u]) => u.startsWith('/api/catalogue/auctions'))?.[0]).toContain('registered=1');
    expect(screen.getByText('Showing only auctions you registered for.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Registered only' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filter' }));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(screen.queryByText('Showing only auctions you registered for.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Registered only' }));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions?registered=1');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
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
    // No bid yet: its starting bid.
    expect(bengal.getByText('Starting bid')).toBeTruthy();
    expect(bengal.getByText('₹1')).toBeTruthy();

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

  it('says the list could not be read, with a Retry, when it fails', async () => {
    routes({ 'GET /api/catalogue/auctions': new TypeError('Failed to fetch') });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load auctions');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('enables Place Bid only while the product is available and the auction open', async () => {
    routes();
    renderPage();
    let p = await openProducts('Vintage Watches');
    await p.findByRole('listitem', { name: 'Rolex Datejust' });
    expect(button(p.getByRole('listitem', { name: 'Rolex Datejust' }), 'Place Bid').disabled).toBe(false);
    expect(button(p.getByRole('listitem', { name: 'Omega Seamaster' }), 'Place Bid').disabled).toBe(true);

    showView(/^Ended/);
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
    routes({}, [{ ...coins, registered: false }]);
    renderPage('/user/auctions?show=ended');
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

    act(() => injectLiveEvent(placedEvent({ bid_id: 11, highest_bid: 130000, bid_count: 5, version: 5 })));
    expect(within(row).getByText('₹1,30,000')).toBeTruthy();
    expect(within(row).getByText('5')).toBeTruthy();
    expect(row.className).toContain('auc-product-flash');
    expect(within(row).getByText('New')).toBeTruthy();

    act(() => injectLiveEvent({ event: 'auction:watchers', data: { auction_id: 'AUC-1', watchers: 3, server_time: T } }));
    expect(within(card('Vintage Watches')).getByText(/3 watching/)).toBeTruthy();

    act(() => injectLiveEvent(soldEvent({ amount: 130000, version: 6 })));
    expect(within(row).getByText('Sold')).toBeTruthy();
    expect(button(row, 'Place Bid').disabled).toBe(true);

    // An auction that ends leaves the Active tab.
    act(() => injectLiveEvent({ event: 'auction:ended', data: { auction_id: 'AUC-2', server_time: T } }));
    expect(screen.queryByRole('article', { name: 'Old Maps' })).toBeNull();
  });

  it('updates and removes the cards shown from catalogue events', async () => {
    routes();
    renderPage();
    await findCard('Vintage Watches');
    const base = { valid_until: inHours(48), product_count: 1 };

    act(() => injectLiveEvent({ event: 'auction:updated', data: liveAuction({ ...base, id: 'AUC-1', name: 'Watches and Clocks', product_count: 2 }) }));
    expect(within(card('Watches and Clocks')).getByText('Registered')).toBeTruthy();
    expect(within(card('Watches and Clocks')).getByText('2 lots')).toBeTruthy();

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
      'GET /api/catalogue/auctions': (body, url) => (catalogueRoutes({ auctions: server.auctions })['GET /api/catalogue/auctions'] as (b: unknown, u: string) => Response)(body, url),
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
    expect(callsTo(fetchMock, 'GET', '/api/catalogue/auctions')).toHaveLength(2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
  });
});

describe('BrowseAuctionsPage: the bidder’s own state, buy now, countdowns and soft close', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
  });

  const lots = [
    makeProduct({ id: 'L-1', name: 'Leading lot', highest_bid: 500, bid_count: 1, my_status: 'leading', my_max: 2500, reserve_met: false }),
    makeProduct({ id: 'L-2', name: 'Leading plain', highest_bid: 700, bid_count: 1, my_status: 'leading' }),
    makeProduct({ id: 'L-3', name: 'Outbid lot', highest_bid: 900, bid_count: 2, my_status: 'outbid', reserve_met: true }),
    makeProduct({ id: 'L-4', name: 'Untouched lot', starting_price: 750 }),
  ];

  const row = (name: string) => within(screen.getByRole('listitem', { name }));

  it('shows each lot’s starting bid or highest bid, the caller’s own state and the reserve while open', async () => {
    routes({ 'GET /api/auctions/AUC-1/products': jsonResponse(200, lots) });
    renderPage();
    const p = await openProducts('Vintage Watches');
    await p.findByRole('listitem', { name: 'Leading lot' });

    expect(row('Leading lot').getByText("You're the highest bidder · your maximum ₹2,500")).toBeTruthy();
    expect(row('Leading lot').getByText('Reserve not met yet')).toBeTruthy();
    expect(row('Leading plain').getByText("You're the highest bidder")).toBeTruthy();
    expect(row('Outbid lot').getByText('Outbid — bid again').className).toContain('auc-standing-outbid');
    expect(row('Outbid lot').getByText('Reserve met')).toBeTruthy();
    expect(row('Untouched lot').getByText('Starting bid')).toBeTruthy();
    expect(row('Untouched lot').getByText('₹750')).toBeTruthy();
    expect(row('Untouched lot').queryByText(/highest bidder|Outbid|You won|didn't win|Reserve/)).toBeNull();
  });

  it('once over: won, lost, and "Reserve not met"', async () => {
    routes({
      'GET /api/auctions/OLD-3/products': jsonResponse(200, [
        makeProduct({ id: 'C-1', name: 'Won lot', auction_id: 'OLD-3', status: 'sold', highest_bid: 900, bid_count: 1, my_status: 'won' }),
        makeProduct({ id: 'C-2', name: 'Lost lot', auction_id: 'OLD-3', status: 'sold', highest_bid: 1900, bid_count: 3, my_status: 'lost' }),
        makeProduct({ id: 'C-3', name: 'Outbid, now over', auction_id: 'OLD-3', highest_bid: 400, bid_count: 2, my_status: 'outbid', reserve_met: false }),
        makeProduct({ id: 'C-4', name: 'Reserve lot', auction_id: 'OLD-3', highest_bid: 300, bid_count: 1, my_status: 'leading', reserve_met: false }),
      ]),
    });
    renderPage('/user/auctions?show=ended');
    const p = await openProducts('Rare Coins');
    await p.findByRole('listitem', { name: 'Won lot' });
    expect(row('Won lot').getByText('You won').className).toContain('auc-standing-won');
    expect(row('Lost lot').getByText("You didn't win")).toBeTruthy();
    expect(row('Outbid, now over').getByText("You didn't win")).toBeTruthy();
    expect(row('Outbid, now over').queryByText('Outbid — bid again')).toBeNull();
    expect(row('Reserve lot').getByText('Reserve not met').className).toContain('auc-reserve-failed');
  });

  it('a live bid:outbid flips the row to "Outbid — bid again", and the server’s word is read again quietly', async () => {
    let reads = 0;
    const fetchMock = routes({
      'GET /api/auctions/AUC-1/products': () => jsonResponse(200, reads++ === 0
        ? [makeProduct({ id: 'P-1', name: 'Rolex Datejust', highest_bid: 1000, bid_count: 1, my_status: 'leading', my_max: 1500 })]
        : [makeProduct({ id: 'P-1', name: 'Rolex Datejust', highest_bid: 1600, bid_count: 3, my_status: 'outbid' })]),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    const rolex = within(await p.findByRole('listitem', { name: 'Rolex Datejust' }));
    expect(rolex.getByText("You're the highest bidder · your maximum ₹1,500")).toBeTruthy();

    act(() => injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'P-1', product_name: 'Rolex Datejust', highest_bid: 1600, server_time: T } }));
    expect(rolex.getByText('Outbid — bid again')).toBeTruthy();
    expect(rolex.queryByText(/highest bidder/)).toBeNull();
    await waitFor(() => expect(rolex.getByText('₹1,600')).toBeTruthy());
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    expect(rolex.getByText('Outbid — bid again')).toBeTruthy();

    // Reinstated (a rollback), then won.
    act(() => injectLiveEvent({ event: 'bid:reinstated', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 1000, server_time: T } }));
    expect(rolex.getByText("You're the highest bidder")).toBeTruthy();
    act(() => injectLiveEvent({ event: 'bid:won', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 1000, server_time: T } }));
    expect(rolex.getByText('You won')).toBeTruthy();
  });

  it('Buy now: asks first, then POST /api/buy-now; the lot shows sold and won', async () => {
    const fetchMock = routes({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ id: 'P-1', name: 'Rolex Datejust', buy_now_price: 5000 })]),
      'POST /api/buy-now': jsonResponse(201, {
        message: 'You bought Rolex Datejust!', wallet_balance: 1000, version: 1,
        bid: { bid_id: 9, product_id: 'P-1', product_name: 'Rolex Datejust', auction_id: 'AUC-1', auction_name: 'Vintage Watches', amount: 5000, timestamp: T, status: 'success', state: 'won', reason: null, buy_now: true },
      }),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    const rolex = within(await p.findByRole('listitem', { name: 'Rolex Datejust' }));
    fireEvent.click(rolex.getByRole('button', { name: 'Buy now ₹5,000' }));

    const confirm = within(screen.getByRole('dialog', { name: 'Buy now' }));
    expect(confirm.getByText(/Buy Rolex Datejust now for ₹5,000\?/)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')).toHaveLength(0);
    fireEvent.click(confirm.getByRole('button', { name: 'Buy now ₹5,000' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')[0]?.body).toEqual({ product_id: 'P-1' });
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')[0]?.headers.authorization).toBe('Bearer u-tok');
    expect(toasts()).toContain('You bought Rolex Datejust!');
    expect(rolex.getByText('Sold')).toBeTruthy();
    expect(rolex.getByText('You won')).toBeTruthy();
    expect(rolex.queryByRole('button', { name: /Buy now/ })).toBeNull();
  });

  it('Buy now refused: the server’s message, and the button goes when buy now is no longer open', async () => {
    const fetchMock = routes({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ id: 'P-1', name: 'Rolex Datejust', buy_now_price: 5000 })]),
      'POST /api/buy-now': jsonResponse(409, { error: 'Unavailable', message: 'This product can no longer be bought at its buy-now price', code: 'BUY_NOW_UNAVAILABLE' }),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    const rolex = within(await p.findByRole('listitem', { name: 'Rolex Datejust' }));
    fireEvent.click(rolex.getByRole('button', { name: 'Buy now ₹5,000' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Buy now' })).getByRole('button', { name: 'Buy now ₹5,000' }));
    await waitFor(() => expect(toasts()).toContain('This product can no longer be bought at its buy-now price'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')).toHaveLength(1);
    expect(rolex.queryByRole('button', { name: /Buy now/ })).toBeNull();
  });

  it('Buy now goes live: a bid that closes it hides the button, and cancelling asks nothing of the server', async () => {
    const fetchMock = routes({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ id: 'P-1', name: 'Rolex Datejust', buy_now_price: 5000 })]),
    });
    renderPage();
    const p = await openProducts('Vintage Watches');
    const rolex = within(await p.findByRole('listitem', { name: 'Rolex Datejust' }));
    fireEvent.click(rolex.getByRole('button', { name: 'Buy now ₹5,000' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Buy now' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => injectLiveEvent(placedEvent({ highest_bid: 100, bid_count: 1, buy_now_available: false })));
    expect(rolex.queryByRole('button', { name: /Buy now/ })).toBeNull();
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')).toHaveLength(0);
  });

  it('counts down in minutes and seconds under an hour, red under five minutes', async () => {
    const closing = makeAuction({ id: 'AUC-5', name: 'Closing Lots', valid_until: new Date(NOW + (5 * 60 + 1) * 1000).toISOString(), registered: true });
    routes({ 'GET /api/auctions/AUC-5/products': jsonResponse(200, []) }, [closing]);
    renderPage();
    const c = within(await findCard('Closing Lots'));
    expect(c.getByRole('timer').textContent).toBe('5m 01s');
    expect(c.getByRole('timer').parentElement?.className).not.toContain('auc-countdown-urgent');
    const p = await openProducts('Closing Lots');
    expect(p.getByText('Ends in 5m 01s').className).not.toContain('auc-countdown-urgent');

    act(() => setServerNow(NOW + 56_000));
    expect(c.getByRole('timer').textContent).toBe('4m 05s');
    expect(c.getByRole('timer').parentElement?.className).toContain('auc-countdown-urgent');
    expect(p.getByText('Ends in 4m 05s').className).toContain('auc-countdown-urgent');
  });

  it('explains soft close, and auction:extended moves the end and shows "Extended" (flashing, then a badge)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const end = new Date(NOW + 60_000).toISOString();
      const soft = makeAuction({ id: 'AUC-6', name: 'Soft Close Sale', valid_until: end, registered: true, soft_close_s: 120, max_extension_s: 3600 });
      routes({ 'GET /api/auctions/AUC-6/products': jsonResponse(200, [makeProduct({ id: 'AUC-6-P', auction_id: 'AUC-6' })]) }, [soft]);
      renderPage();
      await act(async () => { await vi.advanceTimersByTimeAsync(0); });
      const c = within(card('Soft Close Sale'));
      fireEvent.click(c.getByRole('button', { name: 'View Products' }));
      const p = within(panel());
      // The rules come with the auction, read by id (its products, then its lot page).
      await vi.waitFor(() => expect(p.getByText(/Bids in the last 2 min extend the auction/)).toBeTruthy());
      expect(c.getByRole('timer').textContent).toBe('1m 00s');
      expect(c.queryByText('Extended')).toBeNull();

      const later = new Date(NOW + 120_000).toISOString();
      act(() => injectLiveEvent({ event: 'auction:extended', data: { auction_id: 'AUC-6', valid_until: later, original_valid_until: end, server_time: T } }));
      // The catalogue event for the same extension changes nothing more.
      act(() => injectLiveEvent({ event: 'auction:extended', data: { ...liveAuction({ id: 'AUC-6', name: 'Soft Close Sale', valid_until: later, original_valid_until: end, extended: true, soft_close_s: 120 }), auction_id: 'AUC-6' } }));
      expect(c.getByRole('timer').textContent).toBe('2m 00s');
      expect(p.getByText('Ends in 2m 00s')).toBeTruthy();
      expect(c.getByText('Extended').className).toContain('auc-extended-flash');
      expect(p.getByText('Extended').className).toContain('auc-extended-flash');
      expect(p.getByText('Auction extended: ends in 2m 00s')).toBeTruthy();

      // The flash ends; the badge stays while the auction is extended.
      act(() => { vi.advanceTimersByTime(5000); });
      expect(c.getByText('Extended').className).not.toContain('auc-extended-flash');
      expect(p.getByText('Extended')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});
