/**
 * Live Browse cards (docs/live-protocol.md#browse-cards): a socket names the cards it shows
 * (`catalogue:watch`, `/api/ws` `{ type: "cards" }`) and gets `catalogue:card` for those only, read as
 * committed, merged per auction per frame; no card watchers, no read. Real sockets against a listening app.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CARD_WATCH_MAX, type CardChangedData } from '@auction/shared';
import type { App } from '../context.js';
import { bid, call, createAuction, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';
import { SOCKET_LIMITS } from './sessions.js';

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
  const admin = await signUpAdmin(app);
  const client = async () => {
    const c = await connect(base, (await signUpUser(app)).token);
    cleanups.push(c.close);
    return { ...c, cards: () => c.personalOf('catalogue:card') as CardChangedData[], show: (ids: unknown) => c.socket.emitWithAck('catalogue:watch', ids) };
  };
  const plain = async () => {
    const c = await connectWs(base, (await signUpUser(app)).token);
    cleanups.push(c.close);
    await eventually(() => expect(c.messages.some((m) => m.type === 'ready')).toBe(true));
    return { ...c, cards: () => c.messages.filter((m) => m.event === 'catalogue:card').map((m) => m.data as CardChangedData) };
  };
  /** Counts the batch reads of cards (every one the hub makes goes through `auctionCards`). */
  const reads = app.ctx.store.reads;
  const original = reads.auctionCards.bind(reads);
  const cardReads: string[][] = [];
  reads.auctionCards = (ids) => { cardReads.push([...ids]); return original(ids); };
  return { app, base, admin, client, plain, cardReads };
}

