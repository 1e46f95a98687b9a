/**
 * Shared setup of the admin catalogue API suites (routes/catalogue-*.test.ts; README.md#api,
 * docs/money.md, docs/bidding.md): products, auctions, settlement, and the admin figures built on them, all through HTTP.
 * Every test runs on a fresh in-memory database with a clock the test moves (2026-11-24T00:00Z at the
 * start), so times and statuses are exact. `app` and `clock` are live bindings: `withApp()` replaces
 * them before each test (or each describe), and the helpers below always use the current ones.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { App } from '../context.js';
import { bid, call, createAuction, expectError, HOUR, makeApp, makeClock } from './helpers.js';

type Clock = ReturnType<typeof makeClock>;
export type Method = InjectOptions['method'];
export type Account = { token: string };

export interface ProductJson {
  id: string; name: string; description: string; status: 'available' | 'sold'; auction_id: string | null; highest_bid: number; bid_count: number; version: number;
  starting_price: number; min_next_bid: number; min_next_bid_all_in: number; gst_pct: number; buyer_premium_pct: number; premium_gst_pct: number;
  reserve_met: boolean | null; buy_now_price: number | null;
  my_status: 'leading' | 'outbid' | 'won' | 'lost' | null; my_max: number | null;
  /** Only for the admin who owns the product. */
  reserve_price?: number | null;
  images: { id: number; url: string; thumb_url: string }[];
  /** For a bidder: whether they saved the lot. */
  saved?: boolean;
  category: { id: number; name: string; slug: string } | null;
  lot_number: number | null;
}
export interface AuctionJson {
  id: string; name: string; valid_until: string; product_ids: string[]; registrations: number[]; product_count: number;
  status: 'active' | 'ended' | 'settled'; created_by: number; created_at: string; settled_at: string | null;
  original_valid_until: string; increment_rule: 'flat' | 'ladder' | 'custom'; increment_amount: number;
  increment_tiers: { below: number | null; step: number }[]; cancel_policy: 'until_end' | 'strict'; soft_close_s: number;
  bidder_cancels?: { user_id: number; username: string; cancels: number }[]; max_extension_s: number; extended: boolean;
  buyer_premium_pct: number; premium_gst_pct: number;
}
interface TransactionJson { _id: string; type: 'topup' | 'bid' | 'refund'; amount: number; timestamp: string; meta: { notes: string | null; product_id: string | null } }
interface UserBidJson { bid_id: number; product_id: string; auction_id: string; amount: number; status: string; state: string }

// The specification's fixed wording for these refusals, and the server's own sentences for the rules it does not word (naming the field and why).
export const FILL_PRODUCT = 'Please fill all fields';
export const FILL_PRODUCT_EDIT = 'Fill required fields';
export const FILL_AUCTION = 'Please fill all fields and select at least one product';
export const FILL_AUCTION_EDIT = 'Please fill all required fields';
export const FUTURE = 'valid_until must be in the future';
export const DATE_TIME = 'valid_until must be a date-time such as 2026-11-24T07:45';
export const ID_RULE = 'id must be 1–64 characters: letters, digits, _ - or .';
export const NAME_LONG = 'name must be at most 120 characters';
export const DESCRIPTION_LONG = 'description must be at most 2000 characters';
export const START = Date.parse('2026-11-24T00:00:00.000Z');

export let app: App;
export let clock: Clock;

/** A fresh app (AUTO_SETTLE off: only the settle button settles here) per test, or one per describe. */
export function withApp(scope: 'each' | 'all' = 'each') {
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    clock = makeClock(START);
    app = await makeApp({ autoSettle: false }, { now: clock.now });
  });
  (scope === 'each' ? afterEach : afterAll)(async () => { await app.close(); });
}

/** Replaces the current app (a test that needs another configuration); `withApp` closes it after the test. */
export function setApp(next: App) {
  app = next;
}

