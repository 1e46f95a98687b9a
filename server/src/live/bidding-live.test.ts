/**
 * The live side of the bidding rules (docs/bidding.md, docs/live-protocol.md): soft close's
 * `auction:extended` reaches the auction room, the owner's admin room and every socket's catalogue;
 * an automatic raise of a maximum goes out as `bid:placed` marked `auto`, with the lot's new minimum;
 * a buy-now sale is `product:sold` with `buy_now`, and the beaten leader hears `bid:outbid`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { bid, call, makeApp, richBidder, signUpAdmin, signUpUser, uniqueName } from '../test/helpers.js';
import { connect, eventually, listen } from '../test/live-helpers.js';
import { iso } from '../presenters/format.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

async function setUp(overrides: Parameters<typeof makeApp>[0] = {}) {
  const app = await makeApp(overrides);
  apps.push(app);
  const base = await listen(app);
  const client = async (token: string) => {
    const c = await connect(base, token);
    cleanups.push(c.close);
    return c;
  };
  return { app, client };
}

async function lotIn(app: App, adminToken: string, body: object, auction: object, endsIn = 3_600_000) {
  const productId = uniqueName('L');
  expect((await call(app, 'POST', '/api/admin/product', { id: productId, name: `Lot ${productId}`, description: 'A lot', ...body }, adminToken)).statusCode).toBe(201);
  const auctionId = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Live', valid_until: iso(Date.now() + endsIn), product_ids: [productId], ...auction }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return { productId, auctionId };
}

describe('live bidding events', () => {
  it('a bid in the soft-close window extends the auction for its room, its owner and every socket', async () => {
    const { app, client } = await setUp();
    const admin = await signUpAdmin(app);
    const { productId, auctionId } = await lotIn(app, admin.token, {}, { soft_close_s: 120 }, 60_000);
    const asha = await richBidder(app, 100, [auctionId]);
    const watcher = await client((await signUpUser(app)).token);
    await watcher.watch(auctionId);
    const owner = await client(admin.token);
    const elsewhere = await client((await signUpUser(app)).token);

    const before = Date.now();
    expect((await bid(app, asha.token, productId, 5)).statusCode).toBe(201);
    for (const c of [watcher, owner]) {
      await eventually(() => expect(c.roomEvents('auction:extended')).toHaveLength(1));
      const data = c.roomEvents('auction:extended')[0]!.data as { auction_id: string; valid_until: string; original_valid_until: string };
      expect(data.auction_id).toBe(auctionId);
      expect(Date.parse(data.valid_until)).toBeGreaterThanOrEqual(before + 120_000);
      expect(Date.parse(data.original_valid_until)).toBeLessThan(Date.parse(data.valid_until));
    }
    await eventually(() => expect(elsewhere.personalOf('auction:extended')).toEqual([
      expect.objectContaining({ auction_id: auctionId, id: auctionId, extended: true, status: 'active', soft_close_s: 120 }),
    ]));
  });

  it('an automatic raise is bid:placed marked auto with the new minimum; a buy-now sale is product:sold with buy_now', async () => {
    const { app, client } = await setUp();
    const admin = await signUpAdmin(app);
    const { productId, auctionId } = await lotIn(app, admin.token, { buy_now_price: 5000, reserve_price: 2000 }, {});
    const [asha, ravi, meera] = [await richBidder(app, 6000, [auctionId]), await richBidder(app, 6000, [auctionId]), await richBidder(app, 6000, [auctionId])];
    const watcher = await client((await signUpUser(app)).token);
    await watcher.watch(auctionId);
    const a = await client(asha.token);

    await call(app, 'POST', '/api/bid', { product_id: productId, max_amount: 1500 }, asha.token);
    expect((await bid(app, ravi.token, productId, 700)).json()).toMatchObject({ leading: false, highest_bid: 701 });
    await eventually(() => expect(watcher.roomEvents('bid:placed').map((e) => e.data)).toContainEqual(expect.objectContaining({
      highest_bid: 701, auto: true, min_next_bid: 702, reserve_met: false, buy_now_available: true, bidder: expect.stringMatching(/\*/),
    })));

    expect((await call(app, 'POST', '/api/buy-now', { product_id: productId }, meera.token)).statusCode).toBe(201);
    await eventually(() => expect(watcher.roomEvents('product:sold').map((e) => e.data)).toEqual([expect.objectContaining({ product_id: productId, amount: 5000, buy_now: true })]));
    await eventually(() => expect(a.personalOf('bid:outbid')).toEqual([expect.objectContaining({ product_id: productId, highest_bid: 5000 })]));
    await eventually(() => expect(a.personalOf('wallet:updated').at(-1)).toMatchObject({ wallet_balance: 6000 }));
  });
});

describe('the clock follows soft close', () => {
  it('an auction a late bid extended is settled at its new end, not the old one', async () => {
    const { app } = await setUp({ autoSettle: true });
    const admin = await signUpAdmin(app);
    const { productId, auctionId } = await lotIn(app, admin.token, {}, { soft_close_s: 3 }, 1500);
    const asha = await richBidder(app, 100, [auctionId]);
    const placedAt = Date.now();
    expect((await bid(app, asha.token, productId, 5)).statusCode).toBe(201);
    const status = async () => (await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ status: string; valid_until: string; settled_at: string | null }>();
    const extended = await status();
    expect(Date.parse(extended.valid_until)).toBeGreaterThanOrEqual(placedAt + 3000);
    // Past the old end: still open.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await status()).status).toBe('active');
    // The clock re-armed for the new end and settles there.
    await eventually(async () => expect((await status()).status).toBe('settled'), 6000);
    const settled = await status();
    expect(Date.parse(settled.settled_at!)).toBeGreaterThanOrEqual(Date.parse(extended.valid_until));
    expect((await call(app, 'GET', '/api/user-bids', undefined, asha.token)).json()[0]).toMatchObject({ status: 'success', state: 'won', amount: 5 });
  });
});
