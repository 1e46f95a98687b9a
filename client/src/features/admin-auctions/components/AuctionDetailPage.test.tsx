import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, sampleAdmin } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { formatDateTime, formatDateTimeSeconds } from '../../../lib/format';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { resetServerData } from '../../../lib/live-query';
import { bidPlaced, makeAdminAuction, makeProduct, routeFetch } from '../testing';
import { AuctionDetailPage } from './AuctionDetailPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

function renderPage(id = 'AUC-1') {
  return render(
    <MemoryRouter initialEntries={[`/admin/auctions/${id}`]}>
      <Routes>
        <Route path="/admin/auctions/:auctionId" element={<AuctionDetailPage />} />
      </Routes>
      <Toaster />
    </MemoryRouter>,
  );
}

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';

function routes(createdBy: number, bidder: string) {
  return routeFetch({
    'GET /api/admin/auction/AUC-1': [jsonResponse(200, makeAdminAuction({ created_by: createdBy, product_ids: ['P-1', 'P-2'], product_count: 2 }))],
    'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct({ id: 'P-1', name: 'Ming Vase', highest_bid: 500, bid_count: 1 }), makeProduct({ id: 'P-2', name: 'Brass Lamp' })])],
    'GET /api/products/P-1/bids': [history([{ bid_id: 1, auction_id: 'AUC-1', amount: 500, status: 'success', state: 'success', timestamp: T0, bidder }])],
    'GET /api/products/P-2/bids': [history([])],
  });
}

/** `GET /products/{id}/bids` answering these entries (bids unless `auto`), as one page. */
function history(entries: readonly unknown[]) {
  const bids = entries.map((entry) => {
    const { auction_id: _auction, ...e } = entry as { auction_id?: string };
    return { auto: false, ...e };
  });
  return jsonResponse(200, { bids, next_before: null });
}

const feedItems = () => within(screen.getByRole('list', { name: 'Bids, newest first' })).getAllByRole('listitem');

