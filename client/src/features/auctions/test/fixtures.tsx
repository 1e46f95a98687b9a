/** Factories and a route-aware fetch mock for the auctions feature's tests. */
import type { Auction, Product } from '@auction/shared';
import { useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { jsonResponse, sampleUser } from '../../../test/utils';
import { useSession } from '../../auth';
import { useClock, useLive } from '../../live';
import { useAuctionActions } from '../store/auctions-store';

/** The server-corrected "now" every test starts at. */
export const NOW = Date.parse('2026-06-01T10:00:00.000Z');
const HOUR = 3_600_000;
export const inHours = (h: number) => new Date(NOW + h * HOUR).toISOString();

export function makeAuction(over: Partial<Auction> = {}): Auction {
  return {
    id: 'AUC-1', name: 'Vintage Watches', valid_until: inHours(72), product_ids: ['P-1'], registrations: [],
    registered: false, product_count: 1, status: 'active', ...over,
  };
}

/** A product whose every change so far was a bid, so its version is its bid count unless given. */
export function makeProduct(over: Partial<Product> = {}): Product {
  return {
    id: 'P-1', name: 'Rolex Datejust', description: '1978, steel case, serviced', status: 'available',
    auction_id: 'AUC-1', highest_bid: 0, bid_count: 0, version: over.bid_count ?? 0, ...over,
  };
}

type Reply = Response | Error | ((body: unknown) => Response | Promise<Response>);

/**
 * Stubs fetch with answers by "METHOD /path" (query ignored); anything else is a 404. Each call is
 * recorded with its parsed body and headers.
 */
export function routeFetch(routes: Record<string, Reply>) {
  const fn = vi.fn(async (url: string, init?: RequestInit): Promise<Response> => {
    const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
    const reply = routes[key];
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    if (reply === undefined) return jsonResponse(404, { error: `no route ${key}`, message: `no route ${key}`, code: 'NOT_FOUND' });
    if (reply instanceof Error) throw reply;
    if (typeof reply === 'function') return reply(body);
    return reply.clone();
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function callsTo(fetchMock: ReturnType<typeof routeFetch>, method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([url, init]) => (init?.method ?? 'GET') === method && url.split('?')[0] === path)
    .map(([, init]) => ({
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    }));
}

/**
 * A signed-in user (a new session: the session store's resetAll() empties the auctions' resources), a
 * frozen clock and a live store that records watches.
 */
export function setUpUser() {
  localStorage.setItem('token', 'u-tok');
  localStorage.setItem('user', JSON.stringify(sampleUser));
  useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
  useClock.setState({ now: NOW, offset: 0 });
  const watch = vi.fn();
  const unwatch = vi.fn();
  useLive.setState({ status: 'live', watchers: {}, watch, unwatch });
  return { watch, unwatch };
}

export function LocationSearchProbe() {
  const location = useLocation();
  return <div data-testid="location">{`${location.pathname}${location.search}`}</div>;
}

const liveActions = { watch: useLive.getState().watch, unwatch: useLive.getState().unwatch };

/** Undoes setUpUser's stubs on the shared stores (resetAppState forgets the resources). */
export function tearDownStores() {
  useLive.setState({ ...liveActions, status: 'idle', watchers: {} });
  useAuctionActions.setState({ registering: {} });
}
