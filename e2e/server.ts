/** Starts the real production server (`npm start`'s code path) on a free port for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore, type MoneyAudit, type Store } from '../server/src/db/index.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  cleanup(): void;
}

export async function startServer(env: Record<string, string> = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-e2e-'))): Promise<RunningServer> {
  const port = await freePort();
  let out = '';
  const proc = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(dataDir, 'auction.db'), LOG_LEVEL: 'warn', RATE_LIMIT: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not become healthy in 30 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    proc,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
    cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

// ---------------------------------------------------------------------------------------------------
// The HTTP API and the database file, for the process-level tests (crash, shutdown, backup).

/** A parsed JSON body, as loosely typed as `res.json()` gives it (tests read fields they just asserted). */
type Json = ReturnType<typeof JSON.parse>;

export interface Answer { status: number; body: Json }

/** One API call; the body is parsed JSON (or null). Throws only on a connection error. */
export async function api(url: string, method: string, p: string, body?: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${url}/api${p}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function ok(answer: Promise<Answer>, status: number, what: string): Promise<Json> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
  return a.body;
}

/** Registers and signs in an account through the API; returns its token. */
export async function signUp(url: string, kind: 'user' | 'admin', username: string, password = 'secret1'): Promise<string> {
  const prefix = kind === 'admin' ? '/admin' : '';
  await ok(api(url, 'POST', `${prefix}/register`, { name: `N ${username}`, username, password, mobile_number: '9876543210', role: kind }), 201, `register ${username}`);
  return (await ok(api(url, 'POST', `${prefix}/login`, { username, password, role: kind }), 200, `login ${username}`)).token as string;
}

/** Creates `products` products and an auction over them ending `endsInMs` from now. */
export async function createAuction(url: string, adminToken: string, id: string, products: number, endsInMs: number) {
  const productIds: string[] = [];
  for (let i = 0; i < products; i++) {
    const pid = `${id}-P${i}`;
    await ok(api(url, 'POST', '/admin/product', { id: pid, name: `Lot ${pid}`, description: 'e2e' }, adminToken), 201, `product ${pid}`);
    productIds.push(pid);
  }
  const validUntil = Date.now() + endsInMs;
  await ok(api(url, 'POST', '/admin/auction', { id, name: `Auction ${id}`, valid_until: new Date(validUntil).toISOString(), product_ids: productIds }, adminToken), 201, `auction ${id}`);
  return { auctionId: id, productIds, validUntil };
}

export interface Market {
  adminToken: string;
  auctionId: string;
  productIds: string[];
  /** username and token of each bidder, each with ₹1,00,000 and registered for the auction. */
  bidders: { username: string; token: string }[];
}

/** An admin, an auction of `products` lots open for an hour, and `bidders` funded, registered bidders. */
export async function openMarket(url: string, tag: string, opts: { products: number; bidders: number }): Promise<Market> {
  const adminToken = await signUp(url, 'admin', `${tag}_admin`);
  const { auctionId, productIds } = await createAuction(url, adminToken, `${tag}-A`, opts.products, 3600_000);
  const bidders: Market['bidders'] = [];
  // A few at a time: sign-ups hash passwords (scrypt) on the server's thread pool.
  for (let i = 0; i < opts.bidders; i += 8) {
    bidders.push(...await Promise.all(Array.from({ length: Math.min(8, opts.bidders - i) }, async (_, j) => {
      const username = `${tag}_b${i + j}`;
      const token = await signUp(url, 'user', username);
      await ok(api(url, 'POST', '/wallet/topup', { amount: 100_000 }, token), 200, 'topup');
      await ok(api(url, 'POST', '/auctions/register', { auction_id: auctionId }, token), 200, 'register for auction');
      return { username, token };
    })));
  }
  return { adminToken, auctionId, productIds, bidders };
}

/** Refusals that the server records as a `failed` bid (DESIGN §4). */
export const RECORDED_REFUSALS = new Set(['BID_TOO_LOW', 'INSUFFICIENT_FUNDS', 'NOT_REGISTERED', 'AUCTION_ENDED', 'AUCTION_SETTLED', 'PRODUCT_SOLD', 'ACCOUNT_INACTIVE']);

export interface Storm {
  /** Bids answered 201: id, product, amount in rupees, and when the answer arrived. */
  accepted: { bidId: number; productId: string; amount: number; at: number }[];
  /** Every complete answer: status and error code (if any), and when it arrived. */
  answers: { status: number; code: string | null; at: number }[];
  /** Requests that ended in a connection error (refused, reset, cut off mid-answer). */
  connectionErrors: number;
  /** Answers that are neither a 201 with a bid nor a clean JSON error: each described. */
  bad: string[];
  inFlight: number;
  /** Stops the loops (each ends at its next request); resolves when all have ended. */
  stop(): Promise<Storm>;
  /** Resolves when every loop has ended (a loop ends at its first connection error). */
  done: Promise<Storm>;
}