describe('AuctionDetailPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'tok' });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  it('shows the creator the auction, its products and a live feed seeded from the bids, prepending live bids with usernames', async () => {
    routes(sampleAdmin.id, 'asha');
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Spring Sale' })).toBeTruthy();
    expect(screen.getByText('AUC-1')).toBeTruthy();
    expect(screen.getByText('Valid Until')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit Auction' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Live Bid Feed' })).toBeTruthy();
    expect(screen.getByTestId('highest-P-1').textContent).toBe('₹500');
    expect(feedItems()).toHaveLength(1);
    expect(feedItems()[0]!.textContent).toContain('asha');

    act(() => injectLiveEvent({
      event: 'bid:placed',
      data: bidPlaced({ bid_id: 2, highest_bid: 750, bid_count: 2, version: 2, bidder: 'ravi_k', timestamp: T1 }),
    }));
    await waitFor(() => expect(feedItems()).toHaveLength(2));
    const [newest, older] = feedItems();
    expect(newest!.textContent).toContain('ravi_k');
    expect(newest!.textContent).toContain('₹750');
    expect(newest!.textContent).toContain('Ming Vase');
    // Times to the second: bids often land within one minute.
    expect(newest!.querySelector('time')!.textContent).toMatch(/\d:\d{2}:00 [ap]m$/);
    expect(older!.textContent).toContain('Outbid');
    expect(screen.getByTestId('highest-P-1').textContent).toBe('₹750');
    expect(screen.getByTestId('bids-P-1').textContent).toBe('2');
  });

  it('shows another admin a read-only page with masked bidders and no live feed', async () => {
    routes(99, 'a***a');
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Spring Sale' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit Auction' })).toBeNull();
    expect(screen.getByRole('note').textContent).toContain('Read-only');
    expect(screen.getByRole('heading', { name: 'Bid History' })).toBeTruthy();
    expect(screen.queryByText('Live Bid Feed')).toBeNull();
    expect(feedItems()[0]!.textContent).toContain('a***a');
  });

  it('says Auction not found (and toasts it) for an unknown id', async () => {
    routeFetch({ 'GET /api/admin/auction/NOPE': [jsonResponse(404, { error: 'Auction not found', message: 'Auction not found', code: 'NOT_FOUND' })] });
    renderPage('NOPE');
    expect(await screen.findByText('Auction not found', { selector: '.empty-title' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes('Auction not found'))).toBe(true));
  });

  it('toasts Failed to load auction data when the server fails', async () => {
    routeFetch({ 'GET /api/admin/auction/AUC-1': [new Error('offline')] });
    renderPage();
    await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes('Failed to load auction data'))).toBe(true));
  });

  describe('the bidding rules', () => {
    const T2 = '2026-03-01T10:07:00.000Z';
    const bid = (over: object) => ({ bid_id: 1, auction_id: 'AUC-1', amount: 500, status: 'success', state: 'success', timestamp: T0, bidder: 'asha', ...over });
    const mine = (over: Parameters<typeof makeAdminAuction>[0] = {}) =>
      makeAdminAuction({ created_by: sampleAdmin.id, product_ids: ['P-1', 'P-2'], product_count: 2, increment_rule: 'ladder', soft_close_s: 120, max_extension_s: 3600, ...over });

    it('shows the seller’s steps, a strict cancel policy and each bidder’s count of cancels', async () => {
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, mine({
          increment_rule: 'flat', increment_amount: 50, cancel_policy: 'strict',
          bidder_cancels: [{ user_id: 7, username: 'asha', cancels: 2 }, { user_id: 8, username: 'ravi', cancels: 0 }],
        }))],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct({ id: 'P-1' })])],
        'GET /api/products/P-1/bids': [history([])],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      expect(screen.getByTestId('steps').textContent).toBe('₹50 steps');
      expect(screen.getByTestId('cancel-policy').textContent).toBe('Strict');
      const table = within(screen.getByRole('region', { name: 'Bidders and their cancels' }));
      expect(table.getAllByRole('row').map((r) => r.textContent)).toEqual(['BidderBids cancelled', 'asha2', 'ravi0']);
    });

    it('shows the auction’s rules, each lot’s prices and its reserve status while open', async () => {
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, mine())],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [
          makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 1, version: 1, starting_price: 100, reserve_price: 800, reserve_met: false, min_next_bid: 510, buy_now_price: 3000 }),
          makeProduct({ id: 'P-2', name: 'Brass Lamp' }),
        ])],
        'GET /api/products/P-1/bids': [history([bid({})])],
        'GET /api/products/P-2/bids': [history([])],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      expect(screen.getByText('Increments').nextElementSibling!.textContent).toBe('Ladder');
      expect(screen.getByText('Soft close').nextElementSibling!.textContent).toBe('2 min (up to 1 h more)');
      const vase = document.querySelector<HTMLElement>('[data-product-id="P-1"]')!;
      expect(within(vase).getByText('Start ₹100 · Reserve ₹800 · Buy now ₹3,000')).toBeTruthy();
      expect(screen.getByTestId('outcome-P-1').textContent).toBe('Reserve not metNext bid from ₹510');
      // No reserve: nothing said about one.
      expect(screen.getByTestId('outcome-P-2').textContent).toBe('Next bid from ₹1');

      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 2, highest_bid: 850, version: 2, reserve_met: true, min_next_bid: 860, timestamp: T1 }) }));
      await waitFor(() => expect(screen.getByTestId('outcome-P-1').textContent).toBe('Reserve metNext bid from ₹860'));
      // The reserve was reached: buy-now is gone.
      expect(within(vase).getByText('Start ₹100 · Reserve ₹800')).toBeTruthy();
    });

    it('marks an automatic raise in the live feed', async () => {
      routes(sampleAdmin.id, 'asha');
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 2, highest_bid: 600, bidder: 'asha', auto: true, timestamp: T1 }) }));
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 3, highest_bid: 700, version: 3, bidder: 'ravi_k', timestamp: T2 }) }));
      await waitFor(() => expect(feedItems()).toHaveLength(3));
      const [manual, raised] = feedItems();
      expect(raised!.textContent).toContain('asha bid ₹600auto');
      expect(raised!.querySelector('.ad-mark')!.getAttribute('title')).toBe('An automatic raise of asha’s maximum bid');
      expect(manual!.textContent).not.toContain('auto');
    });

    it('shows each automatic raise as its own row at its own time, in version order, even when the events cross', async () => {
      routes(sampleAdmin.id, 'asha');
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      const T3 = '2026-03-01T10:08:00.000Z';
      // Ravi's maximum takes the lead (version 2), then rises by itself twice; the second raise arrives first.
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 7, highest_bid: 600, version: 2, bidder: 'ravi_k', timestamp: T1 }) }));
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 7, highest_bid: 800, version: 4, bidder: 'ravi_k', auto: true, timestamp: T3 }) }));
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 7, highest_bid: 700, version: 3, bidder: 'ravi_k', auto: true, timestamp: T2 }) }));
      await waitFor(() => expect(feedItems()).toHaveLength(4));
      const lines = feedItems().map((li) => li.querySelector('.ad-feed-line')!.textContent);
      expect(lines).toEqual(['ravi_k bid ₹800auto', 'ravi_k bid ₹700auto', 'ravi_k bid ₹600', 'asha bid ₹500']);
      expect(feedItems().map((li) => li.querySelector('time')!.getAttribute('datetime'))).toEqual([T3, T2, T1, T0]);
      expect(feedItems().map((li) => li.querySelector('.badge')!.textContent)).toEqual(['Active', 'Active', 'Active', 'Outbid']);
    });

    it('auction:extended moves the end shown and marks it Extended', async () => {
      const auction = mine();
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, auction)],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct()])],
        'GET /api/products/P-1/bids': [history([])],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      expect(screen.getByTestId('valid-until').textContent).toBe(formatDateTime(auction.valid_until));
      const later = new Date(Date.parse(auction.valid_until) + 2 * 86_400_000).toISOString();
      act(() => injectLiveEvent({ event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: later, original_valid_until: auction.valid_until, server_time: T1 } }));
      // Once moved, the end shows its seconds.
      await waitFor(() => expect(screen.getByTestId('valid-until').textContent).toContain(formatDateTimeSeconds(later)));
      expect(within(screen.getByTestId('valid-until')).getByText('Extended')).toBeTruthy();
      expect(screen.getByTestId('valid-until').textContent).toContain(`set for ${formatDateTimeSeconds(auction.valid_until)}`);
      // Another auction's end is not this one's.
      act(() => injectLiveEvent({ event: 'auction:extended', data: { auction_id: 'AUC-9', valid_until: T2, original_valid_until: T2, server_time: T2 } }));
      expect(screen.getByTestId('valid-until').textContent).toContain(formatDateTimeSeconds(later));
    });

    it('ends a running auction early after a confirmation saying how early, and shows the answer: the sold lot with its amount and winner, the unsold one with its reason', async () => {
      const api = routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, mine()), jsonResponse(200, mine({ status: 'settled', settled_at: T2 }))],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [
          makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 1, version: 1, reserve_price: 400, reserve_met: true }),
          makeProduct({ id: 'P-2', name: 'Brass Lamp', highest_bid: 90, bid_count: 1, version: 1, reserve_price: 200, reserve_met: false }),
        ])],
        'GET /api/products/P-1/bids': [history([bid({})])],
        'GET /api/products/P-2/bids': [history([bid({ bid_id: 5, amount: 90, bidder: 'meera' })])],
        'POST /api/admin/auction/AUC-1/settle': [jsonResponse(200, {
          message: 'Auction settled successfully!', sold: [{ product_id: 'P-1', amount: 500 }], unsold: [{ id: 'P-2', reason: 'RESERVE_NOT_MET' }],
        })],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      fireEvent.click(screen.getByRole('button', { name: 'End early' }));
      const dialog = screen.getByRole('dialog', { name: 'End Auction Early' });
      expect(within(dialog).getByText(/^Bidding stops now, 3 days before the set end; leaders win at their current price/)).toBeTruthy();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(api.calls('POST /api/admin/auction/AUC-1/settle')).toHaveLength(0);

      fireEvent.click(screen.getByRole('button', { name: 'End early' }));
      fireEvent.click(within(screen.getByRole('dialog', { name: 'End Auction Early' })).getByRole('button', { name: 'End now' }));
      const settlement = await screen.findByRole('region', { name: 'Settlement' });
      const sold = within(within(settlement).getByRole('list', { name: 'Sold lots' })).getAllByRole('listitem');
      expect(sold.map((li) => li.textContent)).toEqual(['Ming Vase₹500Won by asha']);
      const unsold = within(within(settlement).getByRole('list', { name: 'Unsold lots' })).getAllByRole('listitem');
      expect(unsold).toHaveLength(1);
      expect(unsold[0]!.textContent).toContain('Brass Lamp');
      expect(within(unsold[0]!).getByText('Reserve not met')).toBeTruthy();
      expect(api.calls('POST /api/admin/auction/AUC-1/settle')).toHaveLength(1);

      // The page follows: settled, no Settle button, the lot sold to its winner, the other not sold.
      expect(screen.getByTestId('time-left').textContent).toBe('Settled');
      expect(screen.queryByRole('button', { name: 'Settle' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'End early' })).toBeNull();
      expect(screen.getByTestId('outcome-P-1').textContent).toBe('Won by asha');
      expect(screen.getByTestId('outcome-P-2').textContent).toBe('Not sold: reserve not met');
      expect(within(document.querySelector<HTMLElement>('li.ad-product[data-product-id="P-2"]')!).getByText('Unassigned')).toBeTruthy();
    });

    it('names a sold lot’s winner from the product’s own `winner`, whatever bids the page read', async () => {
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, mine({ status: 'settled', settled_at: T2 }))],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [
          makeProduct({ id: 'P-1', status: 'sold', highest_bid: 5000, bid_count: 80, version: 80, winner: 'kabir' }),
          makeProduct({ id: 'P-2', name: 'Brass Lamp' }),
        ])],
        // The newest bids read do not reach the winning one (a long history, paged).
        'GET /api/products/P-1/bids': [history([bid({ bid_id: 90, amount: 4000, status: 'failed', state: 'outbid', bidder: 'zoya' })])],
        'GET /api/products/P-2/bids': [history([])],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      await waitFor(() => expect(screen.getByTestId('outcome-P-1').textContent).toBe('Won by kabir'));
    });

    it('names the winner of a sold lot from the bids read, and a buy-now buyer as such', async () => {
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, mine({ product_ids: ['P-1', 'P-2'] }))],
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [
          makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 1, version: 1, buy_now_price: 2000 }),
          makeProduct({ id: 'P-2', name: 'Brass Lamp', status: 'sold', highest_bid: 1500, bid_count: 2, version: 2 }),
        ])],
        'GET /api/products/P-1/bids': [
          history([bid({})]),
          history([bid({ bid_id: 7, amount: 2000, status: 'success', state: 'won', bidder: 'meera', timestamp: T2 }), bid({ status: 'failed', state: 'outbid' })]),
        ],
        'GET /api/products/P-2/bids': [history([bid({ bid_id: 3, amount: 1500, status: 'success', state: 'won', bidder: 'ravi_k' }), bid({ bid_id: 2, amount: 200, status: 'failed', state: 'outbid' })])],
      });
      renderPage();
      await screen.findByRole('heading', { name: 'Spring Sale' });
      // Sold before the close: bought at its buy-now price.
      expect(screen.getByTestId('outcome-P-2').textContent).toBe('Bought now by ravi_k');

      act(() => injectLiveEvent({ event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 2000, version: 2, buy_now: true, server_time: T2 } }));
      await waitFor(() => expect(screen.getByTestId('outcome-P-1').textContent).toBe('Bought now by meera'));
      expect(screen.getByTestId('highest-P-1').textContent).toBe('₹2,000');
      const bought = feedItems().find((li) => li.getAttribute('data-bid-id') === '7')!;
      expect(bought.textContent).toContain('meera bought now for ₹2,000buy now');
    });
  });

  describe('reads that overlap', () => {
    function deferred() {
      let resolve!: (r: Response) => void;
      const promise = new Promise<Response>((r) => { resolve = r; });
      return { promise, resolve };
    }
    /** Like routeFetch, but an answer may be a promise the test settles later. */
    function serve(routes: Record<string, (Response | Promise<Response>)[]>) {
      const used: Record<string, number> = {};
      const fn = vi.fn((url: string, init?: RequestInit) => {
        const key = `${init?.method ?? 'GET'} ${url}`;
        const i = used[key] ?? 0;
        used[key] = i + 1;
        const answers = routes[key] ?? [jsonResponse(404, { error: `unrouted ${key}`, code: 'NOT_FOUND' })];
        return Promise.resolve(answers[Math.min(i, answers.length - 1)]!).then((r) => r.clone());
      });
      vi.stubGlobal('fetch', fn);
      return fn;
    }
    const auction = makeAdminAuction({ created_by: sampleAdmin.id, product_ids: ['P-1'] });
    const bid1 = { bid_id: 1, auction_id: 'AUC-1', amount: 500, status: 'success', state: 'success', timestamp: T0, bidder: 'asha' };

    it('a live bid arriving while the page reads is folded over what the read returns', async () => {
      const products = deferred();
      serve({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, auction)],
        'GET /api/admin/auction/AUC-1/products': [products.promise],
        'GET /api/products/P-1/bids': [history([bid1])],
      });
      renderPage();
      await new Promise((r) => setTimeout(r, 10));
      // Read before the bid: the products and bids are older than it.
      act(() => injectLiveEvent({
        event: 'bid:placed',
        data: bidPlaced({ bid_id: 2, highest_bid: 750, bid_count: 2, version: 2, bidder: 'ravi_k', timestamp: T1 }),
      }));
      products.resolve(jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })]));
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹750'));
      expect(screen.getByTestId('bids-P-1').textContent).toBe('2');
      expect(feedItems().map((li) => li.getAttribute('data-bid-id'))).toEqual(['2', '1']);
    });

    it('drops a read answered after the newer one a reconnect started', async () => {
      const first = deferred();
      serve({
        'GET /api/admin/auction/AUC-1': [first.promise, jsonResponse(200, auction)],
        // The reconnect's read gets the newer numbers; the first read, answered last, the older ones.
        'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct({ highest_bid: 900, bid_count: 2 })]), jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })])],
        'GET /api/products/P-1/bids': [history([{ ...bid1, status: 'failed', state: 'outbid' }, { ...bid1, bid_id: 2, amount: 900, timestamp: T1 }]), history([bid1])],
      });
      useLive.getState().connect('tok');
      act(() => lastSocket().open());
      renderPage();
      await new Promise((r) => setTimeout(r, 10));
      act(() => reconnect());
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹900'));
      await act(async () => {
        first.resolve(jsonResponse(200, auction));
        await new Promise((r) => setTimeout(r, 20));
      });
      expect(screen.getByTestId('highest-P-1').textContent).toBe('₹900');
      expect(feedItems()).toHaveLength(2);
    });
  });

  describe('after a reconnect', () => {
    const T2 = '2026-03-01T10:07:00.000Z';
    const auction = makeAdminAuction({ created_by: sampleAdmin.id, product_ids: ['P-1'] });
    /** The page loaded and the socket's first connect; `then` answers the re-reads. */
    async function shownThenConnected(then: { auction?: Response | Error; highest?: number; bids?: unknown[] }) {
      const api = routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, auction), then.auction ?? jsonResponse(200, auction)],
        'GET /api/admin/auction/AUC-1/products': [
          jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })]),
          jsonResponse(200, [makeProduct({ highest_bid: then.highest ?? 500, bid_count: 2 })]),
        ],
        'GET /api/products/P-1/bids': [
          history([{ bid_id: 1, auction_id: 'AUC-1', amount: 500, status: 'success', state: 'success', timestamp: T0, bidder: 'asha' }]),
          history(then.bids ?? []),
        ],
      });
      renderPage();
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹500'));
      useLive.getState().connect('tok');
      act(() => lastSocket().open());
      return api;
    }
    const bidsMissed = [
      { bid_id: 1, auction_id: 'AUC-1', amount: 500, status: 'failed', state: 'outbid', timestamp: T0, bidder: 'asha' },
      { bid_id: 2, auction_id: 'AUC-1', amount: 900, status: 'success', state: 'success', timestamp: T2, bidder: 'ravi_k' },
    ];

    it('reads the auction, its products and its bids again, and shows the bid placed while the socket was down', async () => {
      const api = await shownThenConnected({ highest: 900, bids: bidsMissed });
      await new Promise((r) => setTimeout(r, 10));
      // The first connect reads nothing again.
      expect(api.calls('GET /api/admin/auction/AUC-1')).toHaveLength(1);

      act(() => reconnect());
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹900'));
      expect(screen.getByTestId('bids-P-1').textContent).toBe('2');
      expect(feedItems()).toHaveLength(2);
      expect(feedItems()[0]!.textContent).toContain('ravi_k');
      expect(api.calls('GET /api/admin/auction/AUC-1')).toHaveLength(2);
      expect(api.calls('GET /api/admin/auction/AUC-1/products')).toHaveLength(2);
      expect(api.calls('GET /api/products/P-1/bids')).toHaveLength(2);
    });

    it('a stale live event arriving after the re-read does not move the numbers back', async () => {
      await shownThenConnected({ highest: 900, bids: bidsMissed });
      act(() => reconnect());
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹900'));
      act(() => injectLiveEvent({
        event: 'bid:placed',
        data: bidPlaced({ bid_id: 3, highest_bid: 700, bid_count: 2, version: 2, bidder: 'mira', timestamp: T1 }),
      }));
      await waitFor(() => expect(feedItems()).toHaveLength(3));
      expect(screen.getByTestId('highest-P-1').textContent).toBe('₹900');
      expect(screen.getByTestId('bids-P-1').textContent).toBe('2');
    });

    it('a failed re-read keeps the page as shown, quietly, and live events still fold in', async () => {
      await shownThenConnected({ auction: new Error('offline') });
      act(() => reconnect());
      await new Promise((r) => setTimeout(r, 20));
      expect(screen.getByRole('heading', { name: 'Spring Sale' })).toBeTruthy();
      expect(screen.queryByText('Failed to load auction data')).toBeNull();
      act(() => injectLiveEvent({
        event: 'bid:placed',
        data: bidPlaced({ bid_id: 4, highest_bid: 800, bid_count: 2, version: 2, bidder: 'mira', timestamp: T1 }),
      }));
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹800'));
    });
  });

  describe('automatic raises read back', () => {
    const T2 = '2026-03-01T10:07:00.000Z';
    const auction = makeAdminAuction({ created_by: sampleAdmin.id, product_ids: ['P-1'] });
    const asha = { bid_id: 1, amount: 500, status: 'failed', state: 'outbid', timestamp: T0, bidder: 'asha', auto: false };
    const ravi = { bid_id: 2, amount: 600, status: 'success', state: 'success', timestamp: T1, bidder: 'ravi_k', auto: false };
    const raise = { bid_id: 2, amount: 700, status: 'success', state: 'success', timestamp: T2, bidder: 'ravi_k', auto: true };
    /** Ravi's maximum bid leads at ₹600 (version 2), then rises by itself to ₹700 (version 3). */
    function bidAndRaise() {
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 2, highest_bid: 600, version: 2, bidder: 'ravi_k', timestamp: T1 }) }));
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 2, highest_bid: 700, bid_count: 2, version: 3, bidder: 'ravi_k', auto: true, timestamp: T2 }) }));
    }
    const rows = () => feedItems().map((li) => [
      li.querySelector('.ad-feed-line')!.textContent, li.querySelector('time')!.getAttribute('datetime'), li.querySelector('.badge')!.textContent,
    ]);
    const shownLive = [
      ['ravi_k bid ₹700auto', T2, 'Active'],
      ['ravi_k bid ₹600', T1, 'Active'],
      ['asha bid ₹500', T0, 'Outbid'],
    ];

    it('a reload shows the automatic raise the live feed showed, from the lot’s history', async () => {
      const api = routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, auction)],
        'GET /api/admin/auction/AUC-1/products': [
          jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })]),
          jsonResponse(200, [makeProduct({ highest_bid: 700, bid_count: 2, version: 3 })]),
        ],
        // The history lists bids and automatic raises, highest first.
        'GET /api/products/P-1/bids': [history([{ ...asha, status: 'success', state: 'success' }]), history([raise, ravi, asha])],
      });
      renderPage();
      await waitFor(() => expect(feedItems()).toHaveLength(1));
      bidAndRaise();
      await waitFor(() => expect(rows()).toEqual(shownLive));

      // The page opened again from nothing: the same rows, the raise marked automatic.
      cleanup();
      resetServerData();
      renderPage();
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹700'));
      expect(rows()).toEqual(shownLive);
      expect(feedItems()[0]!.querySelector('.ad-mark')!.getAttribute('title')).toBe('An automatic raise of ravi_k’s maximum bid');
      expect(api.calls('GET /api/products/P-1/bids')).toHaveLength(2);
    });

    it('a re-read after a reconnect lists a raise seen live once, and a raise arriving after it is not doubled', async () => {
      routeFetch({
        'GET /api/admin/auction/AUC-1': [jsonResponse(200, auction)],
        'GET /api/admin/auction/AUC-1/products': [
          jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })]),
          jsonResponse(200, [makeProduct({ highest_bid: 700, bid_count: 2, version: 3 })]),
        ],
        'GET /api/products/P-1/bids': [history([{ ...asha, status: 'success', state: 'success' }]), history([raise, ravi, asha])],
      });
      renderPage();
      await waitFor(() => expect(feedItems()).toHaveLength(1));
      useLive.getState().connect('tok');
      act(() => lastSocket().open());
      bidAndRaise();
      await waitFor(() => expect(rows()).toEqual(shownLive));

      act(() => reconnect());
      await waitFor(() => expect(screen.getByTestId('highest-P-1').textContent).toBe('₹700'));
      await new Promise((r) => setTimeout(r, 20));
      expect(rows()).toEqual(shownLive);
      // The raise's event again (it crossed the re-read): still one row.
      act(() => injectLiveEvent({ event: 'bid:placed', data: bidPlaced({ bid_id: 2, highest_bid: 700, bid_count: 2, version: 3, bidder: 'ravi_k', auto: true, timestamp: T2 }) }));
      await new Promise((r) => setTimeout(r, 10));
      expect(rows()).toEqual(shownLive);
    });
  });
});
