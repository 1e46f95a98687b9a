/**
 * The real server process under a bid storm, stopped the hard way (SIGKILL: a crash, an OOM kill) and
 * the polite way (SIGTERM: a deploy). What a client was told must be what the database holds.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  RECORDED_REFUSALS, api, bidStorm, copyDbFiles, createAuction, inspectDb, openMarket, startServer, waitFor,
  type DbInspector, type RunningServer, type Storm,
} from './server.js';
import { freshTestDatabase, postgresMissing, TEST_POSTGRES_URL } from '../server/src/db/testing.js';

const pgMissing = await postgresMissing();
// CI sets REQUIRE_POSTGRES=1: there a missing database fails the run instead of skipping this.
if (pgMissing && process.env.REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL is required: ${pgMissing}`);
if (pgMissing) console.warn(`PostgreSQL crash test skipped: ${TEST_POSTGRES_URL} is not reachable (${pgMissing})`);

const CONCURRENCY = 64;
const cleanups: (() => unknown)[] = [];
afterEach(async () => { while (cleanups.length) await cleanups.pop()!(); });

async function start(dataDir?: string): Promise<RunningServer> {
  const server = await startServer({}, dataDir);
  cleanups.push(async () => { await server.stop('SIGKILL'); });
  return server;
}

const dbFile = (server: RunningServer) => path.join(server.dataDir, 'auction.db');

async function poll(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every bid a client was told was placed (201) is there, on its lot, with its amount. */
async function expectAcknowledgedBidsKept(db: DbInspector, storm: Storm) {
  const wrong = [];
  for (const b of storm.accepted) {
    const row = await db.bid(b.bidId);
    if (!row || row.productId !== b.productId || row.amount !== Math.round(b.amount * 100) || !['success', 'outbid', 'won'].includes(row.status)) wrong.push(b);
  }
  expect(wrong, 'acknowledged bids missing or changed').toEqual([]);
}

/** The file is sound and no command is half-applied. */
async function expectConsistent(db: DbInspector) {
  expect(await db.integrity()).toBe('ok');
  const audit = await db.audit();
  expect(audit, JSON.stringify(audit)).toMatchObject({ ok: true, ledgerMismatches: 0, negativeBalances: 0, multipleLeaders: 0 });
  expect(await db.ledgerMismatches(), 'bids whose ledger rows do not match').toBe(0);
  expect(await db.bidCountMismatches(), 'products whose bid count does not match').toBe(0);
}

/**
 * Where a crash test keeps its data: the server's environment, the database as the killed process
 * left it (for SQLite a copy of the file with its WAL, taken before anything reopens it), and the
 * database of a running server.
 */
interface CrashStore {
  env: Record<string, string>;
  crashed(server: RunningServer): string;
  live(server: RunningServer): string;
}

const sqliteCrashStore = (): CrashStore => ({
  env: {},
  crashed: (server) => {
    const crashDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-crash-'));
    cleanups.push(() => fs.rmSync(crashDir, { recursive: true, force: true }));
    return copyDbFiles(dbFile(server), crashDir);
  },
  live: dbFile,
});

function postgresCrashStore(): CrashStore {
  // A durable schema of its own (synchronous_commit on, as in production).
  const database = freshTestDatabase('postgres', undefined, { durable: true });
  cleanups.push(() => database.drop());
  // Several processes would share the key through JWT_SECRET; this one must not write ./data/jwt-secret.
  return {
    env: { DATABASE_URL: database.url, JWT_SECRET: 'crash-test-secret-that-is-long-enough-0123456789' },
    crashed: () => database.url,
    live: () => database.url,
  };
}

/**
 * SIGKILL mid-storm, then a restart after an auction ended while the server was down: every bid a
 * client was told was placed is there, no command is half-applied, the late auction is settled on
 * start, and bidding goes on where the storm left off.
 */
