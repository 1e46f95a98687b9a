/**
 * Watchers get state, admins get every event (docs/live-protocol.md#frames): in an auction room a frame carries, per
 * product, only the newest bid event; the owner's admin room and an admin's `/api/ws?feed=all` socket
 * get every one, in version order. Real sockets against a listening app, bids in flight at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, RoomEvent } from '@auction/shared';
import type { App } from '../context.js';
import { bid, createAuction, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

type BidData = { product_id: string; version: number; highest_bid: number; bid_count: number };
const isBid = (e: RoomEvent) => e.event === 'bid:placed' || e.event === 'bid:rolledback';
const bidsOf = (frames: Frame[]) => frames.flatMap((f) => f.events.filter(isBid).map((e) => e.data as BidData));

/** Per product, the versions in the order they arrived. */
function versionsByProduct(events: BidData[]) {
  const by = new Map<string, number[]>();
  for (const e of events) by.set(e.product_id, [...(by.get(e.product_id) ?? []), e.version]);
  return by;
}

describe('merged frames', () => {
  it('a watcher gets one bid event per product per frame, newest state, versions rising; admins get every bid in order', async () => {
    // A long frame so that a burst of bids lands in few frames.
    const app = await makeApp({ liveFrameMs: 150 });
    apps.push(app);
    const base = await listen(app);
    const owner = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, owner.token, { products: 3 });
    const bidders = await Promise.all(Array.from({ length: 6 }, () => richBidder(app, 100_000, [auctionId])));

    const watcher = await connect(base, (await signUpUser(app)).token);
    cleanups.push(watcher.close);
    await watcher.watch(auctionId);
    const plain = await connectWs(base, (await signUpUser(app)).token);
    cleanups.push(plain.close);
    plain.send({ type: 'watch', auction_id: auctionId });
    const ownerSocket = await connect(base, owner.token);
    cleanups.push(ownerSocket.close);
    const feed = await connectWs(base, (await signUpAdmin(app)).token, { feed: 'all' });
    cleanups.push(feed.close);
    feed.send({ type: 'watch', auction_id: auctionId });
    await eventually(() => expect(plain.messages.some((m) => m.type === 'watching')).toBe(true));
    // The full feed's socket counts as a watcher too.
    await eventually(() => expect(feed.messages.find((m) => m.type === 'watching')).toMatchObject({ watchers: 3 }));

    // Three bursts of 60 bids in flight at once, amounts rising, round robin over products and bidders.
    const accepted: BidData[] = [];
    for (let burst = 0; burst < 3; burst++) {
      const answers = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
        const k = burst * 60 + i;
        const productId = productIds[k % productIds.length]!;
        return { productId, res: await bid(app, bidders[k % bidders.length]!.token, productId, 100 + k) };
      }));
      for (const { productId, res } of answers) {
        if (res.statusCode === 201) accepted.push({ ...res.json<BidData>(), product_id: productId });
      }
    }
    expect(accepted.length).toBeGreaterThan(90);
    const finalVersion = new Map<string, number>();
    for (const a of accepted) finalVersion.set(a.product_id, Math.max(finalVersion.get(a.product_id) ?? 0, a.version));
    const acceptedOf = (p: string) => accepted.filter((a) => a.product_id === p).length;

    await eventually(() => {
      for (const p of productIds) expect(versionsByProduct(bidsOf(watcher.frames)).get(p)?.at(-1)).toBe(finalVersion.get(p));
      for (const p of productIds) expect(versionsByProduct(bidsOf(plain.frames())).get(p)?.at(-1)).toBe(finalVersion.get(p));
      expect(bidsOf(ownerSocket.frames)).toHaveLength(accepted.length);
      expect(bidsOf(feed.frames())).toHaveLength(accepted.length);
    });

    for (const frames of [watcher.frames, plain.frames()]) {
      // At most one bid event per product in any frame, and it is the product's newest state.
      for (const f of frames) {
        const products = f.events.filter(isBid).map((e) => (e.data as BidData).product_id);
        expect(new Set(products).size).toBe(products.length);
      }
      for (const p of productIds) {
        const versions = versionsByProduct(bidsOf(frames)).get(p)!;
        expect(versions).toEqual([...versions].sort((a, b) => a - b));
        expect(new Set(versions).size).toBe(versions.length);
        // Merged: far fewer events than bids on the lot (three bursts → a handful of frames).
        expect(versions.length).toBeLessThan(acceptedOf(p));
      }
      const last = bidsOf(frames).filter((e) => e.product_id === productIds[0]).at(-1)!;
      expect(last.bid_count).toBe(acceptedOf(productIds[0]!));
    }

    // The owner's room and the full feed: every version of every product, 1, 2, 3 … in order.
    for (const events of [bidsOf(ownerSocket.frames), bidsOf(feed.frames())]) {
      for (const p of productIds) {
        expect(versionsByProduct(events).get(p)).toEqual(Array.from({ length: acceptedOf(p) }, (_, k) => k + 1));
      }
    }
    expect(new Set(feed.frames().map((f) => f.room))).toEqual(new Set([`feed:${auctionId}`]));
    await expectMoneyInvariant(app);
  });

  it('refuses feed=all to a bidder', async () => {
    const app = await makeApp();
    apps.push(app);
    const base = await listen(app);
    const user = await signUpUser(app);
    const ws = await connectWs(base, user.token, { feed: 'all' });
    cleanups.push(ws.close);
    expect(await ws.closed).toBe(1008);
    expect(ws.messages).toContainEqual({ type: 'error', error: { code: 'FORBIDDEN', message: 'feed=all is for admins' } });
  });
});