/** A time as the server answers it (in TIMEZONE's offset, docs/money.md#times); the server reads it back as the same instant. */
import { iso } from '../presenters/format.js';
export { iso };
export const inHours = (h: number) => iso(clock.t + h * HOUR);
export const get = (url: string, token: string) => call(app, 'GET', url, undefined, token);
export const newAuction = (token: string, opts: { products?: number; endsIn?: number; id?: string } = {}) => createAuction(app, token, { now: clock.t, ...opts });
export const unassigned = async (token: string) => (await get('/api/admin/products/unassigned', token)).json<ProductJson[]>();
export const adminAuction = async (id: string, token: string) => (await get(`/api/admin/auction/${id}`, token)).json<AuctionJson>();
export const adminProducts = async (id: string, token: string) => (await get(`/api/admin/auction/${id}/products`, token)).json<ProductJson[]>();
export const transactionsOf = async (token: string) => (await get('/api/wallet/transactions', token)).json<{ transactions: TransactionJson[] }>().transactions;
export const bidsOf = async (token: string) => (await get('/api/user-bids', token)).json<UserBidJson[]>();
export const byId = <T extends { id: string }>(rows: T[]) => Object.fromEntries(rows.map((r) => [r.id, r]));
export const sortedIds = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

/**
 * A product as createProducts makes it, unassigned and without bids, with overrides, as `viewer` sees it:
 * its owner (who alone sees `reserve_price`) or anyone else (another admin, or a bidder who never bid on it).
 * No pricing is set, so (docs/bidding.md) the starting price is 0, there is no reserve and no buy-now price,
 * and with the default `flat` rule the next bid is ₹1 without a bid and the highest bid + ₹1 with one.
 */
export const productJson = (id: string, over: Partial<ProductJson> = {}, viewer: 'owner' | 'other' = 'owner'): ProductJson => {
  const highest = over.highest_bid ?? 0;
  const product: ProductJson = {
    // The version's own rules are tested with bids (bidder-bidding.test.ts); here any version will do.
    id, name: `Product ${id}`, description: `Description of ${id}`, status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: expect.any(Number) as number,
    starting_price: 0, min_next_bid: highest > 0 ? highest + 1 : 1, reserve_met: null,
    // No premium and no GST (docs/money.md#all-in-prices): what a win costs in all is the bid itself.
    min_next_bid_all_in: (over.min_next_bid ?? (highest > 0 ? highest + 1 : 1)), gst_pct: 0, buyer_premium_pct: 0, premium_gst_pct: 18, buy_now_price: null, my_status: null, my_max: null, images: [],
    // Categories and lot numbers have their own tests (categories.test.ts, lot-numbers.test.ts).
    category: null, lot_number: (over.auction_id ?? null) === null ? null : expect.any(Number) as number,
    // The owner sees who won a sold lot (its username; the exact name is tested in wallet-ledger.test.ts).
    ...(viewer === 'owner' ? { reserve_price: null, winner: over.status === 'sold' ? expect.any(String) as string : null } : {}),
    ...over,
  };
  return product;
};

/** The rules every auction shape shows for an auction created without any (testConfig: SOFT_CLOSE_S=0), ending at `validUntil`. */
export const defaultRules = (validUntil: string) => ({
  original_valid_until: validUntil, increment_rule: 'flat' as const, increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end' as const,
  soft_close_s: 0, max_extension_s: 3600, extended: false, buyer_premium_pct: 0, premium_gst_pct: 18,
});

export function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  const body = expectError(res, 400, 'VALIDATION');
  expect(body.error).toBe(message);
  expect(body.field).toBe(field);
  return body;
}

/** A request with a raw body (or none) and an explicit content type, which `call` cannot send. */
export function raw(method: Method, url: string, token: string, payload?: string) {
  return app.inject({
    method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });
}

export async function placeBid(token: string, productId: string, amount: number) {
  const res = await bid(app, token, productId, amount);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bid: UserBidJson }>().bid;
}
