/** Factories and a route-aware fetch mock for the auctions feature's tests. */
import type { Auction, AuctionCard, AuctionSearchPage, BidPlaced, BidPlacedData, BidRolledBackData, LiveAuction, Product, ProductSoldData } from '@auction/shared';
import { useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { jsonResponse, sampleUser, setServerNow } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { useLive, type LiveEvent } from '../../../lib/live';
import { useAuctionActions, useExtensions } from '../store/auctions-store';

/** The server-corrected "now" every test starts at. */
export const NOW = Date.parse('2026-06-01T10:00:00.000Z');
const HOUR = 3_600_000;
export const inHours = (h: number) => new Date(NOW + h * HOUR).toISOString();
/** NOW as ISO text (events' server_time). */
export const T0 = new Date(NOW).toISOString();

export function makeAuction(over: Partial<Auction> = {}): Auction {
  const valid_until = over.valid_until ?? inHours(72);
  return {
    id: 'AUC-1', name: 'Vintage Watches', valid_until, product_ids: ['P-1'], registrations: [],
    registered: false, product_count: 1, status: 'active',
    original_valid_until: valid_until, increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false,
    highest_bid: 0, bid_count: 0, cover: null, ...over,
  };
}

/**
 * A product whose every change so far was a bid, so its version is its bid count unless given; its
 * minimum next bid follows the flat rule from its highest bid and starting price unless given.
 */
export function makeProduct(over: Partial<Product> = {}): Product {
  const highest = over.highest_bid ?? 0;
  const starting = over.starting_price ?? 0;
  return {
    id: 'P-1', name: 'Rolex Datejust', description: '1978, steel case, serviced', status: 'available',
    auction_id: 'AUC-1', highest_bid: 0, bid_count: 0, version: over.bid_count ?? 0,
    starting_price: 0, min_next_bid: highest > 0 ? highest + 1 : Math.max(starting, 1), reserve_met: null, buy_now_price: null, images: [],
    my_status: null, my_max: null, ...over,
  };
}

/** A live `bid:placed` for P-1 of AUC-1 (someone else's plain bid unless told), its version its bid count. */
export function placedEvent(over: Partial<BidPlacedData> = {}): LiveEvent {
  const highest = over.highest_bid ?? over.amount ?? 100;
  const count = over.bid_count ?? 1;
  return {
    event: 'bid:placed',
    data: {
      auction_id: 'AUC-1', product_id: 'P-1', bid_id: 100 + count, highest_bid: highest, bid_count: count, version: over.version ?? count,
      bidder: 'b***b', amount: highest, timestamp: T0, server_time: T0, min_next_bid: highest + 1, reserve_met: null, buy_now_available: false, auto: false,
      ...over,
    },
  };
}

/** A live `bid:rolledback` for P-1 of AUC-1. */
export function rolledBackEvent(over: Partial<BidRolledBackData> = {}): LiveEvent {
  const highest = over.highest_bid ?? 0;
  return {
    event: 'bid:rolledback',
    data: {
      auction_id: 'AUC-1', product_id: 'P-1', highest_bid: highest, bid_count: 0, version: 1, server_time: T0,
      min_next_bid: highest > 0 ? highest + 1 : 1, reserve_met: null, buy_now_available: false, ...over,
    },
  };
}

/** A live `product:sold` for P-1 of AUC-1 (at the end, not bought now, unless told). */
export function soldEvent(over: Partial<ProductSoldData> = {}): LiveEvent {
  return { event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 100, version: 1, server_time: T0, buy_now: false, ...over } };
}

/** A catalogue summary (`auction:created` / `auction:updated`) of AUC-1. */
export function liveAuction(over: Partial<LiveAuction> = {}): LiveAuction {
  const valid_until = over.valid_until ?? inHours(72);
  return {
    id: 'AUC-1', name: 'Vintage Watches', valid_until, product_count: 1, status: 'active', server_time: T0,
    original_valid_until: valid_until, increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false, ...over,
  };
}

/** A `POST /bid` answer: the bid leads unless told. */
export function bidPlaced(over: Partial<BidPlaced> & { highest_bid: number }): BidPlaced {
  const leading = over.leading ?? true;
  return {
    message: leading ? 'Bid placed successfully!' : 'You were outbid by an automatic bid',
    bid: {
      bid_id: 500, product_id: 'P-1', product_name: 'Rolex Datejust', auction_id: 'AUC-1', auction_name: 'Vintage Watches',
      amount: over.highest_bid, timestamp: T0, status: leading ? 'success' : 'failed', state: leading ? 'success' : 'outbid', reason: leading ? null : 'OUTBID_BY_PROXY',
    },
    wallet_balance: 0, version: 1, leading, max_amount: null, min_next_bid: over.highest_bid + 1, ...over,
  };
}

