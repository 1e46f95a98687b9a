import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent, useLive } from '../../live';
import { NOW, callsTo, makeAuction, makeProduct, routeFetch, setUpUser, tearDownStores } from '../test/fixtures';
import { useAuctions } from './auctions-store';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const T = new Date(NOW).toISOString();

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
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

  it('loads the list with the user token', async () => {
    const fetchMock = routeFetch({ 'GET /api/auctions': jsonResponse(200, [makeAuction()]) });
    expect(await useAuctions.getState().loadAuctions()).toBe(true);
    expect(useAuctions.getState()).toMatchObject({ listStatus: 'ready', auctions: [makeAuction()] });
    expect(callsTo(fetchMock, 'GET', '/api/auctions')[0]?.headers.authorization).toBe('Bearer u-tok');
  });

  it('applies live events to the store as they arrive', async () => {
    routeFetch({ 'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]) });
    await useAuctions.getState().loadProducts('AUC-1');
    injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 250, bid_count: 2, version: 2, bidder: 'b***b', amount: 250, timestamp: T, server_time: T } });
    expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 250, bid_count: 2 });
  });

  it('replays events that arrive while products load over the (older) reply', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions/AUC-1/products': () => reply.promise });
    const loading = useAuctions.getState().loadProducts('AUC-1');
    injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 2, highest_bid: 900, bid_count: 4, version: 4, bidder: 'b***b', amount: 900, timestamp: T, server_time: T } });
    reply.resolve(jsonResponse(200, [makeProduct({ highest_bid: 700, bid_count: 3 })]));
    await loading;
    expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 900, bid_count: 4 });
    expect(useAuctions.getState().productsStatus['AUC-1']).toBe('ready');
  });

  it('keeps a reply newer than an event that crossed it, and ignores later events older than the reply', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions/AUC-1/products': () => reply.promise });
    const loading = useAuctions.getState().loadProducts('AUC-1');
    injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 3, highest_bid: 800, bid_count: 3, version: 3, bidder: 'b***b', amount: 800, timestamp: T, server_time: T } });
    reply.resolve(jsonResponse(200, [makeProduct({ highest_bid: 1200, bid_count: 5, version: 5 })]));
    await loading;
    const loaded = useAuctions.getState().products;
    expect(loaded['AUC-1']?.[0]).toMatchObject({ highest_bid: 1200, bid_count: 5, version: 5 });
    injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 4, highest_bid: 1000, bid_count: 4, version: 4, bidder: 'b***b', amount: 1000, timestamp: T, server_time: T } });
    expect(useAuctions.getState().products).toBe(loaded);
  });

  it('replays catalogue events that arrive while the list loads', async () => {
    const reply = deferred<Response>();
    routeFetch({ 'GET /api/auctions': () => reply.promise });
    const loading = useAuctions.getState().loadAuctions();
    injectLiveEvent({ event: 'auction:deleted', data: { id: 'AUC-2', server_time: T } });
    reply.resolve(jsonResponse(200, [makeAuction(), makeAuction({ id: 'AUC-2' })]));
    await loading;
    expect(useAuctions.getState().auctions.map((a) => a.id)).toEqual(['AUC-1']);
  });

  it('reads a shown auction’s products again after auction:updated (which lists none), once per burst of edits', async () => {
    let reads = 0;
    const fetchMock = routeFetch({
      'GET /api/auctions': jsonResponse(200, [makeAuction(), makeAuction({ id: 'AUC-2' })]),
      'GET /api/auctions/AUC-1/products': () => jsonResponse(200, [makeProduct({ name: reads++ === 0 ? 'Omega' : 'Renamed lot' })]),
    });
    await useAuctions.getState().loadAuctions();
    await useAuctions.getState().loadProducts('AUC-1');
    const base = { name: 'Vintage Watches', valid_until: makeAuction().valid_until, product_count: 1, status: 'active' as const, server_time: T };
    for (let i = 0; i < 5; i++) injectLiveEvent({ event: 'auction:updated', data: { ...base, id: 'AUC-1' } });
    // An auction whose products are not shown is not read.
    injectLiveEvent({ event: 'auction:updated', data: { ...base, id: 'AUC-2' } });
    await waitFor(() => expect(useAuctions.getState().products['AUC-1']?.[0]?.name).toBe('Renamed lot'));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 400));
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
    expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-2/products')).toHaveLength(0);
  });

  it('a bid reply does not count a bid twice when the live event came first', async () => {
    const reply = deferred<Response>();
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': () => reply.promise,
    });
    await useAuctions.getState().loadProducts('AUC-1');
    const placing = useAuctions.getState().placeBid('AUC-1', 'P-1', 150);
    injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 5, highest_bid: 150, bid_count: 2, version: 2, bidder: 'a***a', amount: 150, timestamp: T, server_time: T } });
    reply.resolve(jsonResponse(201, { message: 'Bid placed successfully!', highest_bid: 150, wallet_balance: 50 }));
    expect(await placing).toBe(true);
    expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 150, bid_count: 2 });
  });

  it('a bid reply moves the numbers when no live event has (the socket may be down)', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct({ highest_bid: 100, bid_count: 1 })]),
      'POST /api/bid': jsonResponse(201, { message: 'Bid placed successfully!', highest_bid: 150, wallet_balance: 50 }),
    });
    await useAuctions.getState().loadProducts('AUC-1');
    await useAuctions.getState().placeBid('AUC-1', 'P-1', 150);
    expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 150, bid_count: 2 });
  });

  it('a refusal for a sold product marks it sold at once', async () => {
    routeFetch({
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [makeProduct()]),
      'POST /api/bid': jsonResponse(409, { error: 'This product has already been sold', message: 'This product has already been sold', code: 'PRODUCT_SOLD' }),
    });
    await useAuctions.getState().loadProducts('AUC-1');
    expect(await useAuctions.getState().placeBid('AUC-1', 'P-1', 150)).toBe(false);
    expect(useAuctions.getState().products['AUC-1']?.[0]?.status).toBe('sold');
  });

  describe('after a reconnect', () => {
    /** The list and AUC-1's products loaded, then the socket's first connect. */
    async function loadedAndConnected() {
      let list = [makeAuction()];
      let products = [makeProduct({ highest_bid: 500, bid_count: 2 })];
      const fetchMock = routeFetch({
        'GET /api/auctions': () => jsonResponse(200, list),
        'GET /api/auctions/AUC-1/products': () => jsonResponse(200, products),
      });
      await useAuctions.getState().loadAuctions();
      await useAuctions.getState().loadProducts('AUC-1');
      useLive.getState().connect('u-tok');
      lastSocket().open();
      return {
        fetchMock,
        serverNow: (l: typeof list, p: typeof products) => { list = l; products = p; },
      };
    }

    it('re-reads the list and the loaded products, and shows what the server has now', async () => {
      const { fetchMock, serverNow } = await loadedAndConnected();
      // While the socket was down an auction opened and two bids were placed; no event will say so.
      serverNow([makeAuction(), makeAuction({ id: 'AUC-2', name: 'Old Maps' })], [makeProduct({ highest_bid: 900, bid_count: 4 })]);
      reconnect();
      await waitFor(() => expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 900, bid_count: 4, version: 4 }));
      await waitFor(() => expect(useAuctions.getState().auctions.map((a) => a.id)).toEqual(['AUC-1', 'AUC-2']));
      expect(callsTo(fetchMock, 'GET', '/api/auctions')).toHaveLength(2);
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(2);
      expect(useAuctions.getState()).toMatchObject({ listStatus: 'ready', productsStatus: { 'AUC-1': 'ready' } });
    });

    it('reads nothing again on the first connect', async () => {
      const { fetchMock } = await loadedAndConnected();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(callsTo(fetchMock, 'GET', '/api/auctions')).toHaveLength(1);
      expect(callsTo(fetchMock, 'GET', '/api/auctions/AUC-1/products')).toHaveLength(1);
    });

    it('a stale live event arriving after the re-read does not overwrite it', async () => {
      const { serverNow } = await loadedAndConnected();
      serverNow([makeAuction()], [makeProduct({ highest_bid: 1200, bid_count: 5 })]);
      reconnect();
      await waitFor(() => expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 1200, version: 5 }));
      // Sent before the drop by the process that died, delivered late: older than what the re-read showed.
      injectLiveEvent({ event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 3, highest_bid: 700, bid_count: 3, version: 3, bidder: 'b***b', amount: 700, timestamp: T, server_time: T } });
      expect(useAuctions.getState().products['AUC-1']?.[0]).toMatchObject({ highest_bid: 1200, bid_count: 5, version: 5 });
    });

    it('reads nothing that was never asked for', async () => {
      const fetchMock = routeFetch({});
      useLive.getState().connect('u-tok');
      lastSocket().open();
      reconnect();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});
