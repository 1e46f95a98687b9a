/**
 * PostgreSQL's lot batches decide as the commands do one at a time. A random sequence of bids and
 * buy-nows on one lot (plain bids, maximums, raises of one's own maximum, bids too low, short wallets,
 * a bidder not registered, a deactivated one, buy-now while it is offered and after, soft close near
 * the end, a saver who follows the lot) is handed to the lot's lane all at once, so it is decided in
 * one batch; the same sequence runs on an in-memory SQLite store one command and one transaction at a
 * time. Every answer, every event, and the lot's bids, ledger, wallets, notices, bid count and end must
 * be the same (ids compared by their order), and the money audit must hold.
 *
 * The second property splits the sequence: the first part waits for the lot, which another
 * connection holds, while the rest queue behind it and then join its batch once it holds the lot; a
 * caller whose wallet another transaction still holds waits for the next batch, with everything
 * queued behind it. The outcome must be the same again.
 *
 * LOT_BATCH_RUNS changes the number of sequences (default 100); replay a failure with
 * LOT_BATCH_SEED=<seed> LOT_BATCH_PATH=<path>.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../index.js';
import { freshTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from '../testing.js';
import { sessionIn } from './sessions.testing.js';
import { Commands } from '../../domain/commands.js';
import { EventBus, type DomainEvent } from '../../domain/events.js';
import { prepareBid, prepareBuyNow, topUp } from '../../domain/bidding.js';
import { setUserStatus } from '../../domain/accounts.js';
import { createAuction, createProduct, registerForAuction } from '../../domain/catalogue.js';
import { saveLot } from '../../domain/notices.js';
import type { PostgresLotLanes } from './lot-lanes.js';

const T0 = Date.parse('2026-11-24T00:00:00.000Z');
const RUNS = Number(process.env.LOT_BATCH_RUNS ?? 100);
const replay = process.env.LOT_BATCH_SEED === undefined ? {} : { seed: Number(process.env.LOT_BATCH_SEED), ...(process.env.LOT_BATCH_PATH ? { path: process.env.LOT_BATCH_PATH } : {}) };
const BIDDERS = 5;

type Ask =
  | { t: 'bid'; user: number; amount: number | null; max: number | null }
  | { t: 'buyNow'; user: number };

interface Case {
  lot: { rule: 'flat' | 'ladder'; starting: number; reserve: number | null; buyNow: number | null; softClose: boolean };
  /** Paise each bidder has; bidder 3 is not registered, bidder 4 is deactivated. */
  funds: number[];
  asks: Ask[];
}

const amountArb = fc.oneof(fc.integer({ min: 1, max: 60 }).map((r) => r * 10_000), fc.integer({ min: 1, max: 900_000 }));
const askArb: fc.Arbitrary<Ask> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('bid' as const), user: fc.nat({ max: BIDDERS - 1 }), amount: amountArb, max: fc.constant(null) }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('bid' as const), user: fc.nat({ max: BIDDERS - 1 }), amount: fc.option(amountArb), max: amountArb }).map((a) => ({ ...a, amount: a.amount !== null && a.amount > a.max ? a.max : a.amount })) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('buyNow' as const), user: fc.nat({ max: BIDDERS - 1 }) }) },
);
const caseArb: fc.Arbitrary<Case> = fc.record({
  lot: fc.record({
    rule: fc.constantFrom('flat' as const, 'ladder' as const),
    starting: fc.constantFrom(0, 50_000),
    reserve: fc.constantFrom(null, 300_000),
    buyNow: fc.constantFrom(null, null, 450_000),
    softClose: fc.boolean(),
  }),
  funds: fc.array(fc.constantFrom(200_000, 600_000, 5_000_000), { minLength: BIDDERS, maxLength: BIDDERS }),
  asks: fc.array(askArb, { minLength: 2, maxLength: 16 }),
});

interface Run { store: Store; commands: Commands; events: DomainEvent[][] }

let reachable = true;
let database: TestDatabase;
let batched: Run;
let seq = 0;

function runOn(store: Store): Run {
  const bus = new EventBus();
  const run: Run = { store, commands: new Commands(store, bus), events: [] };
  bus.subscribe((events) => { run.events.push([...events]); });
  return run;
}

