/** Starts the real production server (`npm start`'s code path) on a free port for end-to-end tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnServer, type ServerProcess } from '../scripts/lib/server-harness.js';

export { ROOT, freePort, inspectDb, type DbInspector } from '../scripts/lib/server-harness.js';

export interface RunningServer extends ServerProcess {
  dataDir: string;
  cleanup(): void;
}

/**
 * `scripts/start.mjs` on a SQLite file `auction.db` in `dataDir` (a fresh temporary folder by default),
 * with `env` on top. Soft close is off by default (SOFT_CLOSE_S=0): these tests bid on auctions ending
 * seconds later and expect them to end then; the bidding journey turns it on per auction. Passwords are
 * hashed at scrypt cost 2^10 instead of 2^14 (as the server tests do): the browser signs in often, and
 * the cost is a setting, not behaviour.
 */
export async function startServer(env: Record<string, string> = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-e2e-'))): Promise<RunningServer> {
  const server = await spawnServer({ args: ['scripts/start.mjs'], env: { DATABASE_URL: path.join(dataDir, 'auction.db'), SOFT_CLOSE_S: '0', PASSWORD_HASH_COST: '10', ...env } });
  return { ...server, dataDir, cleanup: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
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

/** Refusals that the server records as a `failed` bid (docs/money.md#bid-statuses). */
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

/** Copies a database with its -wal and -shm files (the state a killed process left) into `dir`. */
export function copyDbFiles(file: string, dir: string): string {
  const to = path.join(dir, path.basename(file));
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, to + suffix);
  }
  return to;
}
