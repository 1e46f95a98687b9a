import path from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import type { RoomEvent } from '@auction/shared';
import type { App } from '../context.js';
import { bid, call, createAuction, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, signUpUser, tempDir, TEST_SECRET } from '../test/helpers.js';
import { connect, connectRefused, connectWs, eventually, listen } from '../test/live-helpers.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

async function liveApp(overrides: Parameters<typeof makeApp>[0] = {}) {
  const app = await makeApp(overrides);
  apps.push(app);
  const base = await listen(app);
  return { app, base };
}

async function client(base: string, token: string) {
  const c = await connect(base, token);
  cleanups.push(c.close);
  return c;
}

const placed = (events: RoomEvent[]) => events.filter((e) => e.event === 'bid:placed').map((e) => e.data);

describe('handshake and rooms', () => {
  it('refuses a missing, garbage, foreign-key or expired token', async () => {
    const { app, base } = await liveApp();
    const u = await signUpUser(app);
    expect(await connectRefused(base, undefined)).toBe('UNAUTHENTICATED');
    expect(await connectRefused(base, 'garbage')).toBe('UNAUTHENTICATED');
    const expired = await new SignJWT({ role: 'user', ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(u.user.id))
      .setIssuedAt().setExpirationTime(Math.floor(Date.now() / 1000) - 5).sign(new TextEncoder().encode(TEST_SECRET));
    expect(await connectRefused(base, expired)).toBe('UNAUTHENTICATED');
    expect(await connectRefused(base, u.token)).toBe('connected');
  });

  it('acks watch with the watcher count, refuses unknown auctions and never leaks into other rooms', async () => {
    const { app, base } = await liveApp();
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const a = await client(base, asha.token);
    const r = await client(base, ravi.token);
    expect(await a.watch(auctionId)).toEqual({ status: 'ok', data: { auction_id: auctionId, watchers: 1 } });
    expect(await r.watch(auctionId)).toEqual({ status: 'ok', data: { auction_id: auctionId, watchers: 2 } });
    expect(await a.watch('no-such-auction')).toEqual({ status: 'error', error: { code: 'NOT_FOUND', message: 'Auction not found' } });
    expect(await a.watch(`x:user:${ravi.user.id}`)).toMatchObject({ status: 'error' });
    expect(await a.socket.emitWithAck('auction:watch', 42 as unknown as string)).toMatchObject({ status: 'error', error: { code: 'VALIDATION' } });
    // Ravi's wallet moves: only Ravi hears of it.
    await call(app, 'POST', '/api/wallet/topup', { amount: 50 }, ravi.token);
    await eventually(() => expect(r.personalOf('wallet:updated')).toEqual([expect.objectContaining({ wallet_balance: 1050 })]));
    expect(a.personalOf('wallet:updated')).toEqual([]);
    await eventually(() => expect(a.roomEvents('auction:watchers').map((e) => (e.data as { watchers: number }).watchers)).toContain(2));
    r.close();
    await eventually(() => expect(a.roomEvents('auction:watchers').at(-1)?.data).toMatchObject({ watchers: 1 }));
  });
});

describe('events of the auction story', () => {
  it('bid, outbid, cancel with reinstatement, settle: each party hears exactly its part', async () => {
    const { app, base } = await liveApp();
    const owner = await signUpAdmin(app);
    const stranger = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, owner.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const watcher = await client(base, (await signUpUser(app)).token);
    const a = await client(base, asha.token);
    const r = await client(base, ravi.token);
    const o = await client(base, owner.token);
    const s = await client(base, stranger.token);
    await watcher.watch(auctionId);

    expect((await bid(app, asha.token, p!, 300)).statusCode).toBe(201);
    // Watchers get the newest state per frame: the second bid waits for the first's frame.
    await eventually(() => expect(placed(watcher.roomEvents())).toHaveLength(1));
    expect((await bid(app, ravi.token, p!, 450.5)).statusCode).toBe(201);
    await eventually(() => expect(placed(watcher.roomEvents())).toHaveLength(2));
    expect(placed(watcher.roomEvents()).map((d) => [d.highest_bid, d.bid_count, d.bidder])).toEqual([
      [300, 1, `${asha.username[0]}***${asha.username.at(-1)}`], [450.5, 2, `${ravi.username[0]}***${ravi.username.at(-1)}`],
    ]);
    await eventually(() => expect(a.personalOf('bid:outbid')).toEqual([expect.objectContaining({ auction_id: auctionId, product_id: p, highest_bid: 450.5 })]));
    expect(a.personalOf('wallet:updated').map((d) => (d as { wallet_balance: number }).wallet_balance)).toEqual([700, 1000]);
    // The owner's admin room names the bidders; another admin hears nothing of it.
    await eventually(() => expect(placed(o.roomEvents()).map((d) => d.bidder)).toEqual([asha.username, ravi.username]));
    expect(o.frames.every((f) => f.room === `admin:${owner.admin.id}`)).toBe(true);

    const ravisBid = (await call(app, 'GET', '/api/user-bids', undefined, ravi.token)).json()[0].bid_id as number;
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: ravisBid }, ravi.token)).statusCode).toBe(200);
    await eventually(() => expect(watcher.roomEvents('bid:rolledback')).toHaveLength(1));
    expect(watcher.roomEvents('bid:rolledback')[0]!.data).toMatchObject({ auction_id: auctionId, product_id: p, highest_bid: 300, bid_count: 1 }); // the cancelled bid leaves the count
    await eventually(() => expect(a.personalOf('bid:reinstated')).toEqual([expect.objectContaining({ product_id: p, amount: 300 })]));

    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, owner.token)).statusCode).toBe(200);
    await eventually(() => expect(watcher.roomEvents('auction:settled')).toHaveLength(1));
    expect(watcher.roomEvents('product:sold').map((e) => e.data)).toEqual([expect.objectContaining({ product_id: p, amount: 300 })]);
    await eventually(() => expect(a.personalOf('bid:won')).toEqual([expect.objectContaining({ product_id: p, amount: 300 })]));
    expect(r.personalOf('bid:won')).toEqual([]);
    await eventually(() => expect(o.roomEvents('auction:settled')).toHaveLength(1));
    // Everyone's lists hear of the status change.
    await eventually(() => expect(s.personalOf('auction:updated')).toContainEqual(expect.objectContaining({ id: auctionId, status: 'settled' })));
    expect(s.frames).toEqual([]);
    await expectMoneyInvariant(app);
  });

  it('tells every socket of new, changed and deleted auctions', async () => {
    const { app, base } = await liveApp();
    const admin = await signUpAdmin(app);
    const u = await client(base, (await signUpUser(app)).token);
    const { auctionId } = await createAuction(app, admin.token);
    await eventually(() => expect(u.personalOf('auction:created')).toEqual([expect.objectContaining({ id: auctionId, status: 'active', product_count: 1 })]));
    const created = u.personalOf('auction:created')[0] as Record<string, unknown>;
    expect(created).not.toHaveProperty('registrations');
    await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token);
    await eventually(() => expect(u.personalOf('auction:deleted')).toEqual([expect.objectContaining({ id: auctionId })]));
  });
});

