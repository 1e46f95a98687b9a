/**
 * Group commit on the SQLite store: the units of work of one event-loop turn run in arrival order,
 * each in its own savepoint, in ONE transaction; callers learn their outcome, and events go out,
 * only after that commit.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { placeBid } from '../../domain/bidding.js';
import { Commands } from '../../domain/commands.js';
import { EventBus, type DomainEvent } from '../../domain/events.js';
import { balanceOf, bid, createAuction, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, sqliteConnection } from '../../test/helpers.js';
import { SqliteStore } from './store.js';

let app: App;
let store: SqliteStore;
beforeEach(async () => {
  app = await makeApp({ databaseUrl: ':memory:' });
  store = app.ctx.store as SqliteStore;
});
afterEach(async () => { await app.close(); });

async function scene(bidders: number) {
  const admin = await signUpAdmin(app);
  const { auctionId, productIds: [productId] } = await createAuction(app, admin.token);
  const users = [];
  for (let i = 0; i < bidders; i++) users.push(await richBidder(app, 10_000, [auctionId]));
  return { productId: productId!, users };
}

const balance = (id: number) => (sqliteConnection(app).prepare('select wallet_balance as b from users where id = ?').get(id) as { b: number }).b;

it('decides the bids of one turn in arrival order, in one transaction, and publishes after the commit', async () => {
  const { productId, users } = await scene(6);
  const bus = new EventBus();
  const commands = new Commands(store, bus);
  const published: { events: DomainEvent[]; committedHighest: number }[] = [];
  // A listener reads through a second connection-free path: what it sees must already be committed.
  bus.subscribe((events) => {
    const row = sqliteConnection(app).prepare(`select coalesce(max(amount), 0) as m from bids where status = 'success'`).get() as { m: number };
    published.push({ events: [...events], committedHighest: row.m });
  });

  // Sent in one turn and decided in arrival order: 600 → 700 → 650 (too low) → 800 → 800 (too low) → 900.
  const amounts = [600, 700, 650, 800, 800, 900];
  const before = { ...store.stats };
  const results = await Promise.all(amounts.map((rupees, i) =>
    commands.run((tx) => placeBid(tx, { userId: users[i]!.user.id, productRef: productId, amount: rupees * 100 }, Date.now()))));

  expect(results.map((r) => (r.ok ? 'ok' : r.code))).toEqual(['ok', 'ok', 'BID_TOO_LOW', 'ok', 'BID_TOO_LOW', 'ok']);
  // One transaction for the whole batch.
  expect(store.stats.transactions - before.transactions).toBe(1);
  expect(store.stats.units - before.units).toBe(amounts.length);
  // Events per command, in commit order, all published once the batch had committed (the last bid is visible to every listener).
  const placed = published.flatMap((p) => p.events).filter((e) => e.type === 'bid:placed').map((e) => (e.type === 'bid:placed' ? e.highest : 0));
  expect(placed).toEqual([60_000, 70_000, 80_000, 90_000]);
  expect(published.every((p) => p.committedHighest === 90_000)).toBe(true);
  const outbid = published.flatMap((p) => p.events).filter((e) => e.type === 'bid:outbid').map((e) => e.userId);
  expect(outbid).toEqual([users[0]!.user.id, users[1]!.user.id, users[3]!.user.id]);

  // Only the last one holds money; every refused or outbid bidder has the full 10,000 back.
  expect(users.map((u) => balance(u.user.id))).toEqual([1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000 - 90_000]);
  await expectMoneyInvariant(app);
});

it('a unit of work that fails inside the batch undoes only itself; the others commit', async () => {
  const { productId, users } = await scene(3);
  // A fault the domain cannot foresee, on one particular amount.
  sqliteConnection(app).exec(`create trigger fault before insert on bids when new.amount = 77700 begin select raise(abort, 'disk says no'); end`);
  const place = (i: number, amount: number) => store.transaction((tx) => placeBid(tx, { userId: users[i]!.user.id, productRef: productId, amount }, Date.now()));

  const settled = await Promise.allSettled([place(0, 50_000), place(1, 77_700), place(2, 90_000)]);

  expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  const rows = sqliteConnection(app).prepare('select user_id as u, amount, status from bids order by id').all();
  expect(rows).toEqual([
    { u: users[0]!.user.id, amount: 50_000, status: 'outbid' },
    { u: users[2]!.user.id, amount: 90_000, status: 'success' },
  ]);
  // The faulty bid moved no money: the refund it would have given user 0 was undone with it.
  expect([balance(users[0]!.user.id), balance(users[1]!.user.id), balance(users[2]!.user.id)]).toEqual([1_000_000, 1_000_000, 910_000]);
  await expectMoneyInvariant(app);
});

it('a lone unit of work that throws rolls back whole, and the store goes on', async () => {
  const { productId, users } = await scene(1);
  sqliteConnection(app).exec(`create trigger fault before insert on wallet_transactions when new.amount = 77700 begin select raise(abort, 'disk says no'); end`);
  await expect(store.transaction((tx) => placeBid(tx, { userId: users[0]!.user.id, productRef: productId, amount: 77_700 }, Date.now()))).rejects.toThrow(/disk says no/);
  expect(sqliteConnection(app).prepare('select count(*) as n from bids').get()).toEqual({ n: 0 });
  expect(sqliteConnection(app).inTransaction).toBe(false);
  expect((await bid(app, users[0]!.token, productId, 100)).statusCode).toBe(201);
  await expectMoneyInvariant(app);
});

it('splits a long queue into transactions of at most maxBatch units, in order', async () => {
  const small = new SqliteStore(null, 3);
  try {
    await small.transaction(async (tx) => ({ user: await tx.insertUser({ username: 'a', name: 'A', mobileNumber: '9876543210', passwordHash: 'x', now: 0 }) }));
    const results = await Promise.all(Array.from({ length: 7 }, (_, i) =>
      small.transaction(async (tx) => (await tx.apply({ moves: [{ userId: 1, type: 'topup', amount: 100 + i }] }, i)).balances.get(1))));
    expect(small.stats.transactions).toBe(1 + 3);
    // In order: each top-up saw every one before it.
    expect(results).toEqual([100, 201, 303, 406, 510, 615, 721]);
  } finally {
    await small.close();
  }
});

it('reads that arrive while a batch is open wait for its commit: they never see uncommitted data', async () => {
  const { productId, users } = await scene(1);
  let seenInside: number | null = null;
  const reads: Promise<void>[] = [];
  await store.transaction(async (tx) => {
    await tx.apply({ moves: [{ userId: users[0]!.user.id, type: 'topup', amount: 500 }] }, Date.now());
    // Another request's read, started while this transaction is open (not awaited here: a unit of
    // work that awaited a store read would wait for its own commit):
    reads.push(app.ctx.reads.walletBalance(users[0]!.user.id).then((b) => { seenInside = b; }));
    await Promise.resolve();
    expect(seenInside).toBeNull();
  });
  await Promise.all(reads);
  expect(seenInside).toBe(1_000_000 + 500);
  expect((await bid(app, users[0]!.token, productId, 100)).statusCode).toBe(201);
});

it('through HTTP, many bids in flight at once give the same result as one at a time', async () => {
  const { productId, users } = await scene(20);
  // Every session checked just before, so that each request takes the same path to the queue (one
  // whose account check missed the session cache would reach it a few microtasks later than the rest:
  // inject sends all twenty in one tick, where a real socket's requests arrive one I/O callback each).
  for (const u of users) await balanceOf(app, u.token);
  const responses = await Promise.all(users.map((u, i) => bid(app, u.token, productId, 1_000 + i * 10)));
  // Every request was decided against the bids before it: all accepted, since amounts rise in order.
  expect(responses.map((r) => r.statusCode)).toEqual(users.map(() => 201));
  const leaders = sqliteConnection(app).prepare(`select count(*) as n, max(amount) as top from bids where status = 'success'`).get();
  expect(leaders).toEqual({ n: 1, top: (1_000 + 19 * 10) * 100 });
  await expectMoneyInvariant(app);
});