/**
 * `concurrency` loops, each placing one bid after another as fast as the server answers, round robin
 * over the market's products and bidders, every amount ₹1 above the last one sent for that lot.
 * Storms against several processes of one cluster share `counter`, so their amounts keep rising together.
 */
export function bidStorm(url: string, market: Market, concurrency: number, counter: { seq: number } = { seq: 0 }): Storm {
  let stopped = false;
  const n = market.productIds.length;
  const storm: Storm = {
    accepted: [], answers: [], connectionErrors: 0, bad: [], inFlight: 0,
    stop: async () => { stopped = true; return storm.done; },
    done: Promise.resolve() as unknown as Promise<Storm>,
  };
  const loop = async () => {
    while (!stopped) {
      const i = counter.seq++;
      const productId = market.productIds[i % n]!;
      const amount = 10 + Math.floor(i / n);
      const bidder = market.bidders[i % market.bidders.length]!;
      storm.inFlight++;
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${url}/api/bid`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bidder.token}` },
          body: JSON.stringify({ product_id: productId, bid_amount: amount }),
        });
        text = await res.text();
      } catch {
        storm.connectionErrors++;
        return;
      } finally {
        storm.inFlight--;
      }
      const at = Date.now();
      let body: Json;
      try {
        body = JSON.parse(text);
      } catch {
        storm.bad.push(`${res.status} not JSON: ${text.slice(0, 200)}`);
        continue;
      }
      const code = typeof body?.code === 'string' ? body.code as string : null;
      storm.answers.push({ status: res.status, code, at });
      if (res.status === 201 && typeof body?.bid?.bid_id === 'number' && body.bid.amount === amount) {
        storm.accepted.push({ bidId: body.bid.bid_id, productId, amount, at });
      } else if (res.status === 201 || typeof body?.error !== 'string' || body.message !== body.error || !(res.status < 500 || res.status === 503)) {
        storm.bad.push(`${res.status} ${text.slice(0, 200)}`);
      }
    }
  };
  storm.done = Promise.all(Array.from({ length: concurrency }, loop)).then(() => storm);
  return storm;
}

/** Resolves once `cond()` holds (checked every 10 ms), or throws after `ms`. */
export async function waitFor(cond: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A second connection to a database (a SQLite file or a PostgreSQL URL; the server may be running
 * on it), with the checks every process-level test makes: integrity, the money audit, ledger rows
 * against bids. It opens the store as a server would (so a crashed SQLite file is recovered first).
 */
export interface DbInspector {
  store: Store;
  integrity(): Promise<string>;
  audit(): Promise<MoneyAudit>;
  ledgerMismatches(): Promise<number>;
  bidCountMismatches(): Promise<number>;
  bid(id: number): Promise<{ id: number; productId: string; amount: number; status: string } | undefined>;
  rows<T>(q: string, ...params: (string | number)[]): Promise<T[]>;
  count(q: string, ...params: (string | number)[]): Promise<number>;
  close(): Promise<void>;
}

export async function inspectDb(databaseUrl: string): Promise<DbInspector> {
  const store = await openStore(databaseUrl);
  const rows = <T>(q: string, ...params: (string | number)[]) => store.query<T>(q, params);
  const count = async (q: string, ...params: (string | number)[]) => (await rows<{ n: number }>(q, ...params))[0]?.n ?? 0;
  return {
    store,
    integrity: () => store.integrityCheck(),
    audit: () => store.reads.auditMoney(),
    /**
     * Bids whose ledger rows do not match their status: a placed bid (success, outbid, won) has one
     * `bid` row of its amount, an outbid one also one `refund` of it, a failed one none. (No bid in
     * these tests is cancelled or reinstated, which would add rows.)
     */
    ledgerMismatches: () => count(`
      select count(*) as n from bids b where
        (select count(*) from wallet_transactions t where t.bid_id = b.id and t.type = 'bid' and t.amount = b.amount)
          <> (case when b.status in ('success', 'outbid', 'won') then 1 else 0 end)
        or (select count(*) from wallet_transactions t where t.bid_id = b.id and t.type = 'refund' and t.amount = b.amount)
          <> (case when b.status = 'outbid' then 1 else 0 end)
        or (select count(*) from wallet_transactions t where t.bid_id = b.id)
          <> (case b.status when 'outbid' then 2 when 'failed' then 0 else 1 end)`),
    /** Products in an auction whose cached bid count differs from their bids that did not fail. */
    bidCountMismatches: () => count(`
      select count(*) as n from products p where p.auction_id is not null and p.bid_count <>
        (select count(*) from bids b where b.product_id = p.id and b.auction_id = p.auction_id and b.status <> 'failed')`),
    bid: async (id: number) => (await rows<{ id: number; productId: string; amount: number; status: string }>(
      'select id, product_id as "productId", amount, status from bids where id = ?', id))[0],
    rows,
    count,
    close: () => store.close(),
  };
}

/** Copies a database with its -wal and -shm files (the state a killed process left) into `dir`. */
export function copyDbFiles(file: string, dir: string): string {
  const to = path.join(dir, path.basename(file));
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, to + suffix);
  }
  return to;
}