describe('ordering and completeness under load', () => {
  it('200 concurrent bids: the owner receives exactly the accepted ones in order; a watcher their rising states, ending at the highest', async () => {
    // Twenty bidders, all from 127.0.0.1 here: no cap per address (docs/deploy.md).
    const { app, base } = await liveApp({ maxConnectionsPerIp: 0 });
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const bidders = await Promise.all(Array.from({ length: 20 }, () => richBidder(app, 100_000, [auctionId])));
    const w = await client(base, bidders[0]!.token);
    await w.watch(auctionId);
    const owner = await client(base, admin.token);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => {
      const who = bidders[i % bidders.length]!;
      return fetch(`${base}/api/bid`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
        body: JSON.stringify({ product_id: p, bid_amount: 100 + ((i * 37) % 200) * 3 }),
      }).then(async (res) => ({ status: res.status, body: await res.json() as { bid?: { bid_id: number } } }));
    }));
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const accepted = results.filter((r) => r.status === 201).map((r) => r.body.bid!.bid_id).sort((x, y) => x - y);
    expect(accepted.length).toBeGreaterThan(1);
    // The owner's admin room: every accepted bid, in order.
    await eventually(() => expect(placed(owner.roomEvents())).toHaveLength(accepted.length));
    expect(placed(owner.roomEvents()).map((d) => d.bid_id)).toEqual(accepted);
    // A watcher: at most one state per frame, each newer than the last, ending at the highest.
    await eventually(() => expect(placed(w.roomEvents()).at(-1)?.bid_id).toBe(accepted.at(-1)));
    const seen = placed(w.roomEvents());
    for (const f of w.frames) expect(f.events.filter((e) => e.event === 'bid:placed').length).toBeLessThanOrEqual(1);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.highest_bid).toBeGreaterThan(seen[i - 1]!.highest_bid);
      expect(seen[i]!.version).toBeGreaterThan(seen[i - 1]!.version);
    }
    const highest = (await call(app, 'GET', `/api/highest-bid?product_key=${p}`, undefined, bidders[0]!.token)).json().highest_bid as number;
    expect(seen.at(-1)!.highest_bid).toBe(highest);
    expect(seen.at(-1)!.bid_count).toBe(accepted.length);
    await expectMoneyInvariant(app);
  });

  it('500 watchers all reach the final state of a burst of bids, through rising states', async () => {
    // 25 viewers, all from 127.0.0.1 here: no cap per address (docs/deploy.md).
    const { app, base } = await liveApp({ maxConnectionsPerIp: 0 });
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { products: 2 });
    const bidder = await richBidder(app, 100_000, [auctionId]);
    // 25 viewers with 20 sockets each: an account may hold at most SOCKET_LIMITS.perAccount sockets.
    const viewers = await Promise.all(Array.from({ length: 25 }, () => signUpUser(app)));
    const watchers = await Promise.all(Array.from({ length: 500 }, (_, i) => client(base, viewers[i % 25]!.token)));
    await Promise.all(watchers.map((w) => w.watch(auctionId)));
    const amounts = Array.from({ length: 40 }, (_, i) => 100 + i * 10);
    for (const [i, amount] of amounts.entries()) expect((await bid(app, bidder.token, productIds[i % 2]!, amount)).statusCode).toBe(201);
    // Every watcher ends on each product's last bid, through states that only rise (watchers get state).
    const lastOf = (k: number) => amounts.filter((_, i) => i % 2 === k).at(-1);
    await eventually(() => {
      for (const w of watchers) {
        for (const k of [0, 1]) expect(placed(w.roomEvents()).filter((d) => d.product_id === productIds[k]).at(-1)?.amount).toBe(lastOf(k));
      }
    }, 15_000, 50);
    for (const w of watchers) {
      for (const k of [0, 1]) {
        const seen = placed(w.roomEvents()).filter((d) => d.product_id === productIds[k]).map((d) => d.amount);
        expect(seen).toEqual([...new Set(seen)].sort((x, y) => x - y));
      }
    }
    // Frames carry many events each: far fewer messages than events.
    expect(watchers[0]!.frames.length).toBeLessThan(amounts.length);
  }, 60_000);
});