beforeAll(async () => {
  database = freshTestDatabase('postgres');
  try {
    batched = runOn(await openStore(database.url));
  } catch (err) {
    if (process.env.REQUIRE_POSTGRES === '1') throw err;
    reachable = false;
    console.warn(`PostgreSQL lot batch tests skipped: ${TEST_POSTGRES_URL} is not reachable (${(err as Error).message})`);
  }
});
afterAll(async () => {
  await batched?.store.close();
  await database?.drop();
});

/** The lot, its auction (ending 30 s after T0 with soft close, else in an hour), the bidders and a saver. */
async function setUp(store: Store, c: Case, k: number) {
  const productId = `LB${k}`;
  const auctionId = `LBA${k}`;
  const users: number[] = [];
  await store.transaction(async (tx) => {
    const admin = await tx.insertAdmin({ username: `lb-admin${k}`, name: 'Admin', mobileNumber: '9876543210', passwordHash: 'x', isOwner: false, now: T0 });
    if (!admin) throw new Error('setup: admin');
    for (let i = 0; i <= BIDDERS; i++) {
      const user = await tx.insertUser({ username: `lb${k}-u${i}`, name: `User ${i}`, mobileNumber: '9876543210', passwordHash: 'x', now: T0 });
      if (!user) throw new Error('setup: user');
      users.push(user.id);
    }
    const made = await createProduct(tx, { adminId: admin.id, input: { id: productId, name: `Lot ${k}`, description: '', startingPrice: c.lot.starting, reservePrice: c.lot.reserve, buyNowPrice: c.lot.buyNow } }, T0);
    if (!made.ok) throw new Error(made.message);
    const validUntil = T0 + (c.lot.softClose ? 30_000 : 3600_000);
    const listed = await createAuction(tx, { adminId: admin.id, input: { id: auctionId, name: `Sale ${k}`, validUntil, productIds: [productId], incrementRule: c.lot.rule, softCloseS: c.lot.softClose ? 120 : 0, maxExtensionS: 600 } }, T0);
    if (!listed.ok) throw new Error(listed.message);
    for (const [i, u] of users.slice(0, BIDDERS).entries()) {
      await topUp(tx, { userId: u, amount: c.funds[i]! }, T0);
      if (i !== 3 && !(await registerForAuction(tx, { userId: u, auctionId }, T0)).ok) throw new Error('setup: register');
    }
    // The last user only saves the lot: soft close and buy-now tell them.
    if (!(await saveLot(tx, { userId: users[BIDDERS]!, productId }, T0)).ok) throw new Error('setup: save');
  });
  await store.transaction((tx) => setUserStatus(tx, { userId: users[4]!, status: 'inactive' }, T0));
  return { productId, auctionId, users };
}

/** Each ask as a command on the lot, at T0 + 1 s + its index (in seconds). */
function work(run: Run, ask: Ask, productId: string, users: number[], i: number) {
  const now = T0 + 1000 + i * 1000;
  const userId = users[ask.user]!;
  return run.commands.onLot({
    productRef: productId, userId, now,
    prepare: (tx) => ask.t === 'bid'
      ? prepareBid(tx, { userId, productRef: productId, amount: ask.amount, max: ask.max }, now)
      : prepareBuyNow(tx, { userId, productId }, now),
  });
}

