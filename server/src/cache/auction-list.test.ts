/**
 * GET /api/auctions from memory (cache/auction-list.ts): every answer equals what a fresh read would
 * give, every committed catalogue change shows on the next request, prices once the list is a second
 * old, and `If-None-Match` gets 304 only when the caller's answer is unchanged. Through HTTP (inject),
 * on both stores.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Auction } from '@auction/shared';
import type { App } from '../context.js';
import { PRICE_MAX_AGE_MS } from './auction-list.js';
import { bid, call, createAuction, createProducts, HOUR, makeApp, makeClock, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { iso } from '../presenters/format.js';

let app: App;
let clock: ReturnType<typeof makeClock>;
beforeEach(async () => {
  clock = makeClock();
  app = await makeApp({ autoSettle: false }, { now: clock.now });
});
afterEach(async () => {
  await app.close();
});

async function list(token: string, etag?: string) {
  const res = await app.inject({ method: 'GET', url: '/api/auctions', headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-none-match': etag } : {}) } });
  return { status: res.statusCode, etag: res.headers.etag as string, body: res.body === '' ? null : res.json<Auction[]>(), headers: res.headers };
}

/** What the list must say, read from the store directly (no cache). */
async function truth(userId: number | null): Promise<Auction[]> {
  const { presentAuction } = await import('../presenters/catalogue.js');
  return (await app.ctx.reads.auctions()).map((a) => presentAuction(a, userId, clock.now()));
}

