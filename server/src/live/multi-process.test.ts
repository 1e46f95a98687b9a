/**
 * Several server processes on one PostgreSQL and one Redis (docs/deploy.md), as three apps in this test
 * process: each has its own HTTP server, sockets, hub, relay connection, scheduler and election, and
 * they share only what real processes share. (e2e/cluster.test.ts runs real processes, and kills one.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame, RoomEvent } from '@auction/shared';
import type { App } from '../context.js';
import { freshTestDatabase, redisAvailable, TEST_REDIS_URL, testStoreKind, type TestDatabase } from '../db/testing.js';
import { bid, call, createAuction, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';
import { addPhoto } from '../test/photo-helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `n` apps ("processes") on one fresh PostgreSQL schema and the test Redis. */
async function cluster(n: number, overrides: Parameters<typeof makeApp>[0] = {}) {
  const db: TestDatabase = freshTestDatabase('postgres');
  cleanups.push(() => db.drop());
  const apps: App[] = [];
  const bases: string[] = [];
  for (let i = 0; i < n; i++) {
    const app = await makeApp({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL, liveFrameMs: 20, ...overrides });
    cleanups.push(async () => { await app.close(); });
    apps.push(app);
    bases.push(await listen(app));
  }
  return { apps, bases, db };
}

type Versioned = { product_id: string; version: number; highest_bid?: number; amount?: number };
const productEvents = (frames: Frame[]): (RoomEvent & { data: Versioned })[] =>
  frames.flatMap((f) => f.events).filter((e): e is RoomEvent & { data: Versioned } => 'version' in e.data);

