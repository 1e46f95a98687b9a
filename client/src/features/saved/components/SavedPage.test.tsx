import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { SavedLot } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState, routeFetch, sampleUser, type FetchAnswer, setServerNow } from '../../../test/utils';
import { auctionProducts } from '../../../lib/catalogue';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { makeSavedLot } from '../testing';
import { SavedPage } from './SavedPage';

const NOW = Date.parse('2026-06-01T10:00:00.000Z');
const at = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();
/** A lot's auction as GET /api/saved gives it, ending `hours` from now. */
const auction = (id: string, hours: number): SavedLot['auction'] => ({
  id, name: id === 'AUC-1' ? 'Camera Fair' : `Sale ${id}`, valid_until: at(hours), status: hours > 0 ? 'active' : 'ended',
});
// AUC-2 ended an hour ago: an outbid there reads as lost.
const fair = auction('AUC-1', 48);
const over = auction('AUC-2', -1);

const leica = makeSavedLot({
  id: 'LEICA', name: 'Leica M6', auction_id: 'AUC-1', auction: fair, highest_bid: 1500, bid_count: 3, my_status: 'leading', my_max: 2000,
  images: [{ id: 1, url: '/media/leica.webp', thumb_url: '/media/leica-400.webp' }, { id: 2, url: '/media/b.webp', thumb_url: '/media/b-400.webp' }],
});
const rollei = makeSavedLot({ id: 'ROLLEI', name: 'Rolleiflex 2.8F', auction_id: 'AUC-1', auction: fair, highest_bid: 800, bid_count: 2, my_status: 'outbid' });
const nikon = makeSavedLot({ id: 'NIKON', name: 'Nikon F2', auction_id: 'AUC-2', auction: over, highest_bid: 3000, status: 'sold', my_status: 'won' });
const canon = makeSavedLot({ id: 'CANON', name: 'Canon AE-1', auction_id: 'AUC-2', auction: over, highest_bid: 700, my_status: 'outbid' });
const pentax = makeSavedLot({ id: 'PENTAX', name: 'Pentax K1000', auction_id: 'AUC-1', auction: fair, highest_bid: 0, min_next_bid: 500, starting_price: 500 });

const noContent = () => new Response(null, { status: 204 });

function routes(saved: FetchAnswer[], more: Record<string, FetchAnswer[]> = {}) {
  return routeFetch({ 'GET /api/saved': saved, ...more });
}

function Probe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/user/saved']}>
      <Routes>
        <Route path="/user/saved" element={<SavedPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Probe />
      <Toaster />
    </MemoryRouter>,
  );
}

const row = (id: string) => screen.getByTestId(`saved-${id}`);
const toasts = () => [...document.querySelectorAll('.toast-message')].map((n) => n.textContent);
const EMPTY = 'No saved lots yet — tap the star on any lot to keep it here';

