/**
 * A live socket lives no longer than its token and within its limits
 * (docs/live-protocol.md#socket-lifetime-and-limits): closed at the token's expiry and when a password change revokes it (socket.io and
 * /api/ws, bidders and admins), at most SOCKET_LIMITS.perAccount per account (the oldest closed), a
 * bounded message rate and number of watched auctions, and a bounded number of connections per
 * address waiting to authenticate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../context.js';
import { call, createAuction, makeApp, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';
import { SOCKET_LIMITS } from './sessions.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
const limits = { ...SOCKET_LIMITS };
afterEach(async () => {
  Object.assign(SOCKET_LIMITS, limits);
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

async function live(overrides: Parameters<typeof makeApp>[0] = {}) {
  const app = await makeApp(overrides);
  apps.push(app);
  return { app, base: await listen(app) };
}

async function io(base: string, token: string) {
  const c = await connect(base, token);
  cleanups.push(c.close);
  let down = false;
  c.socket.on('disconnect', () => { down = true; });
  return { ...c, down: () => down };
}

async function ws(base: string, token: string) {
  const c = await connectWs(base, token);
  cleanups.push(c.close);
  await eventually(() => expect(c.messages.some((m) => m.type === 'ready')).toBe(true));
  return c;
}

describe('a socket lives no longer than its token', () => {
  it('a password change closes the sockets opened with older tokens (both transports); the new token\'s socket stays', async () => {
    const { app, base } = await live();
    const u = await signUpUser(app);
    const oldIo = await io(base, u.token);
    const oldWs = await ws(base, u.token);
    const changed = await call(app, 'POST', '/api/change-password', { password: u.password, new_password: 'secret9' }, u.token);
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json<{ token: string }>().token;
    const newIo = await io(base, fresh);
    await eventually(() => {
      expect(oldIo.down()).toBe(true);
      expect(oldWs.closeCode()).toBe(4401);
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(newIo.down()).toBe(false);
    // Nothing more reaches the old sockets: a top-up is heard by the new one only.
    await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, fresh);
    await eventually(() => expect(newIo.personalOf('wallet:updated')).toHaveLength(1));
    expect(oldIo.personalOf('wallet:updated')).toHaveLength(0);
  });

  it('an admin\'s password change closes the admin\'s older sockets too', async () => {
    const { app, base } = await live();
    const a = await signUpAdmin(app);
    const before = await io(base, a.token);
    const changed = await call(app, 'POST', '/api/admin/change-password', { password: a.password, new_password: 'secret9' }, a.token);
    expect(changed.statusCode, changed.body).toBe(200);
    await eventually(() => expect(before.down()).toBe(true));
  });

  it('closes a socket when its token expires', async () => {
    const { app, base } = await live({ tokenTtl: '2s' });
    const u = await signUpUser(app);
    const s = await io(base, u.token);
    const w = await ws(base, u.token);
    expect(s.down()).toBe(false);
    await eventually(() => {
      expect(s.down()).toBe(true);
      expect(w.closeCode()).toBe(4401);
    }, 5000, 100);
  }, 10_000);
});

describe('limits per account and per socket', () => {
  it('at most SOCKET_LIMITS.perAccount sockets per account: the oldest is closed', async () => {
    SOCKET_LIMITS.perAccount = 3;
    const { app, base } = await live();
    const u = await signUpUser(app);
    const other = await signUpUser(app);
    const sockets = [await io(base, u.token), await io(base, u.token), await io(base, u.token)];
    const theirs = await io(base, other.token);
    const fourth = await ws(base, u.token);
    await eventually(() => expect(sockets[0]!.down()).toBe(true));
    expect([sockets[1]!.down(), sockets[2]!.down(), theirs.down(), fourth.closeCode()]).toEqual([false, false, false, null]);
  });

  it('a socket.io socket sending more than the message rate gets an error ack, then is closed', async () => {
    const { app, base } = await live();
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token);
    const u = await signUpUser(app);
    const s = await io(base, u.token);
    const acks = await Promise.all(Array.from({ length: SOCKET_LIMITS.messagesPerSecond + 1 }, () => s.socket.timeout(2000).emitWithAck('auction:watch', auctionId).catch(() => null)));
    // Watches in flight when the socket closes are not answered; none beyond the limit is accepted.
    expect(acks.filter((a) => a?.status === 'ok').length).toBeLessThanOrEqual(SOCKET_LIMITS.messagesPerSecond);
    expect(acks.at(-1)).toEqual({ status: 'error', error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    await eventually(() => expect(s.down()).toBe(true));
  });

  it('a socket watches at most SOCKET_LIMITS.watchedAuctions auctions (both transports)', async () => {
    SOCKET_LIMITS.watchedAuctions = 2;
    const { app, base } = await live();
    const admin = await signUpAdmin(app);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createAuction(app, admin.token)).auctionId);
    const u = await signUpUser(app);
    const s = await io(base, u.token);
    expect((await s.watch(ids[0]!)).status).toBe('ok');
    expect((await s.watch(ids[1]!)).status).toBe('ok');
    expect(await s.watch(ids[2]!)).toMatchObject({ status: 'error', error: { code: 'LIMIT_REACHED' } });
    // Watching one already watched is still fine.
    expect((await s.watch(ids[1]!)).status).toBe('ok');
    const w = await ws(base, u.token);
    for (const id of ids) w.send({ type: 'watch', auction_id: id });
    await eventually(() => expect(w.messages.filter((m) => m.type === 'watching' || m.type === 'error').map((m) => m.type)).toEqual(['watching', 'watching', 'error']));
  });

  it('/api/ws: at most 20 connections per address may wait to authenticate at once', async () => {
    const { base } = await live();
    const url = `${base.replace('http', 'ws')}/api/ws`;
    const waiting: WebSocket[] = [];
    const closed: (number | null)[] = [];
    for (let i = 0; i < 21; i++) {
      const c = new WebSocket(url);
      cleanups.push(() => c.terminate());
      const k = waiting.push(c) - 1;
      closed[k] = null;
      c.on('close', (code: number) => { closed[k] = code; });
      await new Promise<void>((resolve) => { c.once('open', () => resolve()); c.once('close', () => resolve()); });
    }
    await eventually(() => expect(closed[20]).toBe(1008));
    expect(closed.slice(0, 20).every((c) => c === null)).toBe(true);
  });

  it('a consumer that stops reading is dropped once too much waits for it; one that reads stays (both transports)', async () => {
    SOCKET_LIMITS.unsentBytes = 256 * 1024;
    SOCKET_LIMITS.checkMs = 100;
    const { app, base } = await live();
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token);
    const users = await Promise.all([signUpUser(app), signUpUser(app), signUpUser(app)]);
    const reader = await io(base, users[0].token);
    const stalledIo = await io(base, users[1].token);
    const stalledWs = await ws(base, users[2].token);
    for (const c of [reader, stalledIo]) expect((await c.watch(auctionId)).status).toBe('ok');
    stalledWs.send({ type: 'watch', auction_id: auctionId });
    await eventually(() => expect(stalledWs.messages.some((m) => m.type === 'watching')).toBe(true));
    // Two clients stop reading (frozen tabs, dead networks): their TCP windows fill, then the server's buffers.
    const engineSocket = (stalledIo.socket.io.engine as unknown as { transport: { ws: { _socket: { pause(): void; resume(): void } } } }).transport.ws._socket;
    engineSocket.pause();
    (stalledWs.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // 40 frames of ~200 KB each to the auction room.
    const big = 'x'.repeat(200_000);
    for (let i = 1; i <= 40; i++) {
      app.ctx.live.enqueue(`auction:${auctionId}`, { event: 'auction:ending', data: { auction_id: auctionId, seconds_left: i, server_time: big } });
      app.ctx.live.flush();
      await new Promise((r) => setTimeout(r, 20));
    }
    // The server dropped both: only the reader still watches.
    await eventually(async () => expect(await app.ctx.live.watchers(auctionId)).toBe(1), 10_000, 100);
    // Reading again, the two find their connections closed.
    engineSocket.resume();
    (stalledWs.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    await eventually(() => {
      expect(stalledIo.down()).toBe(true);
      expect(stalledWs.closeCode()).not.toBeNull();
    }, 10_000, 100);
    // The reader got everything and is still connected.
    await eventually(() => expect(reader.roomEvents('auction:ending')).toHaveLength(40), 10_000, 100);
    expect(reader.down()).toBe(false);
  }, 30_000);
});

describe('one client cannot make every socket pay for its actions', () => {
  it('renaming products of a 500-product auction sends each socket small summaries, merged per frame, with no product list', async () => {
    const { app, base } = await live();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await createAuction(app, admin.token, { products: 500 });
    const validUntil = (await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ valid_until: string }>().valid_until;
    const idle = await io(base, (await signUpUser(app)).token);
    // 40 edits in flight at once, then 40 more: a burst the hub announces a few times, not 80.
    for (let round = 0; round < 2; round++) {
      const edits = await Promise.all(productIds.slice(0, 40).map((id, i) =>
        call(app, 'PUT', `/api/admin/product/${id}`, { name: `Renamed ${round}-${i}`, description: 'edited' }, admin.token)));
      expect(edits.every((r) => r.statusCode === 200)).toBe(true);
    }
    await eventually(() => expect(idle.personalOf('auction:updated').length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 200));
    const updates = idle.personalOf('auction:updated');
    expect(updates.length).toBeLessThanOrEqual(10);
    for (const u of updates) {
      // The summary with the auction's rules (created without any: flat steps, soft close off in tests, the default cap, not extended).
      expect(u).toEqual({
        id: auctionId, name: expect.any(String), valid_until: validUntil, product_count: 500, status: 'active',
        original_valid_until: validUntil, increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false, server_time: expect.any(String),
      });
      // Small whatever the product count (500 ids alone would be over 5 KB); the auction's steps and cancel policy are part of it.
      expect(JSON.stringify(u).length).toBeLessThan(400);
    }
  }, 30_000);

  it('a bidder toggling watch/unwatch sends other watchers at most one count per frame', async () => {
    const { app, base } = await live({ liveFrameMs: 50 });
    const admin = await signUpAdmin(app);
    const { auctionId } = await createAuction(app, admin.token);
    const watcher = await io(base, (await signUpUser(app)).token);
    expect((await watcher.watch(auctionId)).status).toBe('ok');
    const toggler = await io(base, (await signUpUser(app)).token);
    const started = Date.now();
    // Nine toggles: 18 messages, within the per-socket rate of 20 a second.
    for (let i = 0; i < 9; i++) {
      expect((await toggler.watch(auctionId)).status).toBe('ok');
      toggler.socket.emit('auction:unwatch', auctionId);
    }
    await eventually(async () => expect(await app.ctx.live.watchers(auctionId)).toBe(1));
    await new Promise((r) => setTimeout(r, 150));
    const frames = watcher.frames.filter((f) => f.events.some((e) => e.event === 'auction:watchers'));
    // Never two counts in one frame, and no more frames than the toggling lasted.
    for (const f of frames) expect(f.events.filter((e) => e.event === 'auction:watchers')).toHaveLength(1);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 50) + 1);
    expect(watcher.roomEvents('auction:watchers').at(-1)?.data).toMatchObject({ watchers: 1 });
  });
});