/** The card `GET /api/catalogue/auctions` shows for an auction now, without `registered`. */
async function listedCard(app: App, auctionId: string, tab = 'active') {
  const page = (await call(app, 'GET', `/api/catalogue/auctions?tab=${tab}&limit=100`)).json<{ items: Record<string, unknown>[] }>();
  const { registered: _, ...card } = page.items.find((c) => c.id === auctionId)!;
  return card;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('catalogue:watch over socket.io', () => {
  it('a bid sends one card, as the list shows it, to the sockets that show it and to no other', async () => {
    const { app, admin, client } = await setUp();
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const other = await createAuction(app, admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const shows = await client();
    const showsOther = await client();
    const showsNothing = await client();
    expect(await shows.show([auctionId, other.auctionId])).toEqual({ status: 'ok', data: { auction_ids: [auctionId, other.auctionId] } });
    expect(await showsOther.show([other.auctionId])).toMatchObject({ status: 'ok' });
    // Each card a list adds follows its answer, as the list shows it now.
    await eventually(() => expect(shows.cards().map((d) => d.auction_id)).toEqual([auctionId, other.auctionId]));
    expect(shows.cards()[0]!.card).toEqual(await listedCard(app, auctionId));
    expect(shows.cards()[0]!.card).toMatchObject({ highest_bid: 0, bid_count: 0 });
    await eventually(() => expect(showsOther.cards().map((d) => d.auction_id)).toEqual([other.auctionId]));

    expect((await bid(app, asha.token, p!, 250)).statusCode).toBe(201);
    await eventually(() => expect(shows.cards()).toHaveLength(3));
    const sent = shows.cards()[2];
    expect(sent).toMatchObject({ auction_id: auctionId, card: { id: auctionId, highest_bid: 250, bid_count: 1, status: 'active' } });
    expect(sent!.card).toEqual(await listedCard(app, auctionId));
    expect(typeof sent!.server_time).toBe('string');
    await settle(150);
    expect(shows.cards()).toHaveLength(3);
    expect(showsOther.cards()).toHaveLength(1);
    expect(showsNothing.cards()).toEqual([]);
  });

  it('a card changed between the page read and the list arrives with the list, never out of order', async () => {
    const { app, admin, client, cardReads } = await setUp({ liveFrameMs: 1000 });
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const ghost = 'no-such-auction';
    const bidder = await richBidder(app, 10_000, [auctionId]);
    const c = await client();
    // The page is read with no bid; a bid lands before the socket names its cards.
    expect((await listedCard(app, auctionId)).bid_count).toBe(0);
    expect((await bid(app, bidder.token, p!, 300)).statusCode).toBe(201);
    expect(await c.show([auctionId, ghost])).toMatchObject({ status: 'ok' });
    // Sent at once, not a frame interval later, and nothing for an id of no auction.
    await eventually(() => expect(c.cards()).toEqual([expect.objectContaining({ auction_id: auctionId, card: expect.objectContaining({ highest_bid: 300, bid_count: 1 }) })]), 500);
    expect(cardReads).toEqual([[auctionId, ghost]]);
    // The bid's own card follows with its frame.
    await eventually(() => expect(c.cards()).toHaveLength(2), 3000);
    expect(cardReads).toEqual([[auctionId, ghost], [auctionId]]);

    // A list read only for what it adds; bids while the card leaves and rejoins the list arrive in order.
    const other = await createAuction(app, admin.token);
    expect(await c.show([auctionId, other.auctionId])).toMatchObject({ status: 'ok' });
    await eventually(() => expect(c.cards().map((d) => d.auction_id).slice(2)).toEqual([other.auctionId]));
    expect(cardReads.at(-1)).toEqual([other.auctionId]);
    for (let i = 1; i <= 6; i++) {
      expect((await bid(app, bidder.token, p!, 300 + i * 10)).statusCode).toBe(201);
      expect(await c.show(i % 2 === 0 ? [auctionId, other.auctionId] : [other.auctionId])).toMatchObject({ status: 'ok' });
    }
    await eventually(() => expect(c.cards().at(-1)?.card).toMatchObject({ highest_bid: 360 }), 3000);
    const highest = c.cards().filter((d) => d.auction_id === auctionId).map((d) => d.card!.highest_bid);
    expect(highest).toEqual([...highest].sort((x, y) => x - y));
  });

  it('a card shown by more sockets than one slice reaches each of them once', async () => {
    const { app, admin, base } = await setUp();
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const bidder = await richBidder(app, 1000, [auctionId]);
    // 72 sockets over four accounts (at most 20 sockets an account).
    const users = await Promise.all(Array.from({ length: 4 }, () => signUpUser(app)));
    const sockets = await Promise.all(Array.from({ length: 72 }, async (_, i) => {
      const c = await connect(base, users[i % 4]!.token);
      cleanups.push(c.close);
      expect(await c.socket.emitWithAck('catalogue:watch', [auctionId])).toMatchObject({ status: 'ok' });
      return c;
    }));
    const highestSeen = (c: (typeof sockets)[number]) => (c.personalOf('catalogue:card') as CardChangedData[]).map((d) => d.card?.highest_bid);
    await eventually(() => { for (const c of sockets) expect(highestSeen(c)).toEqual([0]); });
    expect((await bid(app, bidder.token, p!, 75)).statusCode).toBe(201);
    await eventually(() => { for (const c of sockets) expect(highestSeen(c)).toHaveLength(2); });
    await settle(150);
    for (const c of sockets) expect(highestSeen(c)).toEqual([0, 75]);
  });

  it('a new list replaces the old one, [] shows none; a bad list is refused and the old one kept', async () => {
    const { app, admin, client } = await setUp();
    const a = await createAuction(app, admin.token);
    const b = await createAuction(app, admin.token);
    const bidder = await richBidder(app, 10_000, [a.auctionId, b.auctionId]);
    const c = await client();
    let amount = 10;
    const bidOn = async (lot: string) => expect((await bid(app, bidder.token, lot, amount += 10)).statusCode).toBe(201);

    // Duplicates collapse, first place kept.
    expect(await c.show([a.auctionId, a.auctionId])).toEqual({ status: 'ok', data: { auction_ids: [a.auctionId] } });
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([a.auctionId]));
    expect(await c.show([b.auctionId])).toMatchObject({ status: 'ok' });
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([a.auctionId, b.auctionId]));
    await bidOn(a.productIds[0]!);
    await bidOn(b.productIds[0]!);
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([a.auctionId, b.auctionId, b.auctionId]));

    // Refused, each with VALIDATION, and the list (b) stays.
    const tooMany = Array.from({ length: CARD_WATCH_MAX + 1 }, (_, i) => `auction-${i}`);
    for (const bad of [tooMany, 'not-a-list', [''], [42], ['x'.repeat(65)], null]) {
      expect(await c.show(bad)).toMatchObject({ status: 'error', error: { code: 'VALIDATION' } });
    }
    // A hundred distinct ids (and repeats of them) are accepted.
    const hundred = [b.auctionId, ...tooMany.slice(0, CARD_WATCH_MAX - 1)];
    expect(await c.show([...hundred, b.auctionId])).toEqual({ status: 'ok', data: { auction_ids: hundred } });
    await bidOn(b.productIds[0]!);
    // b was shown already: nothing more for it until it changes.
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([a.auctionId, b.auctionId, b.auctionId, b.auctionId]));

    expect(await c.show([])).toEqual({ status: 'ok', data: { auction_ids: [] } });
    await bidOn(a.productIds[0]!);
    await bidOn(b.productIds[0]!);
    await settle(200);
    expect(c.cards()).toHaveLength(4);
  });

  it('each list is one message under the per-socket rate: the one over is refused, then the socket closes', async () => {
    const { client } = await setUp();
    const c = await client();
    const acks = await Promise.all(Array.from({ length: SOCKET_LIMITS.messagesPerSecond + 1 }, (_, i) => c.socket.timeout(2000).emitWithAck('catalogue:watch', [`a${i}`]).catch(() => null)));
    // Lists answered as the socket closes may lose their answer; none beyond the limit is accepted.
    expect(acks.filter((a) => a?.status === 'ok').length).toBeGreaterThan(0);
    expect(acks.slice(0, -1).every((a) => a === null || a.status === 'ok')).toBe(true);
    expect(acks.at(-1)).toEqual({ status: 'error', error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    await eventually(() => expect(c.socket.connected).toBe(false));
  });

  it('a burst of bids within one frame is one card with the last state, from one read', async () => {
    const { app, admin, client, cardReads } = await setUp({ liveFrameMs: 1500 });
    const { auctionId, productIds } = await createAuction(app, admin.token, { products: 3 });
    const bidders = await Promise.all(Array.from({ length: 3 }, () => richBidder(app, 10_000, [auctionId])));
    const c = await client();
    await c.show([auctionId]);
    await eventually(() => expect(c.cards()).toHaveLength(1));
    const answers = await Promise.all(bidders.map((b, i) => bid(app, b.token, productIds[i]!, 100 + i)));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201]);
    await eventually(() => expect(c.cards()).toHaveLength(2));
    await settle(600);
    expect(c.cards()).toHaveLength(2);
    expect(c.cards()[1]!.card).toMatchObject({ highest_bid: 102, bid_count: 3 });
    // The card as first shown, then the burst.
    expect(cardReads).toEqual([[auctionId], [auctionId]]);
  });

  it('sends the card when the auction is extended, a bid cancelled, renamed, ends, is settled; null when it is deleted', async () => {
    const { app, admin, client } = await setUp({ autoSettle: false });
    const c = await client();
    const last = () => c.cards().at(-1);

    // Soft close: a bid in the window moves the end.
    const extending = await createAuction(app, admin.token, { endsIn: 60_000 });
    const put = await call(app, 'PUT', `/api/admin/auction/${extending.auctionId}`, { name: 'Soft close', valid_until: new Date(Date.now() + 60_000).toISOString(), soft_close_s: 120 }, admin.token);
    expect(put.statusCode, put.body).toBe(200);
    const bidder = await richBidder(app, 1000, [extending.auctionId]);
    await c.show([extending.auctionId]);
    const before = Date.now();
    expect((await bid(app, bidder.token, extending.productIds[0]!, 5)).statusCode).toBe(201);
    await eventually(() => expect(last()?.card).toMatchObject({ highest_bid: 5, bid_count: 1 }));
    expect(Date.parse(last()!.card!.valid_until)).toBeGreaterThanOrEqual(before + 120_000);

    // The bid cancelled: the card goes back to no bid.
    const bidId = (await call(app, 'GET', '/api/user-bids', undefined, bidder.token)).json<{ bid_id: number }[]>()[0]!.bid_id;
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: bidId }, bidder.token)).statusCode).toBe(200);
    await eventually(() => expect(last()?.card).toMatchObject({ highest_bid: 0, bid_count: 0 }));

    // Renamed.
    const renamed = await call(app, 'PUT', `/api/admin/auction/${extending.auctionId}`, { name: 'Renamed', valid_until: new Date(Date.now() + 3_600_000).toISOString() }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    await eventually(() => expect(last()?.card).toMatchObject({ name: 'Renamed' }));

    // The clock ends it, then its admin settles it.
    const ending = await createAuction(app, admin.token, { endsIn: 1500 });
    await c.show([ending.auctionId]);
    await eventually(() => expect(last()).toMatchObject({ auction_id: ending.auctionId, card: { status: 'ended' } }), 6000);
    expect(last()!.card).toEqual(await listedCard(app, ending.auctionId, 'ended'));
    expect((await call(app, 'POST', `/api/admin/auction/${ending.auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    await eventually(() => expect(last()).toMatchObject({ auction_id: ending.auctionId, card: { status: 'settled' } }));

    // Deleted: the card is gone.
    const deleted = await createAuction(app, admin.token);
    await c.show([deleted.auctionId]);
    expect((await call(app, 'DELETE', `/api/admin/auction/${deleted.auctionId}`, undefined, admin.token)).statusCode).toBeLessThan(300);
    await eventually(() => expect(last()).toMatchObject({ auction_id: deleted.auctionId, card: null }));
  }, 15_000);

  it('a bid storm with no card watchers costs no read; with one, at most one read per frame', async () => {
    const { app, admin, client, cardReads } = await setUp({ liveFrameMs: 50 });
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const other = await createAuction(app, admin.token);
    const bidders = await Promise.all(Array.from({ length: 4 }, () => richBidder(app, 100_000, [auctionId])));
    // Someone watches the auction's room and someone shows another card: neither shows this one.
    const roomWatcher = await client();
    await roomWatcher.watch(auctionId);
    const elsewhere = await client();
    await elsewhere.show([other.auctionId]);
    // Its card as first shown is the only read.
    await eventually(() => expect(elsewhere.cards()).toHaveLength(1));
    const storm = async (from: number) => {
      for (let i = 0; i < 40; i++) expect((await bid(app, bidders[i % 4]!.token, p!, from + i)).statusCode).toBe(201);
    };
    await storm(10);
    await eventually(() => expect(roomWatcher.roomEvents('bid:placed').length).toBeGreaterThan(0));
    await settle(200);
    expect(cardReads).toEqual([[other.auctionId]]);
    cardReads.length = 0;

    const shows = await client();
    await shows.show([auctionId]);
    // The card as first shown: one read.
    await eventually(() => expect(shows.cards()).toHaveLength(1));
    expect(cardReads).toEqual([[auctionId]]);
    const started = Date.now();
    await storm(100);
    const took = Date.now() - started;
    await eventually(() => expect(shows.cards().at(-1)?.card).toMatchObject({ highest_bid: 139 }));
    expect(cardReads.length).toBeGreaterThan(1);
    expect(cardReads.length - 1).toBeLessThanOrEqual(Math.ceil(took / 50) + 2);
    expect(cardReads.every((ids) => ids.length === 1 && ids[0] === auctionId)).toBe(true);
    expect(shows.cards().length).toBe(cardReads.length);
  });
});

describe('{ type: "cards" } over /api/ws', () => {
  it('shows, replaces, refuses and clears the cards of a plain WebSocket', async () => {
    const { app, admin, plain } = await setUp();
    const a = await createAuction(app, admin.token);
    const b = await createAuction(app, admin.token);
    const bidder = await richBidder(app, 10_000, [a.auctionId, b.auctionId]);
    const ws = await plain();
    const replies = () => ws.messages.filter((m) => m.type === 'cards' || m.type === 'error');

    ws.send({ type: 'cards', auction_ids: [a.auctionId] });
    await eventually(() => expect(replies()).toEqual([{ type: 'cards', auction_ids: [a.auctionId] }]));
    // The card as it is follows the answer.
    await eventually(() => expect(ws.cards()).toEqual([expect.objectContaining({ auction_id: a.auctionId, card: expect.objectContaining({ highest_bid: 0, bid_count: 0 }) })]));
    expect((await bid(app, bidder.token, a.productIds[0]!, 40)).statusCode).toBe(201);
    await eventually(() => expect(ws.cards().slice(1)).toEqual([expect.objectContaining({ auction_id: a.auctionId, card: expect.objectContaining({ highest_bid: 40, bid_count: 1 }) })]));

    // Too many: an error, and the list (a) stays.
    ws.send({ type: 'cards', auction_ids: Array.from({ length: CARD_WATCH_MAX + 1 }, (_, i) => `x${i}`) });
    ws.send({ type: 'cards', auction_ids: 'nope' });
    await eventually(() => expect(replies().slice(1)).toEqual([
      { type: 'error', error: { code: 'VALIDATION', message: expect.any(String) } },
      { type: 'error', error: { code: 'VALIDATION', message: expect.any(String) } },
    ]));
    expect((await bid(app, bidder.token, a.productIds[0]!, 50)).statusCode).toBe(201);
    await eventually(() => expect(ws.cards().map((d) => d.card?.highest_bid)).toEqual([0, 40, 50]));

    // Replaced by b: a's changes stop.
    ws.send({ type: 'cards', auction_ids: [b.auctionId] });
    await eventually(() => expect(replies().at(-1)).toEqual({ type: 'cards', auction_ids: [b.auctionId] }));
    await eventually(() => expect(ws.cards()).toHaveLength(4));
    expect((await bid(app, bidder.token, a.productIds[0]!, 60)).statusCode).toBe(201);
    expect((await bid(app, bidder.token, b.productIds[0]!, 70)).statusCode).toBe(201);
    await eventually(() => expect(ws.cards().map((d) => [d.auction_id, d.card?.highest_bid])).toEqual([[a.auctionId, 0], [a.auctionId, 40], [a.auctionId, 50], [b.auctionId, 0], [b.auctionId, 70]]));

    // [] shows none.
    ws.send({ type: 'cards', auction_ids: [] });
    await eventually(() => expect(replies().at(-1)).toEqual({ type: 'cards', auction_ids: [] }));
    expect((await bid(app, bidder.token, b.productIds[0]!, 80)).statusCode).toBe(201);
    await settle(200);
    expect(ws.cards()).toHaveLength(5);
  });
});
