/**
 * What our own pages read instead of the whole auction list (docs/architecture.md, "The client"): each
 * bid of `GET /api/user-bids` (and `/user-bids/auction/{id}`) carries its auction's end, status and
 * cancel policy, so My Bids knows where Cancel is still offered; each lot of `GET /api/saved` carries
 * its auction's id, name, end and status, so the Saved page shows the time left. Instants are compared
 * with Date.parse (the response zone is TIMEZONE's). Both stores.
 */
import { describe, expect, it } from 'vitest';
import { HOUR, bid, call, richBidder, signUpAdmin, uniqueName } from '../test/helpers.js';
import { app, auction, clock, settle, withApp } from '../test/bidder-helpers.js';

withApp();

interface ListedBid { bid_id: number; auction_id: string; state: string; auction_valid_until: string; auction_status: string; auction_cancel_policy: string }
interface SavedLotJson { id: string; auction_id: string | null; auction: { id: string; name: string; valid_until: string; status: string } | null }

const bidsOf = async (token: string, auctionId?: string) =>
  (await call(app, 'GET', auctionId === undefined ? '/api/user-bids' : `/api/user-bids/auction/${auctionId}`, undefined, token)).json<ListedBid[]>();

/** An auction of one product with these rules, ending `endsIn` after the test clock's now. */
async function ruledAuction(adminToken: string, endsIn: number, rules: { cancel_policy?: string; soft_close_s?: number }) {
  const productId = uniqueName('SP');
  expect((await call(app, 'POST', '/api/admin/product', { id: productId, name: `Product ${productId}`, description: 'strict' }, adminToken)).statusCode).toBe(201);
  const auctionId = uniqueName('SA');
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Auction ${auctionId}`, valid_until: new Date(clock.t + endsIn).toISOString(), product_ids: [productId], ...rules,
  }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return { auctionId, productId };
}

describe('the auction of each of the caller’s bids', () => {
  it('GET /user-bids: every bid names its auction’s end, status and cancel policy; the status follows the clock and the settlement', async () => {
    const admin = await signUpAdmin(app);
    const open = await auction(admin.token, { endsIn: 2 * HOUR });
    const strict = await ruledAuction(admin.token, 5 * HOUR, { cancel_policy: 'strict' });
    const me = await richBidder(app, 5000, [open.auctionId, strict.auctionId]);
    const openEnd = clock.t + 2 * HOUR;
    await bid(app, me.token, open.productIds[0]!, 100);
    await bid(app, me.token, strict.productId, 200);

    const shown = await bidsOf(me.token);
    const onOpen = shown.find((b) => b.auction_id === open.auctionId)!;
    const onStrict = shown.find((b) => b.auction_id === strict.auctionId)!;
    expect(Date.parse(onOpen.auction_valid_until)).toBe(openEnd);
    expect(onOpen).toMatchObject({ auction_status: 'active', auction_cancel_policy: 'until_end', state: 'success' });
    expect(Date.parse(onStrict.auction_valid_until)).toBe(clock.t + 5 * HOUR);
    expect(onStrict).toMatchObject({ auction_status: 'active', auction_cancel_policy: 'strict' });

    // Past the first auction's end (not settled: AUTO_SETTLE is off here), then settled.
    clock.advance(2 * HOUR + 1000);
    expect((await bidsOf(me.token)).find((b) => b.auction_id === open.auctionId)).toMatchObject({ auction_status: 'ended', state: 'success' });
    expect((await bidsOf(me.token)).find((b) => b.auction_id === strict.auctionId)).toMatchObject({ auction_status: 'active' });
    expect((await settle(admin.token, open.auctionId)).statusCode).toBe(200);
    expect((await bidsOf(me.token)).find((b) => b.auction_id === open.auctionId)).toMatchObject({ auction_status: 'settled', state: 'won' });

    // The per-auction list says the same.
    const inStrict = await bidsOf(me.token, strict.auctionId);
    expect(inStrict).toHaveLength(1);
    expect(inStrict[0]).toMatchObject({ auction_status: 'active', auction_cancel_policy: 'strict' });
    expect(Date.parse(inStrict[0]!.auction_valid_until)).toBe(Date.parse(onStrict.auction_valid_until));
  });

  it('a bid in the soft-close window moves the end every bid of the auction names', async () => {
    const admin = await signUpAdmin(app);
    const a = await ruledAuction(admin.token, HOUR, { soft_close_s: 120 });
    const end = clock.t + HOUR;
    const me = await richBidder(app, 5000, [a.auctionId]);
    const rival = await richBidder(app, 5000, [a.auctionId]);
    await bid(app, me.token, a.productId, 100);
    // Inside the last two minutes: the rival's bid extends the auction.
    clock.advance(HOUR - 60_000);
    expect((await bid(app, rival.token, a.productId, 200)).statusCode).toBe(201);
    const [mine] = await bidsOf(me.token);
    expect(mine).toMatchObject({ state: 'outbid', auction_status: 'active' });
    expect(Date.parse(mine!.auction_valid_until)).toBeGreaterThan(end);
  });
});

describe('the auction of each saved lot', () => {
  it('GET /saved: every lot names its auction’s id, name, end and status', async () => {
    const admin = await signUpAdmin(app);
    const a = await auction(admin.token, { endsIn: 3 * HOUR, products: 2 });
    const me = await richBidder(app, 1000);
    for (const p of a.productIds) expect((await call(app, 'PUT', `/api/saved/${p}`, undefined, me.token)).statusCode).toBe(204);

    const lots = (await call(app, 'GET', '/api/saved', undefined, me.token)).json<SavedLotJson[]>();
    expect(lots).toHaveLength(2);
    for (const lot of lots) {
      expect(lot.auction).toMatchObject({ id: a.auctionId, name: `Auction ${a.auctionId}`, status: 'active' });
      expect(Date.parse(lot.auction!.valid_until)).toBe(clock.t + 3 * HOUR);
    }

    clock.advance(3 * HOUR);
    const after = (await call(app, 'GET', '/api/saved', undefined, me.token)).json<SavedLotJson[]>();
    expect(after.map((l) => l.auction?.status)).toEqual(['ended', 'ended']);
  });
});