async function killMidStormAndRestart(store: CrashStore, name: string) {
  const first = await startServer(store.env);
  cleanups.push(async () => { await first.stop('SIGKILL'); });
  const market = await openMarket(first.url, name, { products: 4, bidders: 16 });
  // An auction that ends a few seconds from now, i.e. while the server is down, with a leading bid.
  const late = await createAuction(first.url, market.adminToken, `${name}-late`, 1, 8000);
  const winner = market.bidders[0]!;
  expect((await api(first.url, 'POST', '/auctions/register', { auction_id: late.auctionId }, winner.token)).status).toBe(200);
  const lateBid = await api(first.url, 'POST', '/bid', { product_id: late.productIds[0], bid_amount: 777 }, winner.token);
  expect(lateBid.status).toBe(201);

  const storm = bidStorm(first.url, market, CONCURRENCY);
  // 300 accepted bids, or fewer (50 at least) when a loaded machine would otherwise reach the late
  // auction's end before the kill.
  await waitFor(() => storm.accepted.length >= 300 || (storm.accepted.length >= 50 && Date.now() > late.validUntil - 2500), 15_000, '300 accepted bids');
  const inFlight = storm.inFlight;
  const killedAt = Date.now();
  await first.stop('SIGKILL');
  await storm.done;
  expect(inFlight, 'requests in flight at the kill').toBeGreaterThan(0);
  expect(killedAt).toBeLessThan(late.validUntil - 1000);
  expect(storm.bad).toEqual([]);
  expect(storm.answers.filter((a) => a.status >= 500)).toEqual([]);
  // SIGKILL is a process crash: it proves each commit was durable in the store before its 201; that
  // it would survive a power cut rests on synchronous = FULL (SQLite) and synchronous_commit (PostgreSQL).

  const crashed = await inspectDb(store.crashed(first));
  try {
    await expectConsistent(crashed);
    await expectAcknowledgedBidsKept(crashed, storm);
    expect(await crashed.count('select count(*) as n from auctions where id = ? and settled_at is null', late.auctionId)).toBe(1);
  } finally {
    await crashed.close();
  }

  // Back up once the late auction has ended: the scheduler settles it on start.
  await new Promise((r) => setTimeout(r, Math.max(0, late.validUntil + 200 - Date.now())));
  const second = await startServer(store.env, first.dataDir);
  cleanups.push(async () => { await second.stop('SIGKILL'); second.cleanup(); });
  await poll(async () => (await api(second.url, 'GET', `/admin/auction/${late.auctionId}`, undefined, market.adminToken)).body?.status === 'settled', 5000, 'the late auction to be settled');
  const lots = await api(second.url, 'GET', `/admin/auction/${late.auctionId}/products`, undefined, market.adminToken);
  expect(lots.body).toEqual([expect.objectContaining({ id: late.productIds[0], status: 'sold', highest_bid: 777 })]);
  const db = await inspectDb(store.live(second));
  try {
    await expectConsistent(db);
    await expectAcknowledgedBidsKept(db, storm);
    expect((await db.bid(lateBid.body.bid.bid_id))?.status).toBe('won');
  } finally {
    await db.close();
  }
  // And it takes bids again where the storm left off.
  const top = Math.max(...storm.accepted.map((b) => b.amount));
  const again = await api(second.url, 'POST', '/bid', { product_id: market.productIds[0], bid_amount: top + 100 }, market.bidders[4]!.token);
  expect(again.status, JSON.stringify(again.body)).toBe(201);
}

describe('crash safety', () => {
  it('SIGKILL mid-storm: every acknowledged bid survives, the money adds up, and what ended while down is settled on restart', async () => {
    await killMidStormAndRestart(sqliteCrashStore(), 'crash');
  });

  it.skipIf(pgMissing !== null)('the same on PostgreSQL', async () => {
    await killMidStormAndRestart(postgresCrashStore(), 'pgcrash');
  });
});

/**
 * On PostgreSQL the bids queued on one lot are decided together and written by one transaction. This
 * cuts such a batch at the worst moment: every row written, the commit begun but not done. A deferred
 * trigger (it fires inside COMMIT) notes the first bid id it sees in a sequence (sequences are not
 * rolled back) and sleeps there while the test kills the server. Either PostgreSQL notices the client
 * gone and rolls the batch back (`clientCheck`: its sessions check while a statement runs), or the
 * commit completes after the client died: all of the batch or none of it, and nothing of it answered.
 */