/** The card Browse shows of an auction. */
export function cardOf(a: Auction): AuctionCard {
  return {
    id: a.id, name: a.name, valid_until: a.valid_until, status: a.status, product_count: a.product_count, bid_count: a.bid_count,
    highest_bid: a.highest_bid, cover: a.cover, registered: a.registered,
  };
}

export interface CatalogueServer {
  auctions: Auction[];
  /** Each auction's products (the first is the one its lot page is read by). */
  products?: Record<string, Product[]>;
  /** Category slugs per auction (its lots' categories, subcategories' parents included). */
  categories?: Record<string, string[]>;
}

/**
 * A stand-in for the server's paged catalogue: `GET /api/catalogue/auctions` (tab, q over the name, category,
 * registered, sort, limit and an index cursor, counts under the same filters), each auction's products and
 * the lot page of its first product (how Browse reads an auction by id). Routes to spread into routeFetch.
 */
export function catalogueRoutes(server: CatalogueServer): Record<string, Reply> {
  const routes: Record<string, Reply> = {
    'GET /api/catalogue/auctions': (_body, url) => {
      const q = new URL(url, 'http://x').searchParams;
      const ended = (a: Auction) => a.status !== 'active' || Date.parse(a.valid_until) <= NOW;
      const inTab = (tab: string) => (a: Auction) => (tab === 'ended' ? ended(a)
        : !ended(a) && (tab !== 'ending' || Date.parse(a.valid_until) - NOW <= 24 * HOUR));
      const words = (q.get('q') ?? '').toLowerCase();
      const category = q.get('category');
      const filtered = server.auctions.filter((a) => (!words || a.name.toLowerCase().includes(words))
        && (!category || (server.categories?.[a.id] ?? []).includes(category))
        && (q.get('registered') !== '1' || a.registered));
      const tab = q.get('tab') ?? 'active';
      const sort = q.get('sort') ?? 'ending';
      const list = filtered.filter(inTab(tab)).sort((x, y) => (sort === 'bids' ? y.bid_count - x.bid_count
        : sort === 'newest' ? y.id.localeCompare(x.id)
          : (tab === 'ended' ? -1 : 1) * (Date.parse(x.valid_until) - Date.parse(y.valid_until))) || x.id.localeCompare(y.id));
      const from = Number(q.get('cursor') ?? 0);
      const limit = Number(q.get('limit') ?? 24);
      const items = list.slice(from, from + limit).map(cardOf);
      const page: AuctionSearchPage = {
        items, next_cursor: from + limit < list.length ? String(from + limit) : null,
        counts: { active: filtered.filter(inTab('active')).length, ending: filtered.filter(inTab('ending')).length, ended: filtered.filter(inTab('ended')).length },
      };
      return jsonResponse(200, page);
    },
  };
  for (const a of server.auctions) {
    const products = server.products?.[a.id] ?? [makeProduct({ id: `${a.id}-P`, auction_id: a.id })];
    routes[`GET /api/auctions/${a.id}/products`] ??= jsonResponse(200, products);
    const first = products[0];
    if (first) routes[`GET /api/products/${first.id}`] = jsonResponse(200, { ...first, auction: a, bids: [], bids_next_before: null });
  }
  return routes;
}

type Reply = Response | Error | ((body: unknown, url: string) => Response | Promise<Response>);

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
    if (typeof reply === 'function') return reply(body, url);
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
 * A signed-in user (a new session: the session store clears the query cache), a
 * frozen clock and a live store that records watches.
 */
export function setUpUser() {
  localStorage.setItem('token', 'u-tok');
  localStorage.setItem('user', JSON.stringify(sampleUser));
  useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
  setServerNow(NOW);
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

/** Undoes setUpUser's stubs on the shared stores (resetAppState clears the query cache). */
export function tearDownStores() {
  useLive.setState({ ...liveActions, status: 'idle', watchers: {} });
  useAuctionActions.setState({ registering: {}, buying: {} });
  useExtensions.setState({ count: {}, lastEnd: {} });
}
