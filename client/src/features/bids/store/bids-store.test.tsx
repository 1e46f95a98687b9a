import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, sampleUser } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { makeBid, routeFetch } from '../testing';
import { myBids, useMyBids } from './bids-store';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const stamp = { server_time: '2026-03-01T10:00:00.000Z' };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('bids store', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  const bids = () => myBids.get().data ?? [];

  it('loads the list and keeps it when a refresh fails', async () => {
    const bid = makeBid();
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), new TypeError('offline')] });
    expect(await myBids.load()).toEqual([bid]);
    expect(myBids.get()).toMatchObject({ data: [bid], status: 'success', fetching: false, error: undefined });

    await expect(myBids.load(undefined, { force: true })).rejects.toMatchObject({ code: 'NETWORK' });
    // The list already shown stays.
    expect(myBids.get()).toMatchObject({ data: [bid], status: 'success' });
  });

  it('patches the row on bid:outbid, then bid:reinstated, then bid:won, and re-reads the list to confirm', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', amount: 700, state: 'success' });
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid])] });
    renderHook(() => useMyBids());
    await vi.waitFor(() => expect(bids()).toHaveLength(1));

    injectLiveEvent({ event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 900 } });
    expect(bids()[0]!.state).toBe('outbid');
    injectLiveEvent({ event: 'bid:reinstated', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 700 } });
    expect(bids()[0]!.state).toBe('success');
    injectLiveEvent({ event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 700 } });
    expect(bids()[0]!.state).toBe('won');

    // One re-read for the burst.
    await vi.waitFor(() => expect(api.calls('GET /api/user-bids')).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 350));
    expect(api.calls('GET /api/user-bids')).toHaveLength(2);
  });

  it('drops a list that was read before a live patch', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'success' });
    const slow = deferred<Response>();
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), () => jsonResponse(200, [{ ...bid, status: 'failed', state: 'outbid' }])] });
    await myBids.load();
    api.fn.mockImplementationOnce(() => slow.promise);
    const stale = myBids.load(undefined, { force: true });

    injectLiveEvent({ event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 900 } });
    slow.resolve(jsonResponse(200, [bid]));
    await stale;
    expect(bids()[0]!.state).toBe('outbid');
  });

  it('does not fetch on a live event when no one shows the list', async () => {
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [])] });
    injectLiveEvent({ event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 1 } });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.fn).not.toHaveBeenCalled();
  });

  it('forgets the bids when another account signs in', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [makeBid()])] });
    await myBids.load();
    useSession.getState().setUserSession({ token: 'other', user: { ...sampleUser, id: 99 } });
    expect(myBids.get()).toMatchObject({ data: undefined, status: 'idle' });
  });

  it('reads the list again after a reconnect (a bid outbid while down shows), not on the first connect', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'success' });
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), jsonResponse(200, [{ ...bid, status: 'failed', state: 'outbid' }])] });
    renderHook(() => useMyBids());
    await vi.waitFor(() => expect(bids()).toHaveLength(1));
    useLive.getState().connect('u-tok');
    lastSocket().open();
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls('GET /api/user-bids')).toHaveLength(1);

    reconnect();
    await vi.waitFor(() => expect(bids()[0]!.state).toBe('outbid'));
    expect(api.calls('GET /api/user-bids')).toHaveLength(2);
  });
});
