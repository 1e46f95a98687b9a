/**
 * `notification:new` (docs/live-protocol.md#notifications): each notice written reaches its bidder's
 * sockets of both transports after the commit, with their unread count, and nobody else's; with
 * several processes it travels through Redis as every personal event does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NotificationNewData } from '@auction/shared';
import { freshTestDatabase, redisAvailable, TEST_REDIS_URL, testStoreKind } from '../db/testing.js';
import { bid, call, createAuction, makeApp, makeClock, richBidder, signUpAdmin } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function liveApp(overrides: Parameters<typeof makeApp>[0] = {}, options: Parameters<typeof makeApp>[1] = {}) {
  const app = await makeApp(overrides, options);
  cleanups.push(async () => { await app.close(); });
  const base = await listen(app);
  return { app, base };
}

async function client(base: string, token: string) {
  const c = await connect(base, token);
  cleanups.push(c.close);
  return c;
}

describe('notification:new', () => {
  it('reaches the bidder’s sockets (socket.io and /api/ws) with the unread count, and no one else’s', async () => {
    // Each round a minute later: a bidder's standing on a lot is told once per minute (docs/notifications.md).
    const clock = makeClock(Date.now());
    const { app, base } = await liveApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    const ashaIo = await client(base, asha.token);
    const raviIo = await client(base, ravi.token);
    const adminIo = await client(base, admin.token);
    const ashaWs = await connectWs(base, asha.token);
    cleanups.push(ashaWs.close);
    await eventually(() => expect(ashaWs.messages[0]).toMatchObject({ type: 'ready' }));

    expect((await bid(app, asha.token, p!, 1000)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, p!, 1001)).statusCode).toBe(201);
    await eventually(() => expect(ashaIo.personalOf('notification:new')).toHaveLength(1));
    const first = ashaIo.personalOf('notification:new')[0] as NotificationNewData;
    expect(first).toEqual({
      notification: {
        id: expect.any(Number), kind: 'outbid', title: `Outbid on Product ${p!}`, body: 'The highest bid is now ₹1,001.',
        link: `/auctions/${auctionId}/products/${p!}`, created_at: expect.any(String), read: false,
      },
      unread: 1, server_time: expect.any(String),
    });
    // The same notice as the API lists it.
    const listed = (await call(app, 'GET', '/api/notifications', undefined, asha.token)).json<{ notifications: unknown[] }>().notifications;
    expect(listed).toEqual([first.notification]);
    await eventually(() => expect(ashaWs.messages).toContainEqual({ event: 'notification:new', data: first }));

    // A second one: the count goes up; marked read, the next one counts from there.
    clock.advance(60_000);
    expect((await bid(app, asha.token, p!, 1100)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, p!, 1200)).statusCode).toBe(201);
    await eventually(() => expect(ashaIo.personalOf('notification:new')).toHaveLength(2));
    expect((ashaIo.personalOf('notification:new')[1] as NotificationNewData).unread).toBe(2);
    expect((await call(app, 'POST', '/api/notifications/read', {}, asha.token)).json()).toEqual({ unread: 0 });
    clock.advance(60_000);
    expect((await bid(app, asha.token, p!, 1300)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, p!, 1400)).statusCode).toBe(201);
    await eventually(() => expect(ashaIo.personalOf('notification:new')).toHaveLength(3));
    expect((ashaIo.personalOf('notification:new')[2] as NotificationNewData).unread).toBe(1);

    // Ravi was outbid twice by Asha: his own notices only.
    await eventually(() => expect(raviIo.personalOf('notification:new')).toHaveLength(2));
    const ravis = raviIo.personalOf('notification:new') as NotificationNewData[];
    expect(ravis.map((n) => n.notification.body)).toEqual(['The highest bid is now ₹1,100.', 'The highest bid is now ₹1,300.']);
    expect(adminIo.personalOf('notification:new')).toEqual([]);
  });

  describe.runIf(testStoreKind === 'postgres' && redisAvailable)('with two processes on one PostgreSQL and Redis', () => {
    it('reaches a socket on the other process', async () => {
      const db = freshTestDatabase('postgres');
      cleanups.push(() => db.drop());
      const a = await liveApp({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL });
      const b = await liveApp({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL });
      const admin = await signUpAdmin(a.app);
      const { auctionId, productIds: [p] } = await createAuction(a.app, admin.token);
      const asha = await richBidder(a.app, 5000, [auctionId]);
      const ravi = await richBidder(a.app, 5000, [auctionId]);
      const onB = await client(b.base, asha.token);
      expect((await bid(a.app, asha.token, p!, 100)).statusCode).toBe(201);
      expect((await bid(a.app, ravi.token, p!, 200)).statusCode).toBe(201);
      await eventually(() => expect(onB.personalOf('notification:new')).toEqual([
        expect.objectContaining({ notification: expect.objectContaining({ kind: 'outbid', body: 'The highest bid is now ₹200.' }), unread: 1 }),
      ]));
    });
  });
});