async function cutABatchBeforeItsCommit(clientCheck: boolean) {
  const store = postgresCrashStore();
  if (clientCheck) {
    const url = new URL(store.env.DATABASE_URL!);
    url.searchParams.set('options', '-c client_connection_check_interval=50');
    store.env.DATABASE_URL = url.toString();
  }
  const server = await startServer(store.env);
  cleanups.push(async () => { await server.stop('SIGKILL'); });
  // One lot, so the storm's bids queue behind each other and form batches.
  const market = await openMarket(server.url, 'pgcut', { products: 1, bidders: 16 });
  const storm = bidStorm(server.url, market, CONCURRENCY);
  await waitFor(() => storm.accepted.length >= 200, 15_000, '200 accepted bids');

  const db = await inspectDb(store.live(server));
  cleanups.push(() => db.close());
  await db.rows(`create sequence cut_bid`);
  await db.rows(`
    create function cut_before_commit() returns trigger language plpgsql as $$
    begin
      if not (select is_called from cut_bid) then
        perform setval('cut_bid', new.id);
        perform pg_sleep(${clientCheck ? 30 : 5});
      end if;
      return null;
    end $$`);
  await db.rows(`create constraint trigger cut_before_commit after insert on bids deferrable initially deferred
    for each row execute function cut_before_commit()`);
  const stuck = async () => (await db.rows<{ pid: number; query: string }>(
    `select pid, query from pg_stat_activity where wait_event = 'PgSleep' and datname = current_database()`))[0];
  let batch: { pid: number; query: string } | undefined;
  await poll(async () => (batch = await stuck()) !== undefined, 10_000, 'a commit held by the trigger');
  const [{ id: cutBidId } = { id: 0 }] = await db.rows<{ id: number }>(`select last_value as id from cut_bid`);
  const ackedBefore = storm.accepted.length;
  await server.stop('SIGKILL');
  await storm.done;
  // It was a batch of the lot's lane, cut mid-commit, and its bids were never answered.
  expect(batch!.query).toContain('apply_lot_batch');
  expect(storm.accepted.some((b) => b.bidId === cutBidId), 'a bid of the cut batch was acknowledged').toBe(false);
  expect(storm.accepted.length).toBe(ackedBefore);
  expect(storm.bad).toEqual([]);
  await poll(async () => (await stuck()) === undefined, 10_000, 'the cut transaction to end');
  await db.rows(`drop trigger cut_before_commit on bids`);
  const kept = await db.count(`select count(*) as n from bids where id >= ?`, cutBidId);
  if (clientCheck) {
    // Rolled back whole: none of its bids, holds or refunds.
    expect(kept).toBe(0);
    expect(await db.count(`select count(*) as n from wallet_transactions where bid_id >= ?`, cutBidId)).toBe(0);
  } else {
    // Committed whole (the audit below finds any half of it), though no one was told.
    expect(kept).toBeGreaterThan(0);
  }
  await expectConsistent(db);
  await expectAcknowledgedBidsKept(db, storm);

  // Back up, the lot is free and takes the next bid above the last acknowledged one.
  const second = await startServer(store.env, server.dataDir);
  cleanups.push(async () => { await second.stop('SIGKILL'); second.cleanup(); });
  const top = Math.max(...storm.accepted.map((b) => b.amount));
  const again = await api(second.url, 'POST', '/bid', { product_id: market.productIds[0], bid_amount: top + 100 }, market.bidders[4]!.token);
  expect(again.status, JSON.stringify(again.body)).toBe(201);
  expect(again.body.bid.bid_id).toBeGreaterThan(cutBidId);
  await expectConsistent(db);
}

describe('a lot batch cut between its writes and its commit', () => {
  it.skipIf(pgMissing !== null)('SIGKILL while the commit is held: the whole batch is rolled back, nothing of it was acknowledged, the rest is kept', async () => {
    await cutABatchBeforeItsCommit(true);
  });

  it.skipIf(pgMissing !== null)('SIGKILL while the commit is held, which then completes: the whole batch is kept, the money adds up', async () => {
    await cutABatchBeforeItsCommit(false);
  });
});

