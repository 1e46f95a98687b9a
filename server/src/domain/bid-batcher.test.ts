import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { App } from '../context.js';
import { bid, createAuction, expectMoneyInvariant, makeApp, richBidder, signUpAdmin } from '../test/helpers.js';
import { BidBatcher } from './bid-batcher.js';
import type { DomainEvent } from './events.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

async function scene(bidders: number) {
  const admin = await signUpAdmin(app);
  const { auctionId, productIds: [productId] } = await createAuction(app, admin.token);
  const users = [];
  for (let i = 0; i < bidders; i++) users.push(await richBidder(app, 10_000, [auctionId]));
  return { productId: productId!, users };
}

/** Counts the transaction functions made on the connection while `fn` runs (outer ones and savepoints). */
async function commitsDuring(fn: () => Promise<unknown>) {
  const client = app.ctx.db.$client;
  const spy = vi.spyOn(client, 'transaction');
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

it('decides the bids of one turn in arrival order, in one transaction, and publishes after the commit', async () => {
  const { productId, users } = await scene(6);
  const published: DomainEvent[][] = [];
  const desk = new BidBatcher({ db: app.ctx.db, now: () => Date.now(), publish: (e) => published.push([...e]) });

  // Sent in one turn and decided in arrival order: 600 → 700 → 650 (too low) → 800 → 800 (too low) → 900.
  const amounts = [600, 700, 650, 800, 800, 900];
  let results: Awaited<ReturnType<BidBatcher['place']>>[] = [];
  const transactions = await commitsDuring(async () => {
    results = await Promise.all(amounts.map((rupees, i) => desk.place({ userId: users[i]!.user.id, productRef: productId, amount: rupees * 100 })));
  });

  expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual(['ok', 'ok', 'BID_TOO_LOW', 'ok', 'BID_TOO_LOW', 'ok']);
  // One outer transaction for the whole batch (nested ones are its savepoints, one per bid).
  expect(transactions).toBe(1 + amounts.length);
  expect(published).toHaveLength(1);
  const placed = published[0]!.filter((e) => e.type === 'bid:placed').map((e) => (e.type === 'bid:placed' ? e.highest : 0));
  expect(placed).toEqual([60_000, 70_000, 80_000, 90_000]);
  const outbid = published[0]!.filter((e) => e.type === 'bid:outbid').map((e) => e.userId);
  expect(outbid).toEqual([users[0]!.user.id, users[1]!.user.id, users[3]!.user.id]);

  // Only the last one holds money; every refused or outbid bidder has the full 10,000 back.
  const balances = users.map((u) => (app.ctx.db.$client.prepare('select wallet_balance as b from users where id = ?').get(u.user.id) as { b: number }).b);
  expect(balances).toEqual([1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000 - 90_000]);
  expectMoneyInvariant(app);
});

it('a bid that fails inside the batch undoes only itself; the others commit', async () => {
  const { productId, users } = await scene(3);
  // A fault the domain cannot foresee, on one particular amount.
  app.ctx.db.$client.exec(`create trigger fault before insert on bids when new.amount = 77700 begin select raise(abort, 'disk says no'); end`);
  const desk = new BidBatcher({ db: app.ctx.db, now: () => Date.now(), publish: () => {} });

  const settled = await Promise.allSettled([
    desk.place({ userId: users[0]!.user.id, productRef: productId, amount: 50_000 }),
    desk.place({ userId: users[1]!.user.id, productRef: productId, amount: 77_700 }),
    desk.place({ userId: users[2]!.user.id, productRef: productId, amount: 90_000 }),
  ]);

  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  const rows = app.ctx.db.$client.prepare('select user_id as u, amount, status from bids order by id').all();
  expect(rows).toEqual([
    { u: users[0]!.user.id, amount: 50_000, status: 'outbid' },
    { u: users[2]!.user.id, amount: 90_000, status: 'success' },
  ]);
  // The faulty bid moved no money: its bidder's outbid refund of 500 from user 0 is untouched too.
  const balance = (id: number) => (app.ctx.db.$client.prepare('select wallet_balance as b from users where id = ?').get(id) as { b: number }).b;
  expect([balance(users[0]!.user.id), balance(users[1]!.user.id), balance(users[2]!.user.id)]).toEqual([1_000_000, 1_000_000, 910_000]);
  expectMoneyInvariant(app);
});

it('splits a long queue into transactions of at most maxBatch bids, in order', async () => {
  const { productId, users } = await scene(2);
  const published: number[] = [];
  const desk = new BidBatcher({ db: app.ctx.db, now: () => Date.now(), maxBatch: 3, publish: (e) => published.push(e.filter((x) => x.type === 'bid:placed').length) });
  const results = await Promise.all(Array.from({ length: 7 }, (_, i) => desk.place({ userId: users[i % 2]!.user.id, productRef: productId, amount: (100 + i * 10) * 100 })));
  expect(results.every((r) => r.ok)).toBe(true);
  expect(published).toEqual([3, 3, 1]);
  expectMoneyInvariant(app);
});

it('through HTTP, many bids in flight at once give the same result as one at a time', async () => {
  const { productId, users } = await scene(20);
  const responses = await Promise.all(users.map((u, i) => bid(app, u.token, productId, 1_000 + i * 10)));
  // Every request was decided against the bids before it: all accepted, since amounts rise in order.
  expect(responses.map((r) => r.statusCode)).toEqual(users.map(() => 201));
  const leaders = app.ctx.db.$client.prepare(`select count(*) as n, max(amount) as top from bids where status = 'success'`).get();
  expect(leaders).toEqual({ n: 1, top: (1_000 + 19 * 10) * 100 });
  expectMoneyInvariant(app);
});