describe('GET /api/auctions from memory', () => {
  it('reads the store once for many requests, and answers exactly as a fresh read would', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token, { now: clock.now(), products: 2 });
    const user = await signUpUser(app);
    const before = app.ctx.auctionList.stats.reads;
    // Many requests at once on an empty cache: one read between them.
    const answers = await Promise.all(Array.from({ length: 30 }, () => list(user.token)));
    expect(app.ctx.auctionList.stats.reads - before).toBe(1);
    for (const a of answers) expect(a.body).toEqual(await truth(user.user.id));
    expect(answers[0]!.body).toEqual([expect.objectContaining({ id: auctionId, registered: false, product_count: 2, status: 'active' })]);
    // Per caller: never stored (plugins/no-store.ts), yet the ETag answers 304 to a client that keeps it.
    expect(answers[0]!.headers['cache-control']).toBe('no-store');
    expect(answers[0]!.headers.vary).toContain('authorization');
    // A bid is not read at once (prices may lag a second: see below), and a wallet top-up never is.
    const bidder = await richBidder(app, 1000, [auctionId]);
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidder.token)).json<{ id: string }[]>();
    expect((await bid(app, bidder.token, products[0]!.id, 100)).statusCode).toBe(201);
    const reads = app.ctx.auctionList.stats.reads;
    expect((await list(user.token)).body![0]!.highest_bid).toBe(0);
    expect(app.ctx.auctionList.stats.reads).toBe(reads);
  });

  it('shows every catalogue change on the next request: create, rename, move the end, add a product, delete', async () => {
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    expect((await list(user.token)).body).toEqual([]);
    const { auctionId, productIds } = await createAuction(app, admin.token, { now: clock.now() });
    expect((await list(user.token)).body).toEqual(await truth(user.user.id));
    expect((await list(user.token)).body).toHaveLength(1);

    const [extra] = await createProducts(app, admin.token, 1);
    const later = iso(clock.now() + 5 * HOUR);
    expect((await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Renamed', valid_until: later, product_ids: [...productIds, extra] }, admin.token)).statusCode).toBe(200);
    expect((await list(user.token)).body).toEqual([expect.objectContaining({ id: auctionId, name: 'Renamed', valid_until: later, product_count: 2 })]);

    // A product of the auction deleted on its own.
    expect((await call(app, 'DELETE', `/api/admin/product/${extra}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await list(user.token)).body).toEqual(await truth(user.user.id));
    expect((await list(user.token)).body![0]!.product_count).toBe(1);

    expect((await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await list(user.token)).body).toEqual([]);
  });

  it('ETag: 304 without a body while nothing changed for this caller; a new answer after their registration, a change or the end', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token, { now: clock.now(), endsIn: HOUR });
    const asha = await signUpUser(app);
    const ravi = await signUpUser(app);
    const first = await list(asha.token);
    expect(first.status).toBe(200);
    expect(first.etag).toMatch(/^W\/".+"$/);
    const again = await list(asha.token, first.etag);
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    // Ravi has the same registrations: the same answer, so the same tag.
    expect((await list(ravi.token, first.etag)).status).toBe(304);

    // Asha registers: her answer changes (registered: true), Ravi's does not.
    expect((await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, asha.token)).statusCode).toBe(200);
    const registered = await list(asha.token, first.etag);
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual([expect.objectContaining({ id: auctionId, registered: true, registrations: [asha.user.id] })]);
    expect(registered.body).toEqual(await truth(asha.user.id));
    expect((await list(ravi.token, first.etag)).status).toBe(304);
    // Ravi cannot reuse Asha's tag to get her answer.
    expect((await list(ravi.token, registered.etag)).status).toBe(200);

    // An admin's change.
    const later = iso(clock.now() + 2 * HOUR);
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token)).json<{ id: string }[]>();
    expect((await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Moved', valid_until: later, product_ids: products.map((p) => p.id) }, admin.token)).statusCode).toBe(200);
    const moved = await list(asha.token, registered.etag);
    expect(moved.status).toBe(200);
    expect(moved.body![0]).toMatchObject({ name: 'Moved', valid_until: later });

    // Time alone: the auction ends, and the status (so the tag) changes.
    expect((await list(asha.token, moved.etag)).status).toBe(304);
    clock.advance(2 * HOUR);
    const ended = await list(asha.token, moved.etag);
    expect(ended.status).toBe(200);
    expect(ended.body![0]!.status).toBe('ended');
    // A list of tags, as a browser may send, matches too.
    expect((await list(asha.token, `W/"other", ${ended.etag}`)).status).toBe(304);
  });

  it('settling shows as status settled', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token, { now: clock.now(), endsIn: HOUR });
    const user = await signUpUser(app);
    clock.advance(2 * HOUR);
    const before = await list(user.token);
    expect(before.body![0]!.status).toBe('ended');
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    const after = await list(user.token, before.etag);
    expect(after.status).toBe(200);
    expect(after.body![0]!.status).toBe('settled');
  });

  it('a bid marks the prices stale: re-read only once the list is a second old, once for many requests, under a new ETag', async () => {
    expect(PRICE_MAX_AGE_MS).toBe(1000);
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p0, p1] } = await createAuction(app, admin.token, { now: clock.now(), products: 2 });
    const asha = await richBidder(app, 100_000, [auctionId]);
    const ravi = await richBidder(app, 100_000, [auctionId]);
    const user = await signUpUser(app);
    const stats = app.ctx.auctionList.stats;
    const first = await list(user.token);
    expect(first.body![0]).toMatchObject({ highest_bid: 0, bid_count: 0 });

    expect((await bid(app, asha.token, p0!, 100)).statusCode).toBe(201);
    // Younger than a second: the list as it was, and the old tag still answers 304.
    clock.advance(PRICE_MAX_AGE_MS - 1);
    let reads = stats.reads;
    expect((await list(user.token, first.etag)).status).toBe(304);
    expect((await list(user.token)).body![0]).toMatchObject({ highest_bid: 0, bid_count: 0 });
    expect(stats.reads).toBe(reads);

    // A second old: one read for every request at once, a new tag, and the old one no longer matches.
    clock.advance(1);
    const answers = await Promise.all(Array.from({ length: 30 }, () => list(user.token, first.etag)));
    expect(stats.reads - reads).toBe(1);
    const fresh = answers[0]!;
    expect(fresh.etag).not.toBe(first.etag);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.etag).toBe(fresh.etag);
      expect(a.body).toEqual(await truth(user.user.id));
    }
    expect(fresh.body![0]).toMatchObject({ highest_bid: 100, bid_count: 1 });

    // No bid since: served from memory however many seconds pass (up to the 5 s safety net), 304 on the new tag.
    reads = stats.reads;
    clock.advance(3000);
    expect((await list(user.token, fresh.etag)).status).toBe(304);
    expect(stats.reads).toBe(reads);

    // A storm: the first bid finds the list three seconds old (one read); the next ones, within a
    // second of that read, none; a second after it, one read shows the last of them.
    let amount = 200;
    for (let i = 0; i < 10; i++) {
      expect((await bid(app, (i % 2 === 0 ? ravi : asha).token, i % 3 === 0 ? p0! : p1!, amount += 10)).statusCode).toBe(201);
      await Promise.all(Array.from({ length: 5 }, () => list(user.token)));
      clock.advance(90);
    }
    expect(stats.reads - reads).toBe(1);
    const midStorm = await list(user.token);
    expect(midStorm.body![0]!.highest_bid).toBeLessThan(amount);
    clock.advance(PRICE_MAX_AGE_MS - 900);
    const after = await Promise.all(Array.from({ length: 20 }, () => list(user.token, midStorm.etag)));
    expect(stats.reads - reads).toBe(2);
    for (const a of after) expect(a.body).toEqual(await truth(user.user.id));
    expect(after[0]!.etag).not.toBe(midStorm.etag);
    expect(after[0]!.body![0]).toMatchObject({ highest_bid: amount, bid_count: 11 });
  });

  it('a catalogue change still shows at once, with the prices, even while they are stale and the list young', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { now: clock.now() });
    const asha = await richBidder(app, 1000, [auctionId]);
    const user = await signUpUser(app);
    const first = await list(user.token);
    expect((await bid(app, asha.token, productIds[0]!, 250)).statusCode).toBe(201);
    const reads = app.ctx.auctionList.stats.reads;
    const valid_until = iso(clock.now() + 3 * HOUR);
    expect((await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Renamed', valid_until, product_ids: productIds }, admin.token)).statusCode).toBe(200);
    const renamed = await list(user.token, first.etag);
    expect(app.ctx.auctionList.stats.reads - reads).toBe(1);
    expect(renamed.status).toBe(200);
    expect(renamed.body![0]).toMatchObject({ name: 'Renamed', highest_bid: 250, bid_count: 1 });
    expect(renamed.body).toEqual(await truth(user.user.id));
  });

  it('a re-read that finds nothing new keeps the ETag: the 5 s safety net, and events that change nothing shown', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token, { now: clock.now() });
    const user = await signUpUser(app);
    const first = await list(user.token);
    const stats = app.ctx.auctionList.stats;
    let reads = stats.reads;
    // A top-up (wallet:updated) changes nothing the list shows: no read, however long after.
    await richBidder(app, 500);
    clock.advance(4999);
    expect((await list(user.token, first.etag)).status).toBe(304);
    expect(stats.reads).toBe(reads);
    // Five seconds old: read again (another process may have changed it), the same content keeps its tag.
    clock.advance(1);
    expect((await list(user.token, first.etag)).status).toBe(304);
    expect(stats.reads - reads).toBe(1);
    // A change made elsewhere (another process's announcement), then found on the next read.
    reads = stats.reads;
    expect((await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, (await signUpUser(app)).token)).statusCode).toBe(200);
    app.ctx.auctionList.invalidate();
    const again = await list(user.token, first.etag);
    expect(stats.reads - reads).toBe(1);
    // Its registrations changed (not this caller's: not shown), the content as read did: a new tag, the same body.
    expect(again.status).toBe(200);
    expect(again.body).toEqual((await list(user.token)).body);
  });
});
