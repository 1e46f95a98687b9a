import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, sampleUser } from '../../../test/utils';
import { useSession } from '../../auth';
import { injectLiveEvent, useLive } from '../../live';
import { makeBid, routeFetch } from '../testing';
import { useBids } from './bids-store';

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
    useBids.getState().reset();
  });
  afterEach(() => {
    useLive.getState().disconnect();
    useBids.getState().reset();
    resetAppState();
  });

  it('loads the list and reports failures with the fallback text', async () => {
    const bid = makeBid();
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), new TypeError('offline')] });
    expect(await useBids.getState().load()).toEqual({ ok: true });
    expect(useBids.getState()).toMatchObject({ bids: [bid], loaded: true, loading: false, error: null });

    expect(await useBids.getState().load()).toEqual({ ok: false, error: 'Failed to load your bids' });
    // The list already shown stays.
    expect(useBids.getState().bids).toEqual([bid]);
  });

  it('patches the row on bid:outbid, then bid:reinstated, then bid:won, and re-reads the list to confirm', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', amount: 700, status: 'success' });
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid])] });
    await useBids.getState().load();

    injectLiveEvent({ event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 900 } });
    expect(useBids.getState().bids[0]!.status).toBe('outbid');
    injectLiveEvent({ event: 'bid:reinstated', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 700 } });
    expect(useBids.getState().bids[0]!.status).toBe('success');
    injectLiveEvent({ event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 700 } });
    expect(useBids.getState().bids[0]!.status).toBe('won');

    // One re-read for the burst.
    await vi.waitFor(() => expect(api.calls('GET /api/user-bids')).toHaveLength(2), { timeout: 3000 });
    await new Promise((r) => setTimeout(r, 350));
    expect(api.calls('GET /api/user-bids')).toHaveLength(2);
  });

  it('drops a list that was read before a live patch', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'success' });
    const slow = deferred<Response>();
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), () => jsonResponse(200, [{ ...bid, status: 'outbid' }])] });
    await useBids.getState().load();
    api.fn.mockImplementationOnce(() => slow.promise);
    const stale = useBids.getState().load();

    injectLiveEvent({ event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 900 } });
    slow.resolve(jsonResponse(200, [bid]));
    await stale;
    expect(useBids.getState().bids[0]!.status).toBe('outbid');
  });

  it('does not fetch on a live event when no one has asked for the list', async () => {
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [])] });
    injectLiveEvent({ event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 1 } });
    await new Promise((r) => setTimeout(r, 400));
    expect(api.fn).not.toHaveBeenCalled();
  });

  it('forgets the bids when another account signs in', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [makeBid()])] });
    await useBids.getState().load();
    useSession.getState().setUserSession({ token: 'other', user: { ...sampleUser, id: 99 } });
    expect(useBids.getState()).toMatchObject({ bids: [], loaded: false });
  });

  it('reads the list again after a reconnect (a bid outbid while down shows), not on the first connect', async () => {
    const bid = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'success' });
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [bid]), jsonResponse(200, [{ ...bid, status: 'outbid' }])] });
    await useBids.getState().load();
    useLive.getState().connect('u-tok');
    lastSocket().open();
    await new Promise((r) => setTimeout(r, 400));
    expect(api.calls('GET /api/user-bids')).toHaveLength(1);

    reconnect();
    await vi.waitFor(() => expect(useBids.getState().bids[0]!.status).toBe('outbid'), { timeout: 3000 });
    expect(api.calls('GET /api/user-bids')).toHaveLength(2);
  });
});