/** What must be the same on both stores: ids become their order among the lot's bids, users their index. */
async function snapshot(run: Run, productId: string, auctionId: string, users: number[], answers: unknown[]) {
  const q = run.store.query.bind(run.store);
  const bids = await q<{ id: number; user_id: number; amount: number; placed_amount: number | null; max_amount: number | null; status: string; reason: string | null; buy_now: boolean | number; extended_from: number | null; extended_to: number | null }>(
    'select id, user_id, amount, placed_amount, max_amount, status, reason, buy_now, extended_from, extended_to from bids where product_id = ? order by id', [productId]);
  const bidNo = new Map(bids.map((b, i) => [Number(b.id), i]));
  const user = (id: unknown) => users.indexOf(Number(id));
  const bid = (id: unknown) => (id === null || id === undefined ? null : bidNo.get(Number(id)) ?? `?${Number(id)}`);
  const ids = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => {
    if ((key === 'notification' || key === 'transaction') && v && typeof v === 'object') return { ...v, id: '#' };
    if (v instanceof Map) return Object.fromEntries([...v].map(([k2, x]) => [user(k2), x]));
    if (key === 'bidId' || (key === 'id' && typeof v === 'number' && bidNo.has(v))) return bid(v);
    if (key === 'userId' || key === 'bidderId') return user(v);
    if (key === 'notificationId' || key === 'transactionId' || key === 'unread' || key === 'ownerId') return '#';
    return v;
  }));
  const ledger = await q<{ user_id: number; type: string; amount: number; bid_id: number | null; notes: string | null }>(
    'select user_id, type, amount, bid_id, notes from wallet_transactions where product_id = ? order by id', [productId]);
  const wallets = await q<{ id: number; wallet_balance: number }>(`select id, wallet_balance from users where id in (${users.map(() => '?').join(', ')}) order by id`, users);
  const notices = await q<{ user_id: number; kind: string; title: string; body: string; link: string; dedupe: string | null; read_at: number | null }>(
    `select user_id, kind, title, body, link, dedupe, read_at from notifications where user_id in (${users.map(() => '?').join(', ')}) order by user_id, kind, dedupe, title`, users);
  const [product] = await q<{ bid_count: number; version: number; status: string; sold_price: number | null; winner_id: number | null }>(
    'select bid_count, version, status, sold_price, winner_id from products where id = ?', [productId]);
  const [auction] = await q<{ valid_until: number }>('select valid_until from auctions where id = ?', [auctionId]);
  const autoBids = await q<{ bid_id: number; amount: number; status: string }>('select bid_id, amount, status from auto_bids where product_id = ? order by id', [productId]);
  return {
    answers: ids(answers.map((a) => (a && typeof a === 'object' && 'ok' in a && a.ok ? { ...a, events: undefined } : a))),
    events: ids(run.events.flat().filter((e) => 'productId' in e ? e.productId === productId : true)),
    bids: bids.map((b) => ({ ...b, id: bid(b.id), user_id: user(b.user_id), buy_now: Boolean(b.buy_now), amount: Number(b.amount), placed_amount: b.placed_amount === null ? null : Number(b.placed_amount), max_amount: b.max_amount === null ? null : Number(b.max_amount), extended_from: b.extended_from === null ? null : Number(b.extended_from), extended_to: b.extended_to === null ? null : Number(b.extended_to) })),
    ledger: ledger.map((t) => ({ ...t, user_id: user(t.user_id), bid_id: bid(t.bid_id), amount: Number(t.amount) })),
    wallets: wallets.map((w) => Number(w.wallet_balance)),
    notices: notices.map((n) => ({ ...n, user_id: user(n.user_id) })),
    product: product && { ...product, bid_count: Number(product.bid_count), version: Number(product.version), sold_price: product.sold_price === null ? null : Number(product.sold_price), winner_id: product.winner_id === null ? null : user(product.winner_id) },
    auction: auction && Number(auction.valid_until),
    autoBids: autoBids.map((x) => ({ bid_id: bid(x.bid_id), amount: Number(x.amount), status: x.status })),
  };
}

/**
 * The money audit holds on PostgreSQL, and the lot ends as the same commands leave it run one at a time
 * on a fresh in-memory SQLite store (the reference).
 */
async function expectAsOneAtATime(c: Case, k: number, pgRun: Awaited<ReturnType<typeof setUp>>, answers: unknown[]) {
  const audit = await batched.store.reads.auditMoney();
  expect(audit.ok, JSON.stringify(audit)).toBe(true);
  const sqlite = runOn(await openStore(':memory:'));
  try {
    const ref = await setUp(sqlite.store, c, k);
    sqlite.events.length = 0;
    const expected: unknown[] = [];
    for (const [i, ask] of c.asks.entries()) expected.push(await work(sqlite, ask, ref.productId, ref.users, i));
    expect(await snapshot(batched, pgRun.productId, pgRun.auctionId, pgRun.users, answers)).toEqual(await snapshot(sqlite, ref.productId, ref.auctionId, ref.users, expected));
  } finally {
    await sqlite.store.close();
  }
}