describe('SavedPage', () => {
  beforeEach(() => {
    resetAppState();
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
    setServerNow(NOW);
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('lists the saved lots from GET /api/saved, newest first, with cover, auction, price and the caller’s state', async () => {
    const api = routes([jsonResponse(200, [leica, rollei, nikon, canon, pentax])]);
    renderPage();
    await screen.findByText('Leica M6');
    expect(api.calls('GET /api/saved')[0]![1]?.headers).toMatchObject({ authorization: 'Bearer u-tok' });
    expect(screen.getAllByTestId(/^saved-/).map((r) => r.dataset.testid)).toEqual(['saved-LEICA', 'saved-ROLLEI', 'saved-NIKON', 'saved-CANON', 'saved-PENTAX']);
    expect(screen.getByRole('heading', { name: 'Saved lots (5)' })).toBeTruthy();

    const l = within(row('LEICA'));
    expect(l.getByTestId('cover-LEICA').getAttribute('src')).toBe('/media/leica-400.webp');
    // Its auction by name with the time left, not the auction's id.
    await waitFor(() => expect(l.getByText('Camera Fair')).toBeTruthy());
    expect(l.queryByText(/AUC-1/)).toBeNull();
    expect(l.getByRole('timer').textContent).toMatch(/^Ends in \d/);
    expect(l.getByText('Highest bid')).toBeTruthy();
    expect(l.getByText('₹1,500')).toBeTruthy();
    expect(l.getByText(/You're the highest bidder · your maximum ₹2,000/)).toBeTruthy();

    expect(within(row('ROLLEI')).getByText(/Outbid — bid again/)).toBeTruthy();
    expect(within(row('ROLLEI')).getByTestId('cover-ROLLEI').tagName).toBe('SPAN');
    expect(within(row('NIKON')).getByText(/You won/)).toBeTruthy();
    expect(within(row('NIKON')).getByText('Sold')).toBeTruthy();
    await waitFor(() => expect(within(row('CANON')).getByText(/You didn't win/)).toBeTruthy());

    const p = within(row('PENTAX'));
    expect(p.getByText('Starting bid')).toBeTruthy();
    expect(p.getByText('₹500')).toBeTruthy();
    expect(p.getByText('No bid from you yet')).toBeTruthy();
    // Each lot's auction comes with the list: the page reads nothing else.
    expect(api.fn.mock.calls.map(([url]) => url)).toEqual(['/api/saved']);
  });

  it('follows a lot’s auction live: soft close moves its end, the end closes bidding', async () => {
    const soon = auction('AUC-1', 0.5)!;
    routes([jsonResponse(200, [{ ...rollei, auction: soon }])]);
    renderPage();
    await screen.findByText('Rolleiflex 2.8F');
    expect(within(row('ROLLEI')).getByText(/Outbid — bid again/)).toBeTruthy();
    act(() => injectLiveEvent({ event: 'auction:extended', data: { server_time: at(0), auction_id: 'AUC-1', valid_until: at(2), original_valid_until: soon.valid_until } }));
    act(() => setServerNow(NOW + 3_600_000));
    expect(within(row('ROLLEI')).getByRole('timer').textContent).toMatch(/^Ends in /);
    act(() => injectLiveEvent({ event: 'auction:ended', data: { server_time: at(1), auction_id: 'AUC-1' } }));
    expect(within(row('ROLLEI')).getByRole('timer').textContent).toBe('Bidding closed');
    expect(within(row('ROLLEI')).getByText(/You didn't win/)).toBeTruthy();
  });

  it('links each lot to its own page', async () => {
    routes([jsonResponse(200, [leica, makeSavedLot({ id: 'LOOSE', name: 'Loose Lens', auction_id: null })])]);
    renderPage();
    const link = await within(await screen.findByTestId('saved-LEICA')).findByRole('link', { name: /^View lot/ });
    expect(link.getAttribute('href')).toBe('/auctions/AUC-1/products/LEICA');
    // A lot in no auction now has nowhere to go.
    expect(within(row('LOOSE')).queryByRole('link')).toBeNull();
    expect(within(row('LOOSE')).getByText('Not in an auction now')).toBeTruthy();
    fireEvent.click(link);
    expect(screen.getByTestId('location').textContent).toBe('/auctions/AUC-1/products/LEICA');
  });

  it('removes a lot at once with DELETE, keeps Browse’s star in step, and reads the list again', async () => {
    auctionProducts.set('AUC-1', [{ ...rollei, saved: true }]);
    const api = routes(
      [jsonResponse(200, [leica, rollei]), jsonResponse(200, [leica])],
      { 'DELETE /api/saved/ROLLEI': [noContent()] },
    );
    renderPage();
    fireEvent.click(within(await screen.findByTestId('saved-ROLLEI')).getByRole('button', { name: 'Remove Rolleiflex 2.8F from Saved' }));
    expect(screen.queryByTestId('saved-ROLLEI')).toBeNull();
    expect(auctionProducts.get('AUC-1').data?.[0]?.saved).toBe(false);
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: /Saved lots/ }));
    await waitFor(() => expect(api.calls('DELETE /api/saved/ROLLEI')).toHaveLength(1));
    await waitFor(() => expect(api.calls('GET /api/saved')).toHaveLength(2));
    expect(screen.getByTestId('saved-LEICA')).toBeTruthy();
    expect(screen.queryByTestId('saved-ROLLEI')).toBeNull();
    expect(toasts()).toEqual([]);
  });

  it('puts a lot whose removal failed back where it was, with a toast', async () => {
    // The re-read after the failure is still on its way: what shows is the rollback's doing.
    const pending = () => new Promise<Response>(() => undefined) as unknown as Response;
    const api = routes([jsonResponse(200, [leica, rollei, nikon]), pending], { 'DELETE /api/saved/ROLLEI': [jsonResponse(500, { error: 'Something went wrong', code: 'INTERNAL' })] });
    renderPage();
    fireEvent.click(within(await screen.findByTestId('saved-ROLLEI')).getByRole('button', { name: /^Remove Rolleiflex/ }));
    expect(screen.queryByTestId('saved-ROLLEI')).toBeNull();
    await screen.findByTestId('saved-ROLLEI');
    expect(screen.getAllByTestId(/^saved-/).map((r) => r.dataset.testid)).toEqual(['saved-LEICA', 'saved-ROLLEI', 'saved-NIKON']);
    expect(toasts()).toEqual(['Something went wrong']);
    expect(api.calls('GET /api/saved')).toHaveLength(2);
  });

  it('shows the empty state when nothing is saved, and after the last lot is removed', async () => {
    routes([jsonResponse(200, [leica]), jsonResponse(200, [])], { 'DELETE /api/saved/LEICA': [noContent()] });
    renderPage();
    fireEvent.click(within(await screen.findByTestId('saved-LEICA')).getByRole('button', { name: /^Remove Leica M6/ }));
    expect(screen.getByText(EMPTY)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Browse Auctions/ }).getAttribute('href')).toBe('/user/auctions');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the empty state for an empty list', async () => {
    routes([jsonResponse(200, [])]);
    renderPage();
    expect(await screen.findByText(EMPTY)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('toasts a failed read and offers to try again', async () => {
    const api = routes([jsonResponse(500, { error: 'Failed to load your saved lots', code: 'INTERNAL' }), jsonResponse(200, [leica])]);
    renderPage();
    await screen.findByRole('button', { name: 'Try again' });
    expect(toasts()).toEqual(['Failed to load your saved lots']);
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('Leica M6');
    expect(api.calls('GET /api/saved')).toHaveLength(2);
  });

  it('shows a saved lot’s state change at once (outbid) and confirms it with one re-read of the list', async () => {
    const api = routes([jsonResponse(200, [leica]), jsonResponse(200, [{ ...leica, my_status: 'outbid', my_max: null, highest_bid: 2100 }])]);
    renderPage();
    await screen.findByText(/You're the highest bidder/);
    act(() => injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'LEICA', product_name: 'Leica M6', highest_bid: 2100, server_time: at(0) } }));
    expect(within(row('LEICA')).getByText(/Outbid — bid again/)).toBeTruthy();
    await waitFor(() => expect(api.calls('GET /api/saved')).toHaveLength(2));
    await waitFor(() => expect(within(row('LEICA')).getByText('₹2,100')).toBeTruthy());
  });

  it('watches the open auctions of its lots and moves a price live when another bidder bids, without a re-read', async () => {
    const watch = vi.fn();
    const unwatch = vi.fn();
    useLive.setState({ watch, unwatch });
    const api = routes([jsonResponse(200, [leica, rollei, nikon, pentax])]);
    const view = renderPage();
    await screen.findByText('Leica M6');
    // AUC-1 is open (watched once for its three lots); AUC-2 ended an hour ago.
    await waitFor(() => expect(watch).toHaveBeenCalledWith('AUC-1'));
    expect(watch).toHaveBeenCalledTimes(1);

    const placed = (product_id: string, highest_bid: number, version: number) => ({
      event: 'bid:placed' as const,
      data: {
        auction_id: 'AUC-1', product_id, bid_id: version, highest_bid, bid_count: 1, version, bidder: 'r***i', amount: highest_bid,
        timestamp: at(0), min_next_bid: highest_bid + 1, reserve_met: null, buy_now_available: false, auto: false, server_time: at(0),
      },
    });
    act(() => injectLiveEvent(placed('PENTAX', 650, 5)));
    expect(within(row('PENTAX')).getByText('Highest bid')).toBeTruthy();
    expect(within(row('PENTAX')).getByText('₹650')).toBeTruthy();
    // An older frame changes nothing; a bid on a lot that is not saved changes nothing either.
    act(() => injectLiveEvent(placed('PENTAX', 600, 4)));
    act(() => injectLiveEvent(placed('OTHER', 9000, 9)));
    expect(within(row('PENTAX')).getByText('₹650')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls('GET /api/saved')).toHaveLength(1);

    view.unmount();
    expect(unwatch).toHaveBeenCalledWith('AUC-1');
  });
});
