import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { walletBalance } from '../../../lib/account/wallet-balance';
import {
  NOW, bidPlaced, callsTo, liveAuction, makeAuction, makeProduct, placedEvent, rolledBackEvent, routeFetch, setUpUser, tearDownStores,
} from '../test/fixtures';
import { auctionById } from '../../../lib/catalogue';
import { auctionProducts, PRODUCTS_RELOAD_MS, useAuctionActions, useAuctionById, useAuctionProducts } from './auctions-store';
import { lotPage, useLotPage } from './lot-store';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const T = new Date(NOW).toISOString();

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

const products = (auctionId = 'AUC-1') => auctionProducts.get(auctionId);
/** AUC-1 as Browse's panel and the bid dialog read it (by id, from its first lot's page). */
const byId = () => auctionById.get('AUC-1');
const { placeBid } = useAuctionActions.getState();

/** A lot page of P-1 in `auction`, as GET /products/P-1 answers it. */
const lotOf = (auction = makeAuction()) => ({ ...makeProduct(), auction, bids: [], bids_next_before: null });

/** A page that shows AUC-1's products (read on mount). */
function showProducts() {
  return renderHook(() => useAuctionProducts('AUC-1'));
}

describe('auctions store', () => {
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

  it('reads an auction by id from its lots and its first lot’s page, with the user token, never the whole list', async () => {
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      'GET /api/products/P-1': jsonResponse(200, lotOf(makeAuction({ registered: true }))),
    });
    await auctionById.load('AUC-1');
    expect(byId()).toMatchObject({ status: 'success', data: makeAuction({ registered: true }) });
    expect(callsTo(fetchMock, 'GET', '/api/products/P-1')[0]?.headers.authorization).toBe('Bearer u-tok');
    expect(callsTo(fetchMock, 'GET', '/api/auctions')).toHaveLength(0);
  });

  it('applies live events to the store as they arrive', async () => {
    routeFetch({ 'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]) });
    await auctionProducts.load('AUC-1');
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 250, bid_count: 2, version: 2 }));
    expect(products().data?.[0]).toMatchObject({ highest_bid: 250, bid_count: 2 });
  });

  it('replays events that arrive while products load over the (older) reply', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions/AUC-1/products': () => reply.promise });
    const loading = auctionProducts.load('AUC-1');
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 900, bid_count: 4, version: 4 }));
    reply.resolve(jsonResponse(200, [makeProduct({ highest_bid: 700, bid_count: 3 })]));
    await loading;
    expect(products().data?.[0]).toMatchObject({ highest_bid: 900, bid_count: 4 });
    expect(products().status).toBe('success');
  });

  it('keeps a reply newer than an event that crossed it, and ignores later events older than the reply', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions/AUC-1/products': () => reply.promise });
    const loading = auctionProducts.load('AUC-1');
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 3, highest_bid: 800, bid_count: 3, version: 3 }));
    reply.resolve(jsonResponse(200, [makeProduct({ highest_bid: 1200, bid_count: 5, version: 5 })]));
    await loading;
    const loaded = products().data;
    expect(loaded?.[0]).toMatchObject({ highest_bid: 1200, bid_count: 5, version: 5 });
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 4, highest_bid: 1000, bid_count: 4, version: 4 }));
    expect(products().data).toBe(loaded);
  });

  it('replays catalogue events that arrive while an auction is read by id', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]), 'GET /api/products/P-1': () => reply.promise });
    const loading = auctionById.load('AUC-1');
    await waitFor(() => expect(products().status).toBe('success'));
    injectLiveEvent({ event: 'auction:ended', data: { auction_id: 'AUC-1', server_time: T } });
    reply.resolve(jsonResponse(200, lotOf()));
    await loading;
    expect(byId().data?.status).toBe('ended');
  });

  it('reads a shown auction’s products again after auction:updated (which lists none), once per burst of edits', async () => {
    let reads = 0;
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': () => jsonResponse(200, [makeProduct({ name: reads++ === 0 ? 'Omega' : 'Renamed lot' })]),
      'GET /api/auctions/AUC-2/products': jsonResponse(200, [makeProduct({ id: 'M-1', auction_id: 'AUC-2' })]),
    });
    // AUC-1's products on screen (AUC-2's products were read once, and are no longer shown).
    await auctionProducts.load('AUC-2');
    showProducts();
    await waitFor(() => expect(products().data?.[0]?.name).toBe('Omega'));
    for (let i = 0; i < 5; i++) injectLiveEvent({ event: 'auction:updated', data: liveAuction({ id: 'AUC-1' }) });
    // An auction whose products are not shown is not read.
    injectLiveEvent({ event: 'auction:updated', data: liveAuction({ id: 'AUC-2' }) });
    await waitFor(() => expect(products().data?.[0]?.name).toBe('Renamed lot'));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 400));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-2/products')).toHaveLength(1);
  });

  it('a bid reply does not count a bid twice when the live event came first', async () => {
    const reply = deferred<Response>();
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': () => reply.promise,
    });
    await auctionProducts.load('AUC-1');
    const placing = placeBid('AUC-1', 'P-1', { amount: 150 });
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 5, highest_bid: 150, bid_count: 2, version: 2 }));
    reply.resolve(jsonResponse(201, bidPlaced({ highest_bid: 150, wallet_balance: 50, version: 2 })));
    expect(await placing).toMatchObject({ ok: true, leading: true });
    expect(products().data?.[0]).toMatchObject({ highest_bid: 150, bid_count: 2, my_status: 'leading', my_max: null });
  });

  it('a bid reply moves the numbers when no live event has (the socket may be down)', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 150, wallet_balance: 50, version: 2 })),
    });
    await auctionProducts.load('AUC-1');
    await placeBid('AUC-1', 'P-1', { amount: 150 });
    expect(products().data?.[0]).toMatchObject({ highest_bid: 150, bid_count: 2, min_next_bid: 151, my_status: 'leading' });
  });

  it('no re-read on one’s own news: a bid answer newer than what is shown is folded in, and the products on screen are not read again', async () => {
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 150, wallet_balance: 50, version: 2 })),
    });
    showProducts();
    await waitFor(() => expect(products().status).toBe('success'));
    const reads = () => callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products').length;
    expect(reads()).toBe(1);
    await act(async () => { await placeBid('AUC-1', 'P-1', { amount: 150 }); });
    // The live bid:placed of this very bid then arrives: it is no news either.
    act(() => injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 5, highest_bid: 150, bid_count: 2, version: 2 })));
    await act(async () => { await new Promise((r) => setTimeout(r, PRODUCTS_RELOAD_MS + 100)); });
    expect(products().data?.[0]).toMatchObject({ highest_bid: 150, bid_count: 2, my_status: 'leading' });
    expect(reads()).toBe(1);
  });

  it('a refusal for a sold product marks it sold at once', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      'POST /api/bid': jsonResponse(409, { error: 'This product has already been sold', message: 'This product has already been sold', code: 'PRODUCT_SOLD' }),
    });
    await auctionProducts.load('AUC-1');
    expect(await placeBid('AUC-1', 'P-1', { amount: 150 })).toEqual({ ok: false });
    expect(products().data?.[0]?.status).toBe('sold');
  });

  it('a refusal because the caller is not registered shows the auction unregistered, in Browse’s panel and on its lot pages', async () => {
    routeFetch({
      'POST /api/bid': jsonResponse(403, { error: 'Not registered', message: 'You must register for this auction first', code: 'NOT_REGISTERED' }),
    });
    auctionById.set('AUC-1', makeAuction({ registered: true, registrations: [7] }));
    lotPage.set('P-1', lotOf(makeAuction({ registered: true, registrations: [7] })));
    expect(await placeBid('AUC-1', 'P-1', { amount: 150 })).toEqual({ ok: false });
    expect(byId().data?.registered).toBe(false);
    expect(lotPage.get('P-1').data?.auction?.registered).toBe(false);
  });

  it('a refusal because the auction has ended reads the auction shown (by id) and the lot page on screen again', async () => {
    let ended = false;
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      'GET /api/products/P-1': () => jsonResponse(200, lotOf(makeAuction(ended ? { status: 'ended' } : {}))),
      'POST /api/bid': () => {
        ended = true;
        return jsonResponse(409, { error: 'This auction has ended', message: 'This auction has ended', code: 'AUCTION_ENDED' });
      },
    });
    renderHook(() => {
      useAuctionById('AUC-1');
      useLotPage('P-1');
    });
    await waitFor(() => expect(byId().status).toBe('success'));
    await waitFor(() => expect(lotPage.get('P-1').status).toBe('success'));
    const before = callsTo(fetchMock, 'GET', '/api/products/P-1').length;
    expect(await placeBid('AUC-1', 'P-1', { amount: 150 })).toEqual({ ok: false });
    await waitFor(() => expect(byId().data?.status).toBe('ended'));
    await waitFor(() => expect(lotPage.get('P-1').data?.auction?.status).toBe('ended'));
    expect(callsTo(fetchMock, 'GET', '/api/products/P-1')).toHaveLength(before + 2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions')).toHaveLength(0);
  });

  it('registering marks the auction registered, also over a read by id and a lot page read on their way', async () => {
    const lotReply = deferred<Response>();
    const pageReply = deferred<Response>();
    let lotReads = 0;
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      'GET /api/products/P-1': () => (lotReads++ === 0 ? lotReply.promise : pageReply.promise),
      'POST /api/auctions/register': jsonResponse(200, { message: 'Successfully registered for auction!' }),
    });
    const loadingById = auctionById.load('AUC-1');
    await waitFor(() => expect(lotReads).toBe(1));
    const loadingPage = lotPage.load('P-1');
    await waitFor(() => expect(lotReads).toBe(2));
    expect(await useAuctionActions.getState().register('AUC-1')).toBe(true);
    lotReply.resolve(jsonResponse(200, lotOf()));
    pageReply.resolve(jsonResponse(200, lotOf()));
    await Promise.all([loadingById, loadingPage]);
    expect(byId().data).toMatchObject({ registered: true, registrations: [7] });
    expect(lotPage.get('P-1').data?.auction).toMatchObject({ registered: true });
    expect(useAuctionActions.getState().registering).toEqual({});
  });

  it('an event that changes nothing shown does not notify (no re-render)', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 2 })]),
    });
    auctionById.set('AUC-1', makeAuction());
    await auctionProducts.load('AUC-1');
    const listChanged = vi.fn();
    const productsChanged = vi.fn();
    const stops = [auctionById.subscribe('AUC-1', listChanged), auctionProducts.subscribe('AUC-1', productsChanged)];
    // A bid elsewhere, an older bid here, and watchers: nothing shown changes.
    injectLiveEvent(placedEvent({ auction_id: 'AUC-9', product_id: 'X', bid_id: 1, highest_bid: 5, bid_count: 1, version: 1 }));
    injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 400, bid_count: 1, version: 1 }));
    injectLiveEvent({ event: 'auction:watchers', data: { auction_id: 'AUC-1', watchers: 4, server_time: T } });
    expect(listChanged).not.toHaveBeenCalled();
    expect(productsChanged).not.toHaveBeenCalled();
    injectLiveEvent({ event: 'auction:ended', data: { auction_id: 'AUC-1', server_time: T } });
    expect(listChanged).toHaveBeenCalledTimes(1);
    expect(productsChanged).not.toHaveBeenCalled();
    for (const stop of stops) stop();
  });

  it('a bid an automatic bid beat at once: outbid, the leader’s price shown, no success toast', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': jsonResponse(201, bidPlaced({ leading: false, highest_bid: 160, min_next_bid: 161, version: 3 })),
    });
    await auctionProducts.load('AUC-1');
    const outcome = await placeBid('AUC-1', 'P-1', { amount: 150 });
    expect(outcome).toMatchObject({ ok: true, leading: false, message: 'You were outbid by an automatic bid' });
    expect(products().data?.[0]).toMatchObject({ highest_bid: 160, min_next_bid: 161, my_status: 'outbid', my_max: null });
  });

  it('a bid answer older than what is shown leaves the shown state, and reads the standing again', async () => {
    let reads = 0;
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': () => jsonResponse(200, [reads++ === 0
        ? makeProduct({ highest_bid: 100, bid_count: 1 })
        : makeProduct({ highest_bid: 300, bid_count: 3, my_status: 'outbid' })]),
      'POST /api/bid': () => {
        // Someone bid again before the answer came back; the live event is already in.
        injectLiveEvent(placedEvent({ highest_bid: 300, bid_count: 3, version: 3 }));
        return jsonResponse(201, bidPlaced({ highest_bid: 150, version: 2 }));
      },
    });
    renderHook(() => useAuctionProducts('AUC-1'));
    await waitFor(() => expect(products().status).toBe('success'));
    await placeBid('AUC-1', 'P-1', { amount: 150 });
    expect(products().data?.[0]).toMatchObject({ highest_bid: 300, version: 3, my_status: null });
    await waitFor(() => expect(products().data?.[0]?.my_status).toBe('outbid'));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
  });

  it('personal events set the caller’s standing at once, then the products on screen are read once again', async () => {
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 2, my_status: 'leading', my_max: 900 })]),
    });
    renderHook(() => useAuctionProducts('AUC-1'));
    await waitFor(() => expect(products().status).toBe('success'));
    injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'P-1', product_name: 'Rolex', highest_bid: 1000, server_time: T } });
    injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'P-1', product_name: 'Rolex', highest_bid: 1100, server_time: T } });
    expect(products().data?.[0]).toMatchObject({ my_status: 'outbid', my_max: null });
    // Another auction's lot: nothing shown, nothing read.
    injectLiveEvent({ event: 'bid:won', data: { auction_id: 'AUC-9', product_id: 'X-1', amount: 5, server_time: T } });
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 400));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-9/products')).toHaveLength(0);
  });

  it('buy now: POST /api/buy-now, the lot sold and won, the wallet balance from the answer', async () => {
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1, buy_now_price: 900 })]),
      'POST /api/buy-now': jsonResponse(201, {
        message: 'You bought Rolex Datejust!', wallet_balance: 4100, version: 2,
        bid: { bid_id: 9, product_id: 'P-1', product_name: 'Rolex Datejust', auction_id: 'AUC-1', auction_name: 'Vintage Watches', amount: 900, timestamp: T, status: 'success', state: 'won', reason: null, buy_now: true },
      }),
    });
    await auctionProducts.load('AUC-1');
    expect(await useAuctionActions.getState().buyNow('AUC-1', 'P-1')).toBe(true);
    expect(callsTo(fetchMock, 'POST', '/api/buy-now')[0]?.body).toEqual({ product_id: 'P-1' });
    expect(products().data?.[0]).toMatchObject({ status: 'sold', highest_bid: 900, bid_count: 2, buy_now_price: null, my_status: 'won' });
    expect(walletBalance.get().data?.wallet_balance).toBe(4100);
    expect(useAuctionActions.getState().buying).toEqual({});
  });

  it('a buy-now price brought back by a rollback is read again', async () => {
    const fetchMock = routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1, buy_now_price: null })]),
    });
    renderHook(() => useAuctionProducts('AUC-1'));
    await waitFor(() => expect(products().status).toBe('success'));
    injectLiveEvent(rolledBackEvent({ highest_bid: 0, bid_count: 0, version: 2, buy_now_available: true }));
    await waitFor(() => expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2));
  });

  describe('when the session changes', () => {
    it('forgets the auction read by id and the products', async () => {
      routeFetch({
        'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
        'GET /api/products/P-1': jsonResponse(200, lotOf(makeAuction({ registered: true }))),
      });
      await auctionById.load('AUC-1');
      useSession.setState({ user: { ...useSession.getState().user!, id: 8 } });
      expect(byId()).toMatchObject({ status: 'idle', data: undefined });
      expect(products()).toMatchObject({ status: 'idle', data: undefined });
    });

    it('drops replies read for the previous user, and live events do not revive them', async () => {
      const lotReply = deferred<Response>();
      const productsReply = deferred<Response>();
      routeFetch({
        'GET /api/products/P-1': () => lotReply.promise,
        'GET /api/auctions/AUC-1/products': () => productsReply.promise,
      });
      const loadingLot = lotPage.load('P-1');
      const loadingProducts = auctionProducts.load('AUC-1');
      useSession.setState({ user: null, userToken: null });
      injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 900, bid_count: 4, version: 4 }));
      lotReply.resolve(jsonResponse(200, lotOf(makeAuction({ registered: true }))));
      productsReply.resolve(jsonResponse(200, [makeProduct()]));
      await Promise.all([loadingLot, loadingProducts]);
      expect(lotPage.get('P-1')).toMatchObject({ status: 'idle', data: undefined, fetching: false });
      expect(products()).toMatchObject({ status: 'idle', data: undefined, fetching: false });
    });

    it('drops a products re-read planned by auction:updated (the panel still on screen reads nothing for the next user)', async () => {
      const fetchMock = routeFetch({
        'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      });
      renderHook(() => useAuctionProducts('AUC-1'));
      await waitFor(() => expect(products().status).toBe('success'));
      injectLiveEvent({ event: 'auction:updated', data: liveAuction({ name: 'Renamed' }) });
      act(() => useSession.setState({ user: null, userToken: null }));
      await new Promise((r) => setTimeout(r, 400));
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(1);
    });
  });

  describe('after a reconnect', () => {
    /** AUC-1's products on screen, then the socket's first connect. */
    async function loadedAndConnected() {
      let serverProducts = [makeProduct({ highest_bid: 500, bid_count: 2 })];
      const fetchMock = routeFetch({
        'GET /api/auctions/AUC-1/products': () => jsonResponse(200, serverProducts),
      });
      const view = showProducts();
      await waitFor(() => expect(products().status).toBe('success'));
      useLive.getState().connect('u-tok');
      lastSocket().open();
      return {
        fetchMock,
        view,
        serverNow: (p: typeof serverProducts) => { serverProducts = p; },
      };
    }

    it('re-reads the products on screen, and shows what the server has now', async () => {
      const { fetchMock, serverNow } = await loadedAndConnected();
      // While the socket was down two bids were placed; no event will say so.
      serverNow([makeProduct({ highest_bid: 900, bid_count: 4 })]);
      act(() => reconnect());
      await waitFor(() => expect(products().data?.[0]).toMatchObject({ highest_bid: 900, bid_count: 4, version: 4 }));
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
      expect(products()).toMatchObject({ status: 'success', fetching: false });
    });

    it('the server\'s live:resync (its process missed events of others) re-reads the products on screen, as a reconnect does', async () => {
      const { fetchMock, serverNow } = await loadedAndConnected();
      // Bids placed through another process while Redis was away: their events never came.
      serverNow([makeProduct({ highest_bid: 1000, bid_count: 3 })]);
      act(() => lastSocket().resync());
      await waitFor(() => expect(products().data?.[0]).toMatchObject({ highest_bid: 1000, bid_count: 3, version: 3 }));
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    });

    it('reads nothing again on the first connect', async () => {
      const { fetchMock } = await loadedAndConnected();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(1);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });

    it('a stale live event arriving after the re-read does not overwrite it', async () => {
      const { serverNow } = await loadedAndConnected();
      serverNow([makeProduct({ highest_bid: 1200, bid_count: 5 })]);
      act(() => reconnect());
      await waitFor(() => expect(products().data?.[0]).toMatchObject({ highest_bid: 1200, version: 5 }));
      // Sent before the drop by the process that died, delivered late: older than what the re-read showed.
      injectLiveEvent(placedEvent({ auction_id: 'AUC-1', product_id: 'P-1', bid_id: 3, highest_bid: 700, bid_count: 3, version: 3 }));
      expect(products().data?.[0]).toMatchObject({ highest_bid: 1200, bid_count: 5, version: 5 });
    });

    it('reads again only what is on screen: products read once and no longer shown wait for their next showing', async () => {
      const { fetchMock, view } = await loadedAndConnected();
      view.unmount();
      act(() => reconnect());
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(1);
      // Shown again: what the tab had shows at once, and is read afresh.
      renderHook(() => useAuctionProducts('AUC-1'));
      expect(products().data?.[0]).toMatchObject({ highest_bid: 500 });
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    });

    it('reads nothing that was never asked for', async () => {
      const fetchMock = routeFetch({});
      useLive.getState().connect('u-tok');
      lastSocket().open();
      act(() => reconnect());
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});