describe('lot batches on PostgreSQL decide as one command at a time does', () => {
  it('a random sequence handed in at once ends as it does command by command on SQLite', async (t) => {
    if (!reachable) t.skip();
    await fc.assert(fc.asyncProperty(caseArb, async (c) => {
      const k = ++seq;
      // One batch on PostgreSQL: every command handed to the lane in the same turn.
      const pg = await setUp(batched.store, c, k);
      batched.events.length = 0;
      const answers = await Promise.all(c.asks.map((ask, i) => work(batched, ask, pg.productId, pg.users, i)));
      await expectAsOneAtATime(c, k, pg, answers);
    }), { numRuns: RUNS, ...replay });
    const stats = (batched.store.lots as PostgresLotLanes).stats;
    // Each sequence was one batch (none handed back to run alone).
    expect(stats.largest).toBeGreaterThanOrEqual(2);
    expect(stats.batches).toBe(seq);
  }, 600_000);

  it('commands that queue while a batch waits for the lot join it, in arrival order; behind a wallet held elsewhere, they wait for the next batch', async (t) => {
    if (!reachable) t.skip();
    const stats = (batched.store.lots as PostgresLotLanes).stats;
    let gatheredRuns = 0;
    let heldBackRuns = 0;
    await fc.assert(fc.asyncProperty(caseArb, fc.nat(), fc.option(fc.nat({ max: BIDDERS - 1 })), async (c, at, held) => {
      const k = ++seq;
      const split = 1 + (at % (c.asks.length - 1));
      const first = c.asks.slice(0, split);
      const rest = c.asks.slice(split);
      const pgRun = await setUp(batched.store, c, k);
      batched.events.length = 0;
      // Another transaction holds the lot, and perhaps a bidder's wallet, whose commands come only later.
      const heldUser = held !== null && !first.some((a) => a.user === held) && rest.some((a) => a.user === held) ? pgRun.users[held]! : null;
      const lotHolder = await otherConnection();
      const walletHolder = heldUser === null ? null : await otherConnection();
      try {
        await lotHolder.query('begin');
        await lotHolder.query('select 1 from products where id = $1 for update', [pgRun.productId]);
        if (walletHolder) {
          await walletHolder.query('begin');
          await walletHolder.query('select 1 from users where id = $1 for update', [heldUser]);
        }
        const before = stats.batches;
        const firstAnswers = Promise.all(first.map((ask, i) => work(batched, ask, pgRun.productId, pgRun.users, i)));
        await waitForLockWait(lotHolder);
        const restAnswers = Promise.all(rest.map((ask, i) => work(batched, ask, pgRun.productId, pgRun.users, split + i)));
        await new Promise((r) => setTimeout(r, 5));
        await lotHolder.query('commit');
        const answers = [...await firstAnswers];
        if (walletHolder) await walletHolder.query('commit');
        answers.push(...await restAnswers);
        const batches = stats.batches - before;
        // Everything joined the first batch, unless a held wallet sent its caller's commands on.
        expect(batches).toBe(heldUser === null ? 1 : 2);
        if (heldUser === null) gatheredRuns++;
        else heldBackRuns++;
        await expectAsOneAtATime(c, k, pgRun, answers);
      } finally {
        await lotHolder.end();
        await walletHolder?.end();
      }
    }), { numRuns: Math.max(10, Math.round(RUNS / 2)), ...replay });
    expect(gatheredRuns).toBeGreaterThan(0);
    expect(heldBackRuns).toBeGreaterThan(0);
  }, 600_000);
});

/** A connection of its own in the test's schema, for taking locks by hand. */
const otherConnection = () => sessionIn(database.url);

/** Resolves once some session waits for a lock `holder` holds. */
async function waitForLockWait(holder: pg.Client) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { rows } = await holder.query('select count(*)::int as n from pg_stat_activity where pg_backend_pid() = any (pg_blocking_pids(pid))');
    if ((rows[0] as { n: number }).n > 0) return;
    if (Date.now() > deadline) throw new Error('no batch waited for the lot');
    await new Promise((r) => setTimeout(r, 5));
  }
}
