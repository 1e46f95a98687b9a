/**
 * GET /api/auctions from memory (cache/auction-list.ts): every answer equals what a fresh read would
 * give, every committed change shows on the next request, and `If-None-Match` gets 304 only when the
 * caller's answer is unchanged. Through HTTP (inject), on both stores.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Auction } from '@auction/shared';
import type { App } from '../context.js';
import { bid, call, createAuction, createProducts, HOUR, makeApp, makeClock, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';

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
    expect(answers[0]!.headers['cache-control']).toBe('private, no-cache');
    expect(answers[0]!.headers.vary).toContain('authorization');
    // Bids never touch the list: no new read.
    const bidder = await richBidder(app, 1000, [auctionId]);
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidder.token)).json<{ id: string }[]>();
    expect((await bid(app, bidder.token, products[0]!.id, 100)).statusCode).toBe(201);
    const reads = app.ctx.auctionList.stats.reads;
    await list(user.token);
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
    const later = new Date(clock.now() + 5 * HOUR).toISOString();
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
    const later = new Date(clock.now() + 2 * HOUR).toISOString();
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
});