describe.runIf(testStoreKind === 'postgres' && redisAvailable)('three processes on one PostgreSQL and Redis', () => {
  it('every watcher, on every process and transport, ends on the same highest bids with versions strictly rising; counts agree', async () => {
    const { apps, bases } = await cluster(3);
    const [a0, a1, a2] = apps as [App, App, App];
    const admin = await signUpAdmin(a0);
    const { auctionId, productIds } = await createAuction(a1, admin.token, { products: 3 });
    const bidders = await Promise.all(Array.from({ length: 9 }, (_, i) => richBidder(apps[i % 3]!, 1_000_000, [auctionId])));

    // A socket.io watcher on each process, and a plain WebSocket watcher on the third.
    const watchers = await Promise.all(bases.map(async (base, i) => {
      const c = await connect(base, bidders[i]!.token);
      cleanups.push(c.close);
      return c;
    }));
    const ws = await connectWs(bases[2]!, bidders[3]!.token);
    cleanups.push(ws.close);
    for (const w of watchers) expect(await w.watch(auctionId)).toMatchObject({ status: 'ok' });
    ws.send({ type: 'watch', auction_id: auctionId });
    // Four watchers over three processes: each process's watchers hear the cluster-wide count.
    const lastCount = (frames: Frame[]) => frames.flatMap((f) => f.events).filter((e) => e.event === 'auction:watchers').map((e) => (e.data as { watchers: number }).watchers).at(-1);
    await eventually(() => {
      for (const w of watchers) expect(lastCount(w.frames)).toBe(4);
      expect(lastCount(ws.frames())).toBe(4);
    });

    // A storm spread over the processes: concurrent bids on three lots, many of them refused.
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < 240; i++) {
      const b = bidders[i % bidders.length]!;
      sends.push(bid(apps[(i * 7) % 3]!, b.token, productIds[i % 3]!, 10 + Math.floor(i / 3) * 5 + (i % 2)));
    }
    const answers = await Promise.all(sends) as { statusCode: number }[];
    expect(answers.filter((r) => r.statusCode === 201).length).toBeGreaterThan(30);
    expect(answers.every((r) => r.statusCode === 201 || r.statusCode === 400 || r.statusCode === 409)).toBe(true);

    const finals = await Promise.all(productIds.map(async (id) => (await call(a2, 'GET', `/api/highest-bid?product_key=${id}`, undefined, admin.token)).json<{ highest_bid: number }>().highest_bid));
    // Every watcher's frames as they are now (the plain WebSocket client's list is made on each call).
    const everyone = () => [...watchers.map((w) => w.frames), ws.frames()];
    // A busy machine (the whole suite at once) may hold the last frames back for seconds; a lost one never arrives.
    await eventually(() => {
      for (const frames of everyone()) {
        const last = new Map(productEvents(frames).map((e) => [e.data.product_id, e.data.highest_bid]));
        expect(productIds.map((id) => last.get(id))).toEqual(finals);
      }
    }, 15_000);
    for (const frames of everyone()) {
      for (const id of productIds) {
        const versions = productEvents(frames).filter((e) => e.data.product_id === id).map((e) => e.data.version);
        for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]!);
      }
    }
    // The version each product ends on is the one the API shows.
    const shown = (await call(a0, 'GET', `/api/auctions/${auctionId}/products`, undefined, admin.token)).json<{ id: string; version: number }[]>();
    for (const frames of everyone()) {
      const last = new Map(productEvents(frames).map((e) => [e.data.product_id, e.data.version]));
      for (const p of shown) expect(last.get(p.id)).toBe(p.version);
    }
    await expectMoneyInvariant(a1);
  });

  it('personal events reach a user whose socket is on another process than the one that took the bid', async () => {
    const { apps, bases } = await cluster(3);
    const [a0, a1, a2] = apps as [App, App, App];
    const admin = await signUpAdmin(a0);
    const { auctionId, productIds } = await createAuction(a0, admin.token);
    const asha = await richBidder(a0, 1000, [auctionId]);
    const ravi = await richBidder(a0, 1000, [auctionId]);
    const ashaSocket = await connect(bases[0]!, asha.token);
    cleanups.push(ashaSocket.close);
    // Asha bids through process 1, Ravi outbids her through process 2; her socket is on process 0.
    expect((await bid(a1, asha.token, productIds[0]!, 100)).statusCode).toBe(201);
    expect((await bid(a2, ravi.token, productIds[0]!, 150)).statusCode).toBe(201);
    await eventually(() => {
      expect(ashaSocket.personalOf('bid:outbid')).toEqual([expect.objectContaining({ product_id: productIds[0], highest_bid: 150 })]);
      expect(ashaSocket.personalOf('wallet:updated').map((d) => (d as { wallet_balance: number }).wallet_balance)).toEqual([900, 1000]);
    });
    // A catalogue change made on process 2 reaches every socket.
    const validUntil = new Date(Date.now() + 3 * 3600_000).toISOString();
    const renamed = await call(a2, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Renamed', valid_until: validUntil }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    await eventually(() => expect(ashaSocket.personalOf('auction:updated')).toEqual([expect.objectContaining({ id: auctionId, name: 'Renamed' })]));
  });

  it('one process keeps the clock; when it stops, another takes over and settles the next ending within 5 s', async () => {
    const { apps } = await cluster(3);
    const leaders = apps.filter((a) => a.ctx.scheduler.active);
    expect(leaders).toHaveLength(1);
    const leader = leaders[0]!;
    const others = apps.filter((a) => a !== leader);
    const admin = await signUpAdmin(others[0]!);
    const endsIn = 3000;
    const { auctionId, productIds } = await createAuction(others[0]!, admin.token, { endsIn });
    const endsAt = Date.now() + endsIn;
    const winner = await richBidder(others[1]!, 500, [auctionId]);
    expect((await bid(others[1]!, winner.token, productIds[0]!, 120)).statusCode).toBe(201);
    // The clock's process goes away before the end.
    await leader.close();
    cleanups.push(() => undefined);
    const status = async () => (await call(others[0]!, 'GET', '/api/auctions', undefined, winner.token)).json<{ id: string; status: string }[]>().find((x) => x.id === auctionId)?.status;
    await eventually(async () => expect(await status()).toBe('settled'), endsIn + 6000, 100);
    expect(Date.now() - endsAt).toBeLessThan(5000);
    expect(others.filter((a) => a.ctx.scheduler.active)).toHaveLength(1);
    const bids = (await call(others[0]!, 'GET', '/api/user-bids', undefined, winner.token)).json<{ status: string; state: string }[]>();
    expect(bids.map((b) => b.state)).toEqual(['won']);
    await expectMoneyInvariant(others[0]!);
  });

  it('the bid rate limit (20 a second per bidder) holds over the whole cluster', async () => {
    const { apps } = await cluster(3, { rateLimit: true });
    const admin = await signUpAdmin(apps[0]!);
    const { auctionId, productIds } = await createAuction(apps[0]!, admin.token);
    const b = await richBidder(apps[0]!, 100_000, [auctionId]);
    // 30 bids at once, ten through each process: one process alone would allow them all.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => bid(apps[i % 3]!, b.token, productIds[0]!, 10 + i)));
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0]!.json()).toMatchObject({ code: 'RATE_LIMITED' });
    await expectMoneyInvariant(apps[0]!);
  });

  it('GET /auctions from memory on every process: a change committed through one shows on the others, and a registration at once', async () => {
    const { apps } = await cluster(2);
    const [a0, a1] = apps as [App, App];
    const admin = await signUpAdmin(a0);
    const user = await signUpUser(a0);
    const names = async (app: App) => (await call(app, 'GET', '/api/auctions', undefined, user.token)).json<{ name: string; registered: boolean }[]>();
    // Both processes hold the (empty) list in memory.
    expect(await names(a0)).toEqual([]);
    expect(await names(a1)).toEqual([]);
    const { auctionId, productIds } = await createAuction(a0, admin.token);
    // Process 1 hears of it through Redis (the catalogue announcement), well before its safety expiry.
    await eventually(async () => expect(await names(a1)).toEqual([expect.objectContaining({ name: `Auction ${auctionId}` })]), 2000, 20);
    const later = new Date(Date.now() + 3 * 3_600_000).toISOString();
    expect((await call(a1, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Renamed', valid_until: later, product_ids: productIds }, admin.token)).statusCode).toBe(200);
    await eventually(async () => expect((await names(a0))[0]).toMatchObject({ name: 'Renamed' }), 2000, 20);
    // A registration through one process shows on the other on the very next request.
    expect((await call(a0, 'POST', '/api/auctions/register', { auction_id: auctionId }, user.token)).statusCode).toBe(200);
    expect((await names(a1))[0]).toMatchObject({ registered: true });
  });

  it('GET /auctions prices: another process’s bid shows within the 5 s safety net (bids are not announced across processes); its photo change at once', async () => {
    const { apps } = await cluster(2);
    const [a0, a1] = apps as [App, App];
    const admin = await signUpAdmin(a0);
    const { auctionId, productIds: [lot] } = await createAuction(a1, admin.token);
    const bidder = await richBidder(a1, 1000, [auctionId]);
    const card = async (app: App) => (await call(app, 'GET', '/api/auctions', undefined, bidder.token))
      .json<{ id: string; highest_bid: number; bid_count: number; cover: { url: string; thumb_url: string } | null }[]>().find((a) => a.id === auctionId)!;
    await eventually(async () => expect(await card(a0)).toMatchObject({ highest_bid: 0, cover: null }), 2000, 20);
    const readAt = Date.now();
    expect((await bid(a1, bidder.token, lot!, 150)).statusCode).toBe(201);
    // Process 1 shows its own bid a second later at most; process 0 hears nothing of it until its list is 5 s old.
    await eventually(async () => expect(await card(a1)).toMatchObject({ highest_bid: 150, bid_count: 1 }), 2000, 50);
    await eventually(async () => expect(await card(a0)).toMatchObject({ highest_bid: 150, bid_count: 1 }), 7000, 100);
    expect(Date.now() - readAt).toBeLessThan(6500);
    // A photo is a catalogue change: announced, so process 0 shows the cover well within the safety net.
    const photo = await addPhoto(a1, admin.token, lot!);
    await eventually(async () => expect((await card(a0)).cover).toEqual({ url: photo.url, thumb_url: photo.thumb_url }), 2000, 20);
  });

  it('a Browse card changed through one process reaches the sockets that show it on another; a process that shows no card reads none', async () => {
    const { apps, bases } = await cluster(2);
    const [a0, a1] = apps as [App, App];
    const cardReads = apps.map((app) => {
      const reads = app.ctx.store.reads;
      const original = reads.auctionCards.bind(reads);
      const seen: string[][] = [];
      reads.auctionCards = (ids) => { seen.push([...ids]); return original(ids); };
      return seen;
    });
    const admin = await signUpAdmin(a0);
    const { auctionId, productIds: [lot] } = await createAuction(a0, admin.token);
    const bidder = await richBidder(a1, 1000, [auctionId]);
    const shows = await connect(bases[0]!, (await signUpUser(a0)).token);
    cleanups.push(shows.close);
    const plain = await connectWs(bases[0]!, (await signUpUser(a0)).token);
    cleanups.push(plain.close);
    expect(await shows.socket.emitWithAck('catalogue:watch', [auctionId])).toEqual({ status: 'ok', data: { auction_ids: [auctionId] } });
    plain.send({ type: 'cards', auction_ids: [auctionId] });
    await eventually(() => expect(plain.messages).toContainEqual({ type: 'cards', auction_ids: [auctionId] }));
    const cardsOf = () => [shows.personalOf('catalogue:card'), plain.messages.filter((m) => m.event === 'catalogue:card').map((m) => m.data)];
    // Each socket first gets the card as it is, read by the process it is on.
    await eventually(() => {
      for (const cards of cardsOf()) expect(cards).toEqual([expect.objectContaining({ auction_id: auctionId, card: expect.objectContaining({ highest_bid: 0, bid_count: 0 }) })]);
    });
    const shownReads = cardReads[0]!.length;
    expect(cardReads[0]!.every((ids) => ids.length === 1 && ids[0] === auctionId)).toBe(true);

    // Committed through process 1, shown on process 0.
    expect((await bid(a1, bidder.token, lot!, 120)).statusCode).toBe(201);
    await eventually(() => {
      for (const cards of cardsOf()) expect(cards.slice(1)).toEqual([expect.objectContaining({ auction_id: auctionId, card: expect.objectContaining({ highest_bid: 120, bid_count: 1 }) })]);
    });
    expect(cardReads[0]!.slice(shownReads)).toEqual([[auctionId]]);
    expect(cardReads[1]).toEqual([]);

    // Deleted through process 1: the card is gone on process 0.
    const gone = await call(a1, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token);
    expect(gone.statusCode, gone.body).toBe(200);
    await eventually(() => {
      for (const cards of cardsOf()) expect(cards.at(-1)).toMatchObject({ auction_id: auctionId, card: null });
    });
    expect(cardReads[1]).toEqual([]);
  });
});