describe('graceful shutdown under load', () => {
  it('SIGTERM mid-storm: complete answers or connection errors only, every 201 kept, nothing applied unanswered', async () => {
    const first = await start();
    const market = await openMarket(first.url, 'term', { products: 4, bidders: 16 });
    const storm = bidStorm(first.url, market, CONCURRENCY);
    await waitFor(() => storm.accepted.length >= 300, 15_000, '300 accepted bids');
    const inFlight = storm.inFlight;
    const signalledAt = Date.now();
    const code = await first.stop('SIGTERM');
    await storm.done;
    expect(code, first.output()).toBe(0);
    expect(inFlight, 'requests in flight at the signal').toBeGreaterThan(0);
    // Complete answers: a 201 with its bid, or a JSON error `{ error, message }` that is a 4xx or a 503
    // (a 503 may still lack `code`: the KNOWN BUG described at the end of this file).
    expect(storm.bad).toEqual([]);
    const afterSignal = storm.answers.filter((a) => a.at >= signalledAt);
    expect(afterSignal.length, 'answers to requests in flight at the signal').toBeGreaterThan(0);
    expect(storm.answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);

    const second = await start(first.dataDir);
    cleanups.push(() => second.cleanup());
    const db = await inspectDb(dbFile(second));
    try {
      await expectConsistent(db);
      await expectAcknowledgedBidsKept(db, storm);
      // A graceful stop answers whatever it applied: the placed bids are exactly the 201s, and the
      // refusals recorded as failed bids are exactly the recorded-refusal answers.
      const placed = (await db.rows<{ id: number }>("select id from bids where auction_id = ? and status <> 'failed' order by id", market.auctionId)).map((r) => r.id);
      expect(placed).toEqual(storm.accepted.map((b) => b.bidId).sort((a, b) => a - b));
      const failed = await db.count("select count(*) as n from bids where auction_id = ? and status = 'failed'", market.auctionId);
      expect(failed).toBe(storm.answers.filter((a) => a.code !== null && RECORDED_REFUSALS.has(a.code)).length);
    } finally {
      await db.close();
    }
  });
});

/** A raw HTTP/1.1 response: status line, lower-cased headers, body text. */
interface RawResponse { status: number; headers: Record<string, string>; body: string }

function parseResponses(raw: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const lines = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status: Number(lines[0]!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('a request that arrives on a busy keep-alive connection during shutdown', () => {
  // Deterministic: request A's headers arrive before SIGTERM and its body after, so the connection is
  // busy throughout; request B is pipelined behind A's body once the server is closing.
  let server: RunningServer;
  let answers: RawResponse[];
  beforeAll(async () => {
    server = await startServer();
    const body = JSON.stringify({ name: 'Slow', username: 'slow_upload', password: 'secret1', mobile_number: '9876543210' });
    const port = Number(new URL(server.url).port);
    const socket = net.connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d: Buffer) => { raw += d.toString(); });
    const closed = new Promise((r) => socket.once('close', r));
    socket.write(`POST /api/register HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 100));
    const exited = server.stop('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    socket.write(`${body.slice(10)}POST /api/wallet/topup HTTP/1.1\r\nHost: e2e\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    await closed;
    expect(await exited).toBe(0);
    answers = parseResponses(raw);
  });
  afterAll(() => server.cleanup());

  it('gets a complete 503 and the connection is closed; the request begun before the signal completes and is kept', async () => {
    expect(answers.map((a) => a.status)).toEqual([201, 503]);
    const refused = answers[1]!;
    expect(refused.headers.connection).toBe('close');
    const json = JSON.parse(refused.body);
    expect(typeof json.error).toBe('string');
    expect(json.message).toBe(json.error);
    const again = await startServer({}, server.dataDir);
    try {
      expect((await api(again.url, 'POST', '/login', { username: 'slow_upload', password: 'secret1' })).status).toBe(200);
    } finally {
      await again.stop();
    }
  });

  // A closing server answers in the API's error shape, `{ error, message, code }` (app.ts: return503OnClosing off, its own hook).
  it('answers it with the API\'s error shape: code UNAVAILABLE and Retry-After', () => {
    const refused = answers[1]!;
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'UNAVAILABLE' });
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