describe('the auction clock', () => {
  it('an auction ending in 3 s: ending and ended arrive, and it is settled to the leader', async () => {
    const { app, base } = await liveApp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { endsIn: 3000 });
    const bidder = await richBidder(app, 1000, [auctionId]);
    const w = await client(base, bidder.token);
    await w.watch(auctionId);
    await eventually(() => expect(w.roomEvents('auction:ending')).toHaveLength(1));
    expect((w.roomEvents('auction:ending')[0]!.data as { seconds_left: number }).seconds_left).toBeLessThanOrEqual(3);
    expect((await bid(app, bidder.token, p!, 250)).statusCode).toBe(201);
    await eventually(() => expect(w.roomEvents('auction:ended')).toHaveLength(1), 6000);
    await eventually(() => expect(w.roomEvents('auction:settled')).toHaveLength(1), 3000);
    const events = w.roomEvents().map((e) => e.event).filter((e) => e !== 'auction:watchers');
    expect(events).toEqual(['auction:ending', 'bid:placed', 'auction:ended', 'product:sold', 'auction:settled']);
    await eventually(() => expect(w.personalOf('bid:won')).toHaveLength(1));
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidder.token)).json();
    expect(products).toEqual([expect.objectContaining({ id: p, status: 'sold', highest_bid: 250 })]);
    await expectMoneyInvariant(app);
  }, 15_000);

  it('settles on start what ended while the server was down, and re-arms the rest', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const databaseUrl = path.join(dir, 'auction.db');
    const first = await makeApp({ databaseUrl });
    const admin = await signUpAdmin(first);
    const soon = await createAuction(first, admin.token, { endsIn: 1500 });
    const later = await createAuction(first, admin.token, { endsIn: 4500 });
    const bidder = await richBidder(first, 1000, [soon.auctionId, later.auctionId]);
    expect((await bid(first, bidder.token, soon.productIds[0]!, 400)).statusCode).toBe(201);
    expect((await bid(first, bidder.token, later.productIds[0]!, 100)).statusCode).toBe(201);
    await first.close();
    await new Promise((r) => setTimeout(r, 2000));

    const second = await makeApp({ databaseUrl });
    apps.push(second);
    const status = async (id: string) => (await call(second, 'GET', `/api/admin/auction/${id}`, undefined, admin.token)).json().status as string;
    await eventually(async () => expect(await status(soon.auctionId)).toBe('settled'), 2000);
    expect(await status(later.auctionId)).toBe('active');
    await eventually(async () => expect(await status(later.auctionId)).toBe('settled'), 5000, 100);
    const sold = (await call(second, 'GET', `/api/auctions/${later.auctionId}/products`, undefined, bidder.token)).json();
    expect(sold[0]).toMatchObject({ status: 'sold', highest_bid: 100 });
    await expectMoneyInvariant(second);
  }, 20_000);

  it('follows a moved end and never settles early', async () => {
    const { app } = await liveApp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { endsIn: 1500 });
    const moved = new Date(Date.now() + 60_000).toISOString();
    const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Moved', valid_until: moved, product_ids: productIds }, admin.token);
    expect(res.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json().status).toBe('active');
    expect(app.ctx.scheduler.pending().some((d) => d.auctionId === auctionId && d.notice === 0)).toBe(true);
  }, 10_000);
});

