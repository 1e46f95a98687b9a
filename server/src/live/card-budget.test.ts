/**
 * What showing cards may cost (docs/live-protocol.md#what-a-list-may-cost): each card a
 * `catalogue:watch` list (`/api/ws` `{ type: "cards" }`) adds is read and sent, so the cards lists add
 * are budgeted per socket and per account. Past the budget a list is refused with RATE_LIMITED, nothing
 * is read, the socket keeps its list and stays connected; a Browse page's lists stay well inside it.
 * Real sockets against a listening app; every card read the hub makes is counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Ack, CardChangedData } from '@auction/shared';
import type { App } from '../context.js';
import { bid, createAuction, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs, eventually, listen } from '../test/live-helpers.js';
import { CARD_BUDGET } from './card-budget.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

async function setUp() {
  const app = await makeApp();
  apps.push(app);
  const base = await listen(app);
  const reads = app.ctx.store.reads;
  const original = reads.auctionCards.bind(reads);
  /** Ids read by the hub's card reads, all of them. */
  let cardsRead = 0;
  reads.auctionCards = (ids) => { cardsRead += ids.length; return original(ids); };
  const socket = async (token: string) => {
    const c = await connect(base, token);
    cleanups.push(c.close);
    return { ...c, show: (ids: string[]): Promise<Ack<{ auction_ids: string[] }>> => c.socket.emitWithAck('catalogue:watch', ids), cards: () => c.personalOf('catalogue:card') as CardChangedData[] };
  };
  return { app, base, socket, cardsRead: () => cardsRead };
}

/** A list of 100 ids no other list has (ids of no auction are read like any other). */
const freshList = (tag: string) => Array.from({ length: 100 }, (_, i) => `${tag}-${i}`);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the cost of showing cards', () => {
  it('a socket that floods new lists gets RATE_LIMITED past its budget, nothing read for those, keeps its list and its connection', async () => {
    const { app, socket, cardsRead } = await setUp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lot] } = await createAuction(app, admin.token);
    const bidder = await richBidder(app, 1000, [auctionId]);
    const c = await socket((await signUpUser(app)).token);
    // Fifteen lists of 100 new cards each, at once (under the 20 messages a second a socket may send).
    const lists = Array.from({ length: 15 }, (_, i) => (i === 2 ? [auctionId, ...freshList(`f${i}`).slice(1)] : freshList(`f${i}`)));
    const acks = await Promise.all(lists.map((ids) => c.show(ids)));
    const accepted = CARD_BUDGET.socket.burst / 100;
    expect(acks.slice(0, accepted).map((a) => a.status)).toEqual(Array<string>(accepted).fill('ok'));
    for (const a of acks.slice(accepted)) expect(a).toEqual({ status: 'error', error: { code: 'RATE_LIMITED', message: expect.stringContaining(`${CARD_BUDGET.socket.burst}`) } });
    await settle(300);
    // Only the accepted lists' cards were read.
    expect(cardsRead()).toBe(CARD_BUDGET.socket.burst);
    expect(c.socket.connected).toBe(true);
    // The list kept is the last one accepted: a bid on its auction reaches the socket.
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([auctionId]));
    expect((await bid(app, bidder.token, lot!, 100)).statusCode).toBe(201);
    await eventually(() => expect(c.cards()).toHaveLength(2));
    expect(c.cards()[1]!.card).toMatchObject({ highest_bid: 100 });
    // The same list again adds nothing: accepted, nothing read.
    const before = cardsRead();
    expect(await c.show(lists[accepted - 1]!)).toMatchObject({ status: 'ok' });
    await settle(100);
    expect(cardsRead()).toBe(before);
    // The budget refills: a second later a Browse page's worth of new cards is accepted again.
    await settle(1000);
    expect(await c.show(freshList('later').slice(0, 24))).toMatchObject({ status: 'ok' });
  });

  it('one account’s sockets share a budget: five sockets flooding together get no more read than one account may add', async () => {
    const { app, socket, cardsRead } = await setUp();
    const user = await signUpUser(app);
    const sockets = await Promise.all(Array.from({ length: 5 }, () => socket(user.token)));
    const acks = await Promise.all(sockets.flatMap((c, k) => [0, 1, 2, 3].map((i) => c.show(freshList(`s${k}-${i}`)))));
    const ok = acks.filter((a) => a.status === 'ok').length;
    expect(ok).toBe(CARD_BUDGET.account.burst / 100);
    expect(acks.filter((a) => a.status === 'error' && a.error.code === 'RATE_LIMITED')).toHaveLength(acks.length - ok);
    await settle(300);
    expect(cardsRead()).toBe(CARD_BUDGET.account.burst);
    expect(sockets.every((c) => c.socket.connected)).toBe(true);
    // Another account is not affected.
    const other = await socket((await signUpUser(app)).token);
    expect(await other.show(freshList('other'))).toMatchObject({ status: 'ok' });
  });

  it('/api/ws: lists past the budget are answered RATE_LIMITED, nothing read for them, and the socket stays open', async () => {
    const { app, base, cardsRead } = await setUp();
    const ws = await connectWs(base, (await signUpUser(app)).token);
    cleanups.push(ws.close);
    await eventually(() => expect(ws.messages.some((m) => m.type === 'ready')).toBe(true));
    for (let i = 0; i < 8; i++) ws.send({ type: 'cards', auction_ids: freshList(`w${i}`) });
    await eventually(() => expect(ws.messages.filter((m) => m.type === 'cards' || m.type === 'error')).toHaveLength(8));
    const answers = ws.messages.filter((m) => m.type === 'cards' || m.type === 'error');
    const accepted = CARD_BUDGET.socket.burst / 100;
    expect(answers.slice(0, accepted).map((m) => m.type)).toEqual(Array<string>(accepted).fill('cards'));
    for (const m of answers.slice(accepted)) expect(m).toEqual({ type: 'error', error: { code: 'RATE_LIMITED', message: expect.any(String) } });
    await settle(300);
    expect(cardsRead()).toBe(CARD_BUDGET.socket.burst);
    expect(ws.closeCode()).toBeNull();
  });

  it('a Browse flow stays inside the budget: a page, two more loaded, a filter, back; each list’s new cards arrive', async () => {
    const { app, socket, cardsRead } = await setUp();
    const admin = await signUpAdmin(app);
    const real = await Promise.all([1, 2, 3].map(() => createAuction(app, admin.token)));
    const c = await socket((await signUpUser(app)).token);
    // Pages of 24 (the client's page size); each holds one real auction among ids of none.
    const page = (n: number) => [real[n % 3]!.auctionId, ...Array.from({ length: 23 }, (_, i) => `page${n}-${i}`)];
    // A page, two more loaded, a filter whose first page holds auction 1 (shown already: not read
    // again), back to the first page (auction 0 is new to the list again).
    const flow = [page(0), [...page(0), ...page(1)], [...page(0), ...page(1), ...page(2)], page(4), page(0)];
    for (const ids of flow) {
      expect(await c.show(ids)).toMatchObject({ status: 'ok' });
      await settle(150);
    }
    await eventually(() => expect(c.cards().map((d) => d.auction_id)).toEqual([0, 1, 2, 0].map((n) => real[n]!.auctionId)));
    expect(cardsRead()).toBe(24 + 24 + 24 + 23 + 24);
  });
});
