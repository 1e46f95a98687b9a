/**
 * Notifications (docs/notifications.md) through the HTTP API on both stores: every kind produced by
 * the real event that causes it, exactly once; the list newest first with paging; read and unread;
 * retention of the latest 500; "ending soon" from the clock, once even after a restart.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { freshTestDatabase, testStoreKind } from '../../db/testing.js';
import { ENDING_SOON_S, noticeEndingSoon } from '../../domain/notices.js';
import {
  HOUR, bid, call, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder, signUpAdmin, tempDir, uniqueName,
} from '../../test/helpers.js';
import { eventually } from '../../test/live-helpers.js';
import { iso } from '../../presenters/format.js';

const apps: App[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
let app: App;
let clock: ReturnType<typeof makeClock>;
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  clock = makeClock();
  app = await makeApp({ autoSettle: false }, { now: clock.now });
  apps.push(app);
  return signUpAdmin(app);
}

interface LotOptions { reserve?: number; buyNow?: number; endsIn?: number; softClose?: number; products?: number }

/** An auction of `products` lots (default 1) with these prices on each. */
async function auction(a: App, admin: { token: string }, o: LotOptions = {}, now = clock.t) {
  const productIds: string[] = [];
  for (let i = 0; i < (o.products ?? 1); i++) {
    const id = uniqueName('N');
    const res = await call(a, 'POST', '/api/admin/product', {
      id, name: `Leica ${id}`, description: 'A camera',
      ...(o.reserve !== undefined ? { reserve_price: o.reserve } : {}),
      ...(o.buyNow !== undefined ? { buy_now_price: o.buyNow } : {}),
    }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    productIds.push(id);
  }
  const auctionId = uniqueName('NA');
  const res = await call(a, 'POST', '/api/admin/auction', {
    id: auctionId, name: `Sale ${auctionId}`, valid_until: iso(now + (o.endsIn ?? 2 * HOUR)), product_ids: productIds,
    ...(o.softClose !== undefined ? { soft_close_s: o.softClose } : {}),
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  return { auctionId, productIds, productId: productIds[0]! };
}

interface NoticeJson { id: number; kind: string; title: string; body: string; link: string; created_at: string; read: boolean }

async function inbox(token: string, query = '', a = app) {
  const res = await call(a, 'GET', `/api/notifications${query}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ notifications: NoticeJson[]; unread: number }>();
}
const kinds = async (token: string, a = app) => (await inbox(token, '?limit=100', a)).notifications.map((n) => n.kind);
const save = async (token: string, productId: string, a = app) => expect((await call(a, 'PUT', `/api/saved/${productId}`, undefined, token)).statusCode).toBe(204);
const link = (auctionId: string, productId: string) => `/auctions/${auctionId}/products/${productId}`;

describe('each kind, from the real event, exactly once', () => {
  it('outbid: the bidder whose lead was taken, not one raising their own lead', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    expect((await bid(app, asha.token, productId, 1000)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, productId, 1001)).statusCode).toBe(201);
    // Ravi raises his own lead: nobody is outbid.
    expect((await bid(app, ravi.token, productId, 1100)).statusCode).toBe(201);
    const got = await inbox(asha.token);
    expect(got.unread).toBe(1);
    expect(got.notifications).toEqual([{
      id: expect.any(Number), kind: 'outbid', title: `Outbid on Leica ${productId}`, body: 'The highest bid is now ₹1,001.',
      link: link(auctionId, productId), created_at: iso(clock.t), read: false,
    }]);
    expect(await kinds(ravi.token)).toEqual([]);
    await expectMoneyInvariant(app);
  });

  it('outbid by a buy-now for the leader; bought_now for the other bidders and the savers, not the buyer', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin, { reserve: 3000, buyNow: 5000 });
    const [asha, ravi, meera, buyer] = await Promise.all([0, 1, 2, 3].map(() => richBidder(app, 10_000, [auctionId])));
    expect((await bid(app, ravi!.token, productId, 500)).statusCode).toBe(201);
    expect((await bid(app, asha!.token, productId, 1000)).statusCode).toBe(201);
    await save(meera!.token, productId);
    await save(buyer!.token, productId);
    const bought = await call(app, 'POST', '/api/buy-now', { product_id: productId }, buyer!.token);
    expect(bought.statusCode, bought.body).toBe(201);
    const asha1 = await inbox(asha!.token);
    expect(asha1.notifications.map((n) => [n.kind, n.title, n.body])).toEqual([
      ['outbid', `Outbid on Leica ${productId}`, 'It was bought at its buy-now price of ₹5,000. Your hold is back in your wallet.'],
    ]);
    expect(await kinds(ravi!.token)).toEqual(['bought_now', 'outbid']);
    const meeras = await inbox(meera!.token);
    expect(meeras.notifications).toEqual([expect.objectContaining({
      kind: 'bought_now', title: `Leica ${productId} was bought`, body: 'Another bidder bought it at its buy-now price of ₹5,000.', link: link(auctionId, productId),
    })]);
    expect(await kinds(buyer!.token)).toEqual([]);
    await expectMoneyInvariant(app);
  });

  it('won, lost (each other bidder once per lot) and unsold at settlement', async () => {
    const admin = await start();
    const { auctionId, productIds: [sold, below] } = await auction(app, admin, { products: 2 });
    // The second lot gets a reserve the bid will not reach.
    expect((await call(app, 'PUT', `/api/admin/product/${below}`, { name: `Leica ${below!}`, description: 'A camera', reserve_price: 2000 }, admin.token)).statusCode).toBe(200);
    const [asha, ravi, meera, saver] = await Promise.all([0, 1, 2, 3].map(() => richBidder(app, 10_000, [auctionId])));
    expect((await bid(app, asha!.token, sold!, 100)).statusCode).toBe(201);
    expect((await bid(app, ravi!.token, sold!, 200)).statusCode).toBe(201);
    expect((await bid(app, asha!.token, sold!, 300)).statusCode).toBe(201);
    expect((await bid(app, meera!.token, sold!, 400)).statusCode).toBe(201);
    expect((await bid(app, ravi!.token, below!, 500)).statusCode).toBe(201);
    await save(saver!.token, sold!);
    const settled = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(settled.statusCode, settled.body).toBe(200);

    const meeras = await inbox(meera!.token);
    expect(meeras.notifications).toEqual([expect.objectContaining({
      kind: 'won', title: `You won Leica ${sold!}`, body: 'Your winning bid of ₹400 has been paid from your wallet.', link: link(auctionId, sold!),
    })]);
    const lost = (n: NoticeJson) => n.kind === 'lost';
    const ashas = (await inbox(asha!.token)).notifications;
    expect(ashas.filter(lost)).toEqual([expect.objectContaining({ title: `You did not win Leica ${sold!}`, body: 'It sold to another bidder for ₹400.' })]);
    const ravis = (await inbox(ravi!.token)).notifications;
    expect(ravis.filter(lost)).toHaveLength(1);
    expect(ravis.filter((n) => n.kind === 'unsold')).toEqual([expect.objectContaining({
      title: `Reserve not met on Leica ${below!}`, link: link(auctionId, below!),
      body: 'Your bid of ₹500 did not reach the seller’s reserve, so the lot was not sold. Your hold is back in your wallet.',
    })]);
    // A saver who never bid neither won nor lost.
    expect(await kinds(saver!.token)).toEqual([]);
    // A second settle is refused and writes nothing.
    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect((await kinds(asha!.token)).filter((k) => k === 'lost')).toHaveLength(1);
    expect(await kinds(meera!.token)).toEqual(['won']);
    await expectMoneyInvariant(app);
  });

  it('reinstated: the next leader after a cancellation', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    expect((await bid(app, asha.token, productId, 100)).statusCode).toBe(201);
    const top = await bid(app, ravi.token, productId, 200);
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: top.json<{ bid: { bid_id: number } }>().bid.bid_id }, ravi.token)).statusCode).toBe(200);
    const ashas = await inbox(asha.token);
    // Outbid a moment before: that notice now says the latest standing (one per lot per minute, below).
    expect(ashas.notifications.map((n) => n.kind)).toEqual(['reinstated']);
    expect(ashas.notifications[0]).toMatchObject({
      title: `You lead again on Leica ${productId}`, body: 'A higher bid was cancelled: your bid of ₹100 is the highest again and is held from your wallet.',
      link: link(auctionId, productId),
    });
    expect(await kinds(ravi.token)).toEqual([]);
    await expectMoneyInvariant(app);
  });

  it('extended: bidders and savers of the auction, not the bidder who extended it, once per 5 minutes', async () => {
    const admin = await start();
    const { auctionId, productIds: [p, q] } = await auction(app, admin, { endsIn: 10 * 60_000, softClose: 120, products: 2 });
    const [asha, ravi, meera, other] = await Promise.all([0, 1, 2, 3].map(() => richBidder(app, 10_000, [auctionId])));
    expect((await bid(app, asha!.token, p!, 100)).statusCode).toBe(201);
    await save(meera!.token, q!);
    clock.advance(9 * 60_000);
    // One minute left: Ravi's bid takes the lead and moves the end by a minute.
    expect((await bid(app, ravi!.token, p!, 200)).statusCode).toBe(201);
    const ashas = await inbox(asha!.token);
    expect(ashas.notifications.map((n) => n.kind)).toEqual(['extended', 'outbid']);
    expect(ashas.notifications[0]).toMatchObject({
      title: `Sale ${auctionId} was extended`, body: `A late bid on Leica ${p!} moved the end by 1 min: there is still time to bid.`, link: link(auctionId, p!),
    });
    expect((await inbox(meera!.token)).notifications).toEqual([expect.objectContaining({ kind: 'extended', link: link(auctionId, q!) })]);
    expect(await kinds(ravi!.token)).toEqual([]);
    expect(await kinds(other!.token)).toEqual([]);
    // Another extension 30 s later, in the same 5 minutes: Ravi (a bidder now) hears once; nobody twice.
    clock.advance(30_000);
    expect((await bid(app, asha!.token, p!, 300)).statusCode).toBe(201);
    expect(await kinds(ravi!.token)).toEqual(['extended', 'outbid']);
    expect((await kinds(meera!.token)).filter((k) => k === 'extended')).toHaveLength(1);
    expect((await kinds(asha!.token)).filter((k) => k === 'extended')).toHaveLength(1);
    // In the next 5 minutes, a new extension tells them again.
    clock.advance(45_000);
    expect((await bid(app, ravi!.token, p!, 400)).statusCode).toBe(201);
    expect((await kinds(meera!.token)).filter((k) => k === 'extended')).toHaveLength(2);
    await expectMoneyInvariant(app);
  });
});

describe('ending soon, from the clock', () => {
  it('tells the bidders and savers of an auction 10 minutes before its end, once, even after a restart', async () => {
    // A database that outlives the app: a SQLite file, or a PostgreSQL schema dropped at the end.
    let databaseUrl: string;
    if (testStoreKind === 'sqlite') {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      databaseUrl = path.join(dir, 'auction.db');
    } else {
      const db = freshTestDatabase();
      cleanups.push(() => db.drop());
      databaseUrl = db.url;
    }
    const first = await makeApp({ databaseUrl, autoSettle: false });
    const admin = await signUpAdmin(first);
    // Its 10-minute mark comes 4 s from now: after the bid and the saves below, even on a loaded machine.
    const { auctionId, productIds: [p, q] } = await auction(first, admin, { endsIn: ENDING_SOON_S * 1000 + 4000, products: 2 }, Date.now());
    const asha = await richBidder(first, 1000, [auctionId]);
    const meera = await richBidder(first, 1000, [auctionId]);
    const ravi = await richBidder(first, 1000, [auctionId]);
    expect((await bid(first, asha.token, p!, 100)).statusCode).toBe(201);
    await save(asha.token, q!, first);
    await save(meera.token, q!, first);
    await eventually(async () => expect(await kinds(meera.token, first)).toEqual(['ending_soon']), 10_000, 100);
    const ashas = await inbox(asha.token, '', first);
    expect(ashas.notifications).toEqual([expect.objectContaining({
      kind: 'ending_soon', title: `Ending soon: Leica ${p!} and 1 more`, body: `Sale ${auctionId} ends in 10 minutes. Bids in the last minutes may extend it.`,
      link: link(auctionId, p!),
    })]);
    expect(await kinds(ravi.token, first)).toEqual([]);
    await first.close();

    // At once again: the clock re-reads the mark it passed a moment ago, and the same notice is not written twice.
    const second = await makeApp({ databaseUrl, autoSettle: false });
    apps.push(second);
    await new Promise((r) => setTimeout(r, 1500));
    // Nor by another process's clock firing the same mark.
    const end = Date.parse((await call(second, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ valid_until: string }>().valid_until);
    const again = await second.ctx.commands.run((tx) => noticeEndingSoon(tx, { auctionId, validUntil: end }, Date.now()));
    expect(again).toMatchObject({ ok: true, written: 0 });
    expect(await kinds(meera.token, second)).toEqual(['ending_soon']);
    expect(await kinds(asha.token, second)).toEqual(['ending_soon']);
  }, 30_000);
});

describe('ending soon, when the end is edited', () => {
  it('re-editing the end again and again tells a follower once; an end moved hours later is told again as it nears', async () => {
    const admin = await start();
    const { auctionId, productIds } = await auction(app, admin);
    const asha = await richBidder(app, 1000, [auctionId]);
    const meera = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, asha.token, productIds[0]!, 100)).statusCode).toBe(201);
    await save(meera.token, productIds[0]!);
    // What the clock does at an end's 10-minute mark (server/src/clock/scheduler.ts), at the clock's now.
    const clockFires = async () => {
      const end = Date.parse((await call(app, 'GET', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json<{ valid_until: string }>().valid_until);
      return app.ctx.commands.run((tx) => noticeEndingSoon(tx, { auctionId, validUntil: end }, clock.t));
    };
    const edit = async (validUntil: number) => {
      const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: `Sale ${auctionId}`, valid_until: iso(validUntil), product_ids: productIds }, admin.token);
      expect(res.statusCode, res.body).toBe(200);
    };
    // The seller sets the end just past 10 minutes away, 20 times in 30 s: each new end's mark is due at once.
    for (let i = 0; i < 20; i++) {
      await edit(clock.t + ENDING_SOON_S * 1000 + 1000);
      clock.advance(1000);
      await clockFires();
      clock.advance(500);
    }
    for (const u of [asha, meera]) expect(await kinds(u.token)).toEqual(['ending_soon']);
    // Moved two hours later: told again when that end nears.
    await edit(clock.t + 2 * HOUR);
    clock.advance(2 * HOUR - ENDING_SOON_S * 1000);
    // The app's own clock may fire first (it re-arms on the edit, which a loaded machine may run after
    // the advance): between it and this call the notice is written once to each follower.
    expect(await clockFires()).toMatchObject({ ok: true });
    await eventually(async () => { for (const u of [asha, meera]) expect(await kinds(u.token)).toEqual(['ending_soon', 'ending_soon']); });
  });
});

describe('the list, read and unread, retention', () => {
  it('newest first, paged with before and limit; mark some or all read; another bidder’s ids change nothing', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin);
    const asha = await richBidder(app, 10_000, [auctionId]);
    const ravi = await richBidder(app, 10_000, [auctionId]);
    // Five outbids for Asha (and four for Ravi), one bid every 30 s: each outbid in a minute of its own.
    for (let i = 0; i < 5; i++) {
      expect((await bid(app, asha.token, productId, 100 + 2 * i)).statusCode).toBe(201);
      clock.advance(30_000);
      expect((await bid(app, ravi.token, productId, 101 + 2 * i)).statusCode).toBe(201);
      clock.advance(30_000);
    }
    const all = await inbox(asha.token);
    expect(all.unread).toBe(5);
    expect(all.notifications.map((n) => n.body)).toEqual([109, 107, 105, 103, 101].map((x) => `The highest bid is now ₹${x}.`));
    const ids = all.notifications.map((n) => n.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect((await inbox(asha.token, '?limit=2')).notifications.map((n) => n.id)).toEqual(ids.slice(0, 2));
    expect((await inbox(asha.token, `?limit=2&before=${ids[1]!}`)).notifications.map((n) => n.id)).toEqual(ids.slice(2, 4));
    expect((await inbox(asha.token, `?before=${ids[3]!}`)).notifications.map((n) => n.id)).toEqual(ids.slice(4));
    expect((await inbox(asha.token, `?before=${ids[4]!}`)).notifications).toEqual([]);
    // The default page is 20, the largest 100; anything else is refused.
    expectError(await call(app, 'GET', '/api/notifications?limit=101', undefined, asha.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/notifications?limit=0', undefined, asha.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/notifications?before=x', undefined, asha.token), 400, 'VALIDATION');

    // Some read: Ravi's ids beside Asha's change nothing of his.
    const ravis = await inbox(ravi.token);
    expect(ravis.unread).toBe(4);
    const marked = await call(app, 'POST', '/api/notifications/read', { ids: [ids[0], ids[2], ravis.notifications[0]!.id] }, asha.token);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ unread: 3 });
    expect((await inbox(asha.token)).notifications.map((n) => n.read)).toEqual([true, false, true, false, false]);
    expect((await inbox(ravi.token)).unread).toBe(4);
    // Again: nothing changes. Then all.
    expect((await call(app, 'POST', '/api/notifications/read', { ids: [ids[0]] }, asha.token)).json()).toEqual({ unread: 3 });
    expect((await call(app, 'POST', '/api/notifications/read', {}, asha.token)).json()).toEqual({ unread: 0 });
    expect((await inbox(asha.token)).notifications.every((n) => n.read)).toBe(true);
    expect((await inbox(ravi.token)).unread).toBe(4);
    expect((await call(app, 'POST', '/api/notifications/read', undefined, ravi.token)).json()).toEqual({ unread: 0 });
    // Admins have no notices.
    expectError(await call(app, 'GET', '/api/notifications', undefined, admin.token), 403, 'FORBIDDEN');
  });

  it('keeps the latest 500 per bidder, pruned in the transaction that writes a new one', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin);
    const asha = await richBidder(app, 10_000, [auctionId]);
    const ravi = await richBidder(app, 10_000, [auctionId]);
    // 520 old notices written at once (more than one statement's worth), the first 20 read.
    const old = Array.from({ length: 520 }, (_, i) => ({ userId: asha.user.id, kind: 'outbid' as const, title: `Old ${i}`, body: 'Old', link: '/' }));
    const applied = await app.ctx.store.transaction((tx) => tx.apply({ notices: old }, clock.t));
    expect(applied.notices).toHaveLength(520);
    expect(applied.notices.at(-1)!.unread).toBe(500);
    let page = await inbox(asha.token, '?limit=100');
    expect(page.unread).toBe(500);
    expect(page.notifications[0]!.title).toBe('Old 519');
    // A real one: still 500, the oldest kept is now Old 21.
    expect((await bid(app, asha.token, productId, 100)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, productId, 200)).statusCode).toBe(201);
    page = await inbox(asha.token, '?limit=100');
    expect(page.unread).toBe(500);
    expect(page.notifications[0]!.kind).toBe('outbid');
    expect(page.notifications[0]!.body).toBe('The highest bid is now ₹200.');
    let before = page.notifications.at(-1)!.id;
    const titles = page.notifications.map((n) => n.title);
    for (;;) {
      const next = await inbox(asha.token, `?limit=100&before=${before}`);
      if (next.notifications.length === 0) break;
      titles.push(...next.notifications.map((n) => n.title));
      before = next.notifications.at(-1)!.id;
    }
    expect(titles).toHaveLength(500);
    expect(titles.at(-1)).toBe('Old 21');
    // Ravi's own notices are his own count.
    expect((await inbox(ravi.token)).unread).toBe(0);
  });
});

describe('standing notices: at most one per lot per minute, saying the latest standing', () => {
  it('an outbid, then a reinstatement in the same minute: one notice, now "You lead again", unread again, pushed again under the same id; the next minute is a new one', async () => {
    const admin = await start();
    const { auctionId, productId } = await auction(app, admin);
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    const pushed: { id: number; kind: string; unread: number }[] = [];
    app.ctx.events.subscribe((list) => {
      for (const e of list) if (e.type === 'notification:new' && e.userId === asha.user.id) pushed.push({ id: e.notification.id, kind: e.notification.kind, unread: e.unread });
    });
    expect((await bid(app, asha.token, productId, 100)).statusCode).toBe(201);
    const top = await bid(app, ravi.token, productId, 200);
    const outbid = (await inbox(asha.token)).notifications;
    expect(outbid.map((n) => n.kind)).toEqual(['outbid']);
    // Asha reads it; 20 s later Ravi cancels.
    expect((await call(app, 'POST', '/api/notifications/read', {}, asha.token)).json()).toEqual({ unread: 0 });
    clock.advance(20_000);
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: top.json<{ bid: { bid_id: number } }>().bid.bid_id }, ravi.token)).statusCode).toBe(200);
    const got = await inbox(asha.token);
    expect(got.unread).toBe(1);
    expect(got.notifications).toEqual([{
      id: outbid[0]!.id, kind: 'reinstated', title: `You lead again on Leica ${productId}`,
      body: 'A higher bid was cancelled: your bid of ₹100 is the highest again and is held from your wallet.',
      link: link(auctionId, productId), created_at: iso(clock.t), read: false,
    }]);
    // The live notice came twice with one id: the bell replaces it rather than adding a second.
    expect(pushed).toEqual([{ id: outbid[0]!.id, kind: 'outbid', unread: 1 }, { id: outbid[0]!.id, kind: 'reinstated', unread: 1 }]);
    // The next minute: a notice of its own.
    clock.advance(60_000);
    expect((await bid(app, ravi.token, productId, 300)).statusCode).toBe(201);
    expect((await inbox(asha.token)).notifications.map((n) => [n.kind, n.read])).toEqual([['outbid', false], ['reinstated', false]]);
    await expectMoneyInvariant(app);
  });

  it('standing notices on different lots are separate; a bidder’s other notices are not touched', async () => {
    const admin = await start();
    const { auctionId, productIds: [p, q] } = await auction(app, admin, { products: 2 });
    const asha = await richBidder(app, 5000, [auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    for (const lot of [p!, q!]) expect((await bid(app, asha.token, lot, 100)).statusCode).toBe(201);
    for (const lot of [p!, q!]) expect((await bid(app, ravi.token, lot, 200)).statusCode).toBe(201);
    expect((await bid(app, asha.token, p!, 300)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, p!, 400)).statusCode).toBe(201);
    const got = (await inbox(asha.token)).notifications;
    // Newest first by id: the notice on p, written first, was replaced in place by the second outbid there.
    expect(got.map((n) => [n.kind, n.link, n.body])).toEqual([
      ['outbid', link(auctionId, q!), 'The highest bid is now ₹200.'],
      ['outbid', link(auctionId, p!), 'The highest bid is now ₹400.'],
    ]);
  });

  it('a won notice survives a flood: pruning to 500 drops other notices before final outcomes', async () => {
    const admin = await start();
    const { auctionId, productId: p } = await auction(app, admin);
    const asha = await richBidder(app, 10_000, [auctionId]);
    const ravi = await richBidder(app, 10_000, [auctionId]);
    expect((await bid(app, asha.token, p, 100)).statusCode).toBe(201);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    const won = (await inbox(asha.token)).notifications;
    expect(won.map((n) => n.kind)).toEqual(['won']);
    // A flood of standing notices afterwards: 520 (each its own lot and minute, ten changes a minute), then real ones.
    for (let minute = 0; minute < 52; minute++) {
      clock.advance(60_000);
      for (let i = 0; i < 10; i++) {
        const notice = { userId: asha.user.id, kind: 'outbid' as const, title: `Flood ${minute}.${i}`, body: 'Flood', link: '/', dedupe: `standing:X:L${i}:${minute}`, replace: true };
        await app.ctx.store.transaction((tx) => tx.apply({ notices: [notice] }, clock.t));
      }
    }
    const { auctionId: next, productIds: [r] } = await auction(app, admin);
    for (const u of [asha, ravi]) expect((await call(app, 'POST', '/api/auctions/register', { auction_id: next }, u.token)).statusCode).toBe(200);
    expect((await bid(app, asha.token, r!, 100)).statusCode).toBe(201);
    expect((await bid(app, ravi.token, r!, 200)).statusCode).toBe(201);
    const all: NoticeJson[] = [];
    for (let before = ''; ;) {
      const page = (await inbox(asha.token, `?limit=100${before}`)).notifications;
      if (page.length === 0) break;
      all.push(...page);
      before = `&before=${page.at(-1)!.id}`;
    }
    expect(all).toHaveLength(500);
    expect(all[0]).toMatchObject({ kind: 'outbid', body: 'The highest bid is now ₹200.' });
    expect(all.filter((n) => n.kind === 'won')).toEqual([won[0]]);
  });
});