describe('the plain WebSocket feed', () => {
  it('closes with 4401 on a bad token, and delivers the same frames and personal events', async () => {
    const { app, base } = await liveApp();
    const refused = await connectWs(base, 'garbage');
    expect(await refused.closed).toBe(4401);
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    // Token in a first message this time.
    const ws = await connectWs(base);
    cleanups.push(ws.close);
    ws.send({ type: 'auth', token: asha.token });
    await eventually(() => expect(ws.messages[0]).toMatchObject({ type: 'ready', role: 'user' }));
    ws.send({ type: 'watch', auction_id: auctionId });
    await eventually(() => expect(ws.messages).toContainEqual(expect.objectContaining({ type: 'watching', auction_id: auctionId })));
    const io = await client(base, ravi.token);
    await io.watch(auctionId);
    await bid(app, asha.token, p!, 200);
    await eventually(() => expect(placed(io.roomEvents())).toHaveLength(1));
    await bid(app, ravi.token, p!, 300);
    const wsPlaced = () => ws.frames().flatMap((f) => f.events).filter((e) => e.event === 'bid:placed').map((e) => e.data);
    await eventually(() => expect(wsPlaced()).toHaveLength(2));
    await eventually(() => expect(placed(io.roomEvents())).toHaveLength(2));
    expect(wsPlaced()).toEqual(placed(io.roomEvents()));
    await eventually(() => expect(ws.messages).toContainEqual({ event: 'bid:outbid', data: expect.objectContaining({ product_id: p, highest_bid: 300 }) }));
    expect(ws.messages).toContainEqual({ event: 'wallet:updated', data: expect.objectContaining({ wallet_balance: 1000 }) });
    ws.send({ type: 'watch', auction_id: 'nope' });
    await eventually(() => expect(ws.messages).toContainEqual({ type: 'error', error: { code: 'NOT_FOUND', message: 'Auction not found' } }));
  });
});
