/**
 * Shared setup of the bidder API suites (routes/bidder-*.test.ts): the bidder's side of the API,
 * endpoint by endpoint (README.md#api, docs/money.md, docs/bidding.md): success shapes, every error code a bidder can meet,
 * and the rule that a refusal is recorded as a `failed` bid and never debited. Runs on a movable clock
 * so that ends, timestamps and countdowns are exact. `app` and `clock` are live bindings: `withApp()`
 * replaces them before each test, and the helpers below always use the current ones.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import type { App } from '../context.js';
import { call, createAuction, HOUR, makeApp, makeClock, uniqueName } from './helpers.js';

export let clock: ReturnType<typeof makeClock>;
export let app: App;

/** Call once at the top of a suite file: a fresh app and clock before each test, closed after it. */
export function withApp() {
  beforeEach(async () => {
    clock = makeClock();
    // AUTO_SETTLE off: the scheduler would otherwise settle an auction the moment the moved clock passes its end.
    app = await makeApp({ autoSettle: false }, { now: clock.now });
  });
  afterEach(async () => { await app.close(); });
}

/** A time as the server answers it (in TIMEZONE's offset, docs/money.md#times); the server reads it back as the same instant. */
import { iso } from '../presenters/format.js';
export { iso };

/** An auction over new products, ending `endsIn` after the test clock's now. */
export function auction(adminToken: string, opts: { products?: number; endsIn?: number } = {}) {
  return createAuction(app, adminToken, { now: clock.t, ...opts });
}

/** A product with a chosen name (the helper names them `Product <id>`). */
export async function namedProduct(adminToken: string, name: string, id = uniqueName('NP')) {
  const res = await call(app, 'POST', '/api/admin/product', { id, name, description: `About ${name}` }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

export async function auctionOver(adminToken: string, productIds: string[], endsIn = 2 * HOUR) {
  const id = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', { id, name: `Auction ${id}`, valid_until: iso(clock.t + endsIn), product_ids: productIds }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

export interface UserBidJson {
  bid_id: number; product_id: string; product_name: string; auction_id: string; amount: number; timestamp: string; status: string; state: string; reason: string | null;
  max_amount: number | null; buy_now: boolean;
}
export interface TxJson { _id: string; type: string; amount: number; timestamp: string; meta: { notes: string | null; product_id: string | null; product_name: string | null } }

export const myBids = async (token: string) => (await call(app, 'GET', '/api/user-bids', undefined, token)).json<UserBidJson[]>();
export const myTransactions = async (token: string) => (await call(app, 'GET', '/api/wallet/transactions', undefined, token)).json<{ transactions: TxJson[] }>().transactions;
export const highest = async (token: string, productId: string) =>
  (await call(app, 'GET', `/api/highest-bid?product_key=${encodeURIComponent(productId)}`, undefined, token)).json<{ highest_bid: number }>().highest_bid;
export const settle = (adminToken: string, auctionId: string) => call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, adminToken);
