/**
 * Concurrency over real HTTP (docs/money.md#one-transaction-per-change): a listening server, global fetch, many requests in flight at
 * once. After every scenario the money must be right to the paisa: Σ topups = Σ balances + Σ held +
 * Σ paid, per user as well as in total, every bid's ledger nets to its hold, every accepted bid was at
 * least ₹1 above the one it beat, and no response was a 5xx.
 *
 * The random amounts come from a seeded generator; a failure message names the seed. Re-run one with
 * CONCURRENCY_SEED=<seed>; CONCURRENCY_STATS=1 prints request counts and latencies per scenario;
 * CONCURRENCY_DB=file runs every scenario on a WAL file database instead of :memory:.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { testStoreKind } from '../db/testing.js';
import { expectMoneyInvariant, makeApp, sqlRow, sqlRows, tempDir, uniqueName } from '../test/helpers.js';

const SEED = Number(process.env.CONCURRENCY_SEED ?? Date.now() % 2 ** 31);
const STATS = process.env.CONCURRENCY_STATS === '1';
/**
 * CONCURRENCY_DB=file runs on a WAL file database (synchronous=FULL, as in production) instead of
 * :memory:; it means nothing when TEST_STORE=postgres, where every scenario gets a fresh schema.
 */
const FILE_DB = process.env.CONCURRENCY_DB === 'file' && testStoreKind === 'sqlite';

/** mulberry32: small, fast, seedable. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const toPaise = (rupees: number) => Math.round(rupees * 100);
const ctx = (what: string) => `${what} (seed ${SEED}; re-run with CONCURRENCY_SEED=${SEED})`;

/** What the tests read from a response body; each test checks the status before it reads. */
interface ApiBody { code: string; error: string; bid: { bid_id: number }; highest_bid: number; wallet_balance: number }
interface SettleBody { code: string; sold: { product_id: string; amount: number }[]; unsold: { id: string; reason: string }[] }
interface Res<T = ApiBody> { status: number; body: T; ms: number; method: string; path: string }
interface Account { id: number; username: string; token: string }

let app: App;
let base: string;
/** Every response of the file, for the 5xx check and the latency figures. */
const log: Res<unknown>[] = [];

async function http<T = ApiBody>(method: string, path: string, body?: unknown, token?: string): Promise<Res<T>> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : null; } catch { /* keep the text */ }
  const r: Res<T> = { status: res.status, body: parsed as T, ms, method, path };
  log.push(r);
  return r;
}

async function must<T = ApiBody>(status: number, p: Promise<Res<T>>): Promise<T> {
  const r = await p;
  expect(r.status, `${r.method} ${r.path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r.body;
}

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size) {
    out.push(...await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j))));
  }
  return out;
}

/** A bidder through the real routes: register, log in, top up `rupees`, register for `auctions`. */
async function newUser(rupees: number, auctionIds: string[] = []): Promise<Account> {
  const username = uniqueName('cu');
  await must(201, http('POST', '/api/register', { name: `Bidder ${username}`, username, password: 'secret1', mobile_number: '9876543210' }));
  const { token, user } = await must<{ token: string; user: { id: number } }>(200, http('POST', '/api/login', { username, password: 'secret1' }));
  for (let left = rupees; left > 0; left -= 100_000) {
    await must(200, http('POST', '/api/wallet/topup', { amount: Math.max(10, Math.min(left, 100_000)) }, token));
  }
  await Promise.all(auctionIds.map((auction_id) => must(200, http('POST', '/api/auctions/register', { auction_id }, token))));
  return { id: user.id, username, token };
}

async function newAdmin(): Promise<Account> {
  const username = uniqueName('ca');
  await must(201, http('POST', '/api/admin/register', { name: `Admin ${username}`, username, password: 'secret1', mobile_number: '9876543210', role: 'admin' }));
  const { token, admin } = await must<{ token: string; admin: { id: number } }>(200, http('POST', '/api/admin/login', { username, password: 'secret1', role: 'admin' }));
  return { id: admin.id, username, token };
}

/** A fresh auction (ending in two hours) over `count` fresh products. */
async function newAuction(admin: Account, count: number) {
  const prefix = uniqueName('CP');
  const productIds = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  await Promise.all(productIds.map((id) => must(201, http('POST', '/api/admin/product', { id, name: `Product ${id}`, description: `About ${id}` }, admin.token))));
  const auctionId = uniqueName('CA');
  const valid_until = new Date(Date.now() + 2 * 3_600_000).toISOString();
  await must(201, http('POST', '/api/admin/auction', { id: auctionId, name: `Auction ${auctionId}`, valid_until, product_ids: productIds }, admin.token));
  return { auctionId, productIds };
}

const bid = (u: Account, productId: string, rupees: number) => http('POST', '/api/bid', { product_id: productId, bid_amount: rupees }, u.token);

// ---- reading the store directly -------------------------------------------------------------------

interface BidRow { id: number; user_id: number; product_id: string; auction_id: string; amount: number; status: string; reason: string | null; created_at: number }
type P = string | number | boolean | null;
const rows = <T>(sql: string, ...params: P[]) => sqlRows<T>(app, sql, ...params);
const row = <T>(sql: string, ...params: P[]) => sqlRow<T>(app, sql, ...params);
const bidsOf = (productId: string) => rows<BidRow>('select * from bids where product_id = ? order by id', productId);

/**
 * Everything the invariant promises, and more: the audit of helpers.ts; per user, balance = topups −
 * holds − payments; per bid, the ledger nets to its hold (success, won) or to nothing (any other
 * status, and a failed bid has no ledger row at all); no response so far was a 5xx.
 */
async function expectMoneyRight() {
  const audit = await expectMoneyInvariant(app);
  const perUser = await rows<{ id: number; balance: number; topups: number; held: number }>(`
    select u.id, u.wallet_balance as balance,
      (select coalesce(sum(amount), 0) from wallet_transactions t where t.user_id = u.id and t.type = 'topup') as topups,
      (select coalesce(sum(amount), 0) from bids b where b.user_id = u.id and b.status in ('success', 'won')) as held
    from users u`);
  for (const u of perUser) expect(u.balance, ctx(`user ${u.id}: balance = topups − holds − payments`)).toBe(u.topups - u.held);
  const perBid = await rows<{ id: number; status: string; amount: number; net: number; n: number }>(`
    select b.id, b.status, b.amount,
      coalesce(sum(case t.type when 'bid' then t.amount when 'refund' then -t.amount else 0 end), 0) as net, count(t.id) as n
    from bids b left join wallet_transactions t on t.bid_id = b.id group by b.id, b.status, b.amount`);
  for (const b of perBid) {
    const expected = b.status === 'success' || b.status === 'won' ? b.amount : 0;
    expect(b.net, ctx(`bid ${b.id} (${b.status}, ${b.amount} paise): ledger net`)).toBe(expected);
    if (b.status === 'failed') expect(b.n, ctx(`failed bid ${b.id} has no ledger rows`)).toBe(0);
  }
  const serverErrors = log.filter((r) => r.status >= 500);
  expect(serverErrors.map((r) => `${r.method} ${r.path} → ${r.status} ${JSON.stringify(r.body)}`), ctx('no 5xx')).toEqual([]);
  return audit;
}

/** GET /highest-bid equals the amount of the product's leading (or winning) bid, 0 without one. */
async function expectHighestMatchesStore(productIds: string[], token: string) {
  for (const productId of productIds) {
    const leader = await row<{ amount: number }>(`select amount from bids where product_id = ? and status in ('success', 'won')`, productId);
    const { highest_bid } = await must<{ highest_bid: number }>(200, http('GET', `/api/highest-bid?product_key=${encodeURIComponent(productId)}`, undefined, token));
    expect(toPaise(highest_bid), ctx(`highest bid of ${productId}`)).toBe(leader?.amount ?? 0);
  }
}

/**
 * Accepted bids on one product form a chain: in the order the store accepted them (bid id), each is
 * at least ₹1 above the one before, and every one but the last has been released.
 */
async function expectAcceptedChain(productId: string) {
  const accepted = (await bidsOf(productId)).filter((b) => b.status !== 'failed');
  for (let i = 1; i < accepted.length; i++) {
    expect(accepted[i]!.amount - accepted[i - 1]!.amount, ctx(`bid ${accepted[i]!.id} on ${productId} beat ${accepted[i - 1]!.id} by ≥ ₹1`)).toBeGreaterThanOrEqual(100);
  }
  accepted.slice(0, -1).forEach((b) => expect(b.status, ctx(`bid ${b.id} on ${productId} was beaten`)).toBe('outbid'));
  return accepted;
}

function stats(name: string, since: number) {
  if (!STATS) return;
  const ms = log.slice(since).map((r) => r.ms).sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]?.toFixed(1);
  const codes: Record<string, number> = {};
  for (const r of log.slice(since)) {
    const key = `${r.status}${r.status >= 400 ? ` ${(r.body as { code?: string } | null)?.code ?? ''}` : ''}`;
    codes[key] = (codes[key] ?? 0) + 1;
  }
  console.info(`[concurrency] ${name}: ${ms.length} requests, p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms, max ${ms.at(-1)?.toFixed(1)} ms`, codes);
}

// ---- the scenarios ----------------------------------------------------------------------------------

let admin: Account;

// Each scenario gets its own server and store, so that one broken scenario does not fail the next.
let cleanup: (() => void) | undefined;
beforeEach(async () => {
  const dir = FILE_DB ? tempDir() : undefined;
  cleanup = dir?.cleanup;
  // Fifty bidders, all from 127.0.0.1 here, a thousand requests at once: no cap per address (docs/deploy.md).
  app = await makeApp({ maxConnectionsPerIp: 0, ...(dir ? { databaseUrl: `${dir.dir}/auction.db` } : {}) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  log.length = 0;
  admin = await newAdmin();
});

afterEach(async () => {
  await app?.close();
  cleanup?.();
});

/** `count` bidders with ₹500–₹20,000 each (so some bids cannot be paid), registered for `auctionId`. */
function crowd(count: number, auctionId: string) {
  // scrypt (~50 ms a hash) runs on libuv's pool: parallel batches, not all at once nor one by one.
  return inBatches(count, 10, () => newUser(int(5, 200) * 100, [auctionId]));
}

describe('money under concurrent HTTP requests', () => {
  it('(a) 50 users fire 1,000 bids at 3 products at once: every accepted bid beat the last by ≥ ₹1, money exact', async () => {
    const { auctionId, productIds } = await newAuction(admin, 3);
    const users = await crowd(50, auctionId);
    const since = log.length;

    // Increasing-ish: the amount grows with the request's index, with noise both ways and odd paise.
    const planned = Array.from({ length: 1000 }, (_, i) => ({
      user: pick(users), productId: pick(productIds), rupees: Math.max(1, Math.round((20 + i * 6 + int(-150, 150)) * 100 + int(0, 99)) / 100),
    }));
    const balanceReads: Promise<Res<{ wallet_balance: number }>>[] = [];
    const results = await Promise.all(planned.map((p, i) => {
      if (i % 50 === 0) balanceReads.push(http('POST', '/api/wallet', {}, pick(users).token));
      return bid(p.user, p.productId, p.rupees);
    }));
    for (const r of await Promise.all(balanceReads)) {
      expect(r.status, ctx(`a balance read mid-storm: ${JSON.stringify(r.body)}`)).toBe(200);
      expect(r.body.wallet_balance, ctx('a balance read mid-storm')).toBeGreaterThanOrEqual(0);
    }

    const byCode: Record<string, number> = {};
    results.forEach((r, i) => {
      const key = r.status === 201 ? '201' : `${r.status} ${(r.body as { code?: string }).code}`;
      byCode[key] = (byCode[key] ?? 0) + 1;
      expect(['201', '409 BID_TOO_LOW', '402 INSUFFICIENT_FUNDS'], ctx(`bid #${i}: ${JSON.stringify(r.body)}`)).toContain(key);
      if (r.status === 201) {
        expect(toPaise(r.body.highest_bid), ctx(`bid #${i} is the new highest`)).toBe(toPaise(planned[i]!.rupees));
        expect(r.body.wallet_balance).toBeGreaterThanOrEqual(0);
      }
    });
    expect(byCode['201'] ?? 0, ctx('some bids were accepted')).toBeGreaterThan(0);

    // Every request is one bid row: accepted ones are success/outbid, refused ones are failed.
    const all = (await Promise.all(productIds.map(bidsOf))).flat();
    expect(all.length, ctx('one bid row per request')).toBe(1000);
    expect(all.filter((b) => b.status === 'failed').length).toBe(1000 - (byCode['201'] ?? 0));
    const acceptedIds = new Set(results.filter((r) => r.status === 201).map((r) => r.body.bid.bid_id));
    for (const b of all) expect(b.status === 'failed', ctx(`bid ${b.id} failed iff its response was an error`)).toBe(!acceptedIds.has(b.id));
    for (const productId of productIds) {
      const chain = await expectAcceptedChain(productId);
      const leaders = chain.filter((b) => b.status === 'success');
      expect(leaders.length, ctx(`${productId} has exactly one leader`)).toBe(chain.length > 0 ? 1 : 0);
    }
    await expectHighestMatchesStore(productIds, users[0]!.token);
    // The API's balance is the store's balance.
    for (const u of users.slice(0, 10)) {
      const { wallet_balance } = await must<{ wallet_balance: number }>(200, http('POST', '/api/wallet', {}, u.token));
      expect(toPaise(wallet_balance)).toBe((await row<{ b: number }>('select wallet_balance as b from users where id = ?', u.id))!.b);
    }
    await expectMoneyRight();
    stats('(a) 1,000 bids', since);
  }, 60_000);

  it('(b) 10 users send the same amount at once on a fresh product: exactly one 201, nine 409 BID_TOO_LOW', async () => {
    const { auctionId, productIds: [p] } = await newAuction(admin, 1);
    const ten = await inBatches(10, 10, () => newUser(2_000, [auctionId]));
    const since = log.length;
    for (const rupees of [500, 750.25, 1_000]) {
      const results = await Promise.all(ten.map((u) => bid(u, p!, rupees)));
      const accepted = results.filter((r) => r.status === 201);
      expect(accepted.length, ctx(`exactly one ₹${rupees} bid is accepted`)).toBe(1);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused.map((r) => [r.status, r.body.code]), ctx('the others are too low')).toEqual(Array.from({ length: 9 }, () => [409, 'BID_TOO_LOW']));
      const leader = (await bidsOf(p!)).filter((b) => b.status === 'success');
      expect(leader.map((b) => [b.id, b.amount]), ctx('the one accepted bid leads')).toEqual([[accepted[0]!.body.bid.bid_id, toPaise(rupees)]]);
    }
    await expectAcceptedChain(p!);
    // Losers are whole again; only the leader's ₹1,000 is held.
    const balances = (await Promise.all(ten.map(async (u) => (await row<{ b: number }>('select wallet_balance as b from users where id = ?', u.id))!.b))).sort((a, b) => a - b);
    expect(balances, ctx('one hold of ₹1,000, everyone else whole')).toEqual([100_000, ...Array.from({ length: 9 }, () => 200_000)]);
    await expectHighestMatchesStore([p!], ten[0]!.token);
    await expectMoneyRight();
    stats('(b) same amount ×10 ×3 rounds', since);
  });

  it('(c) the same cancel sent twice at once: one 200, one 409 BID_NOT_ACTIVE, exactly one refund, one reinstatement', async () => {
    const pairs = 6;
    const { auctionId, productIds } = await newAuction(admin, pairs);
    const [asha, ravi] = await Promise.all([newUser(50_000, [auctionId]), newUser(50_000, [auctionId])]);
    // On each product Ravi bids first (₹100 + i) and Asha beats him (₹200 + i): cancelling Asha's bid reinstates Ravi's.
    const leading: number[] = [];
    for (const [i, p] of productIds.entries()) {
      await must(201, bid(ravi, p, 100 + i));
      leading.push((await must<{ bid: { bid_id: number } }>(201, bid(asha, p, 200 + i))).bid.bid_id);
    }
    const since = log.length;
    const results = await Promise.all(leading.flatMap((bid_id) => [
      http('POST', '/api/rollback-bid', { bid_id }, asha.token),
      http('POST', '/api/rollback-bid', { bid_id }, asha.token),
    ]));
    for (const [i, p] of productIds.entries()) {
      const pair = [results[2 * i]!, results[2 * i + 1]!];
      const outcome = pair.map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body.code}`)).sort();
      expect(outcome, ctx(`the two cancels of bid ${leading[i]}`)).toEqual(['200', '409 BID_NOT_ACTIVE']);
      const ok = pair.find((r) => r.status === 200)!;
      expect(toPaise(ok.body.highest_bid), ctx('Ravi’s bid leads again')).toBe(toPaise(100 + i));

      const ledger = await rows<{ type: string; amount: number; bid_id: number }>('select type, amount, bid_id from wallet_transactions where product_id = ? order by id', p);
      const mine = ledger.filter((t) => t.bid_id === leading[i]);
      expect(mine.map((t) => [t.type, t.amount]), ctx(`ledger of bid ${leading[i]}: one hold, one refund`)).toEqual([['bid', toPaise(200 + i)], ['refund', toPaise(200 + i)]]);
      const bids = await bidsOf(p);
      const ravis = bids.find((b) => b.user_id === ravi.id)!;
      expect(bids.map((b) => b.status)).toEqual(['success', 'rolledback']);
      // Ravi: held, released when outbid, held again once on reinstatement.
      expect(ledger.filter((t) => t.bid_id === ravis.id).map((t) => t.type), ctx(`ledger of Ravi’s bid ${ravis.id}`)).toEqual(['bid', 'refund', 'bid']);
    }
    await expectHighestMatchesStore(productIds, asha.token);
    await expectMoneyRight();
    stats('(c) double cancels', since);
  });

  it('(d) settle while 200 bids are in flight: one winner per sold product at its sold price, nothing accepted after', async () => {
    const { auctionId, productIds } = await newAuction(admin, 4);
    const bidders = await crowd(20, auctionId);
    // One product starts with a leader, one never gets a bid (it must go back to unassigned).
    const quiet = productIds[3]!;
    const opener = await newUser(10, [auctionId]);
    await must(201, bid(opener, productIds[0]!, 10));
    const since = log.length;

    // All 200 bids go out at once; the settles go out when the 60th answer is back, so that bids land
    // before, between and after them (fired together, a bodiless settle tends to overtake every bid).
    let answered = 0;
    let fireSettles!: () => void;
    const settlesFired = new Promise<void>((resolve) => { fireSettles = resolve; });
    const inFlight = Array.from({ length: 200 }, (_, i) => bid(pick(bidders), pick(productIds.slice(0, 3)), Math.max(1, Math.round((20 + i * 3 + int(-40, 40)) * 100 + int(0, 99)) / 100))
      .then((r) => { if (++answered === 60) fireSettles(); return r; }));
    // Two settles at once, mid-storm: one wins, the other is 409 and changes nothing.
    const settles = settlesFired.then(() => Promise.all([
      http<SettleBody>('POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token),
      http<SettleBody>('POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token),
    ]));
    const [results, settled] = await Promise.all([Promise.all(inFlight), settles]);
    const settleOutcomes = settled.map((r) => (r.status === 200 ? '200' : `${r.status} ${r.body.code}`)).sort();
    expect(settleOutcomes, ctx('two concurrent settles')).toEqual(['200', '409 AUCTION_SETTLED']);
    const sold = settled.find((r) => r.status === 200)!.body;

    const auction = (await row<{ settled_at: number; valid_until: number }>('select settled_at, valid_until from auctions where id = ?', auctionId))!;
    expect(auction.settled_at).not.toBeNull();
    expect(auction.valid_until).toBeLessThanOrEqual(auction.settled_at);
    const allowedAfter = ['409 AUCTION_SETTLED', '409 PRODUCT_SOLD', '409 PRODUCT_NOT_AVAILABLE', '409 AUCTION_ENDED', '409 BID_TOO_LOW', '402 INSUFFICIENT_FUNDS'];
    for (const r of results) {
      if (r.status === 201) {
        const stored = (await row<BidRow>('select * from bids where id = ?', r.body.bid.bid_id))!;
        expect(['won', 'outbid'], ctx(`accepted bid ${stored.id} ended as won or outbid`)).toContain(stored.status);
        expect(stored.created_at, ctx(`bid ${stored.id} was accepted before the settlement`)).toBeLessThanOrEqual(auction.settled_at);
      } else {
        expect(allowedAfter, ctx(JSON.stringify(r.body))).toContain(`${r.status} ${r.body.code}`);
      }
    }
    // No bid row of this auction was accepted after the settlement, none still leads.
    const mine = await rows<BidRow>('select * from bids where auction_id = ? order by id', auctionId);
    expect(mine.filter((b) => b.status === 'success').map((b) => b.id), ctx('no bid leads after settlement')).toEqual([]);
    expect(mine.filter((b) => b.status !== 'failed' && b.created_at > auction.settled_at).map((b) => b.id), ctx('nothing accepted after settlement')).toEqual([]);

    const listed = await must<{ id: string; status: string; highest_bid: number; auction_id: string | null }[]>(200, http('GET', `/api/auctions/${auctionId}/products`, undefined, admin.token));
    for (const productId of productIds) {
      const bids = await bidsOf(productId);
      const live = bids.filter((b) => b.status === 'success' || b.status === 'won');
      expect(live.length, ctx(`${productId}: at most one non-refunded bid`)).toBeLessThanOrEqual(1);
      const product = (await row<{ status: string; sold_price: number | null; winner_id: number | null; auction_id: string | null }>('select status, sold_price, winner_id, auction_id from products where id = ?', productId))!;
      const won = bids.filter((b) => b.status === 'won');
      if (product.status === 'sold') {
        expect(won.length, ctx(`${productId} sold: exactly one won bid`)).toBe(1);
        expect(product.sold_price, ctx(`${productId}: won amount = sold price`)).toBe(won[0]!.amount);
        expect(product.winner_id).toBe(won[0]!.user_id);
        expect(product.auction_id).toBe(auctionId);
        // The winner is the top of the accepted chain.
        expect((await expectAcceptedChain(productId)).at(-1)!.id).toBe(won[0]!.id);
        const shown = listed.find((l) => l.id === productId);
        expect(shown, ctx(`${productId} listed as sold at its price`)).toMatchObject({ status: 'sold' });
        expect(toPaise(shown!.highest_bid)).toBe(won[0]!.amount);
        expect(sold.sold.find((s) => s.product_id === productId)?.amount).toBe(won[0]!.amount / 100);
      } else {
        expect(won.length, ctx(`${productId} unsold: no won bid`)).toBe(0);
        expect(live.length).toBe(0);
        expect(product.auction_id, ctx(`${productId} unsold → unassigned`)).toBeNull();
        // No reserve on these lots: a product goes back unsold only for want of a bid.
        expect(sold.unsold).toContainEqual({ id: productId, reason: 'NO_BIDS' });
      }
    }
    expect(sold.unsold).toContainEqual({ id: quiet, reason: 'NO_BIDS' });
    expect(sold.sold.map((s) => s.product_id)).toContain(productIds[0]);
    // Bidding on a sold product afterwards changes nothing.
    const late = await bid(bidders[1]!, productIds[0]!, 1_000_000);
    expect(late.status).toBe(409);
    await expectHighestMatchesStore(productIds, admin.token);
    await expectMoneyRight();
    stats('(d) 200 bids + 2 settles', since);
  }, 60_000);

  it('(e) a user bidding on two products at once with money for one: never negative, at most one holds', async () => {
    const { auctionId, productIds } = await newAuction(admin, 10);
    const five = await inBatches(5, 5, () => newUser(100, [auctionId]));
    const pairOf = (i: number) => [productIds[2 * i]!, productIds[2 * i + 1]!] as const;
    const since = log.length;
    const expectOneHoldAtMost = async (u: Account) => {
      const holds = await rows<{ amount: number }>(`select amount from bids where user_id = ? and status = 'success'`, u.id);
      expect(holds.length, ctx(`user ${u.id} holds at most one bid`)).toBeLessThanOrEqual(1);
      const balance = (await row<{ b: number }>('select wallet_balance as b from users where id = ?', u.id))!.b;
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(balance + holds.reduce((s, h) => s + h.amount, 0), ctx(`user ${u.id}: balance + hold = ₹100`)).toBe(10_000);
      return holds;
    };
    const refusedAs = (r: Res, codes: string[]) => {
      if (r.status !== 201 && r.status !== 200) expect(codes, ctx(`${r.path}: ${JSON.stringify(r.body)}`)).toContain(`${r.status} ${r.body.code}`);
    };

    // Round 1: ₹60 on both products of the pair at once, with ₹100 in the wallet: exactly one holds.
    const first = await Promise.all(five.flatMap((u, i) => [...pairOf(i).map((p) => bid(u, p, 60)), http('POST', '/api/wallet', {}, u.token)]));
    const leads: number[] = [];
    for (const [i, u] of five.entries()) {
      const [b1, b2, wallet] = [first[3 * i]!, first[3 * i + 1]!, first[3 * i + 2]!];
      expect(wallet.body.wallet_balance, ctx('balance mid-race')).toBeGreaterThanOrEqual(0);
      expect([b1, b2].map((r) => r.status).sort(), ctx(`user ${u.id}: one ₹60 bid accepted, one refused for funds`)).toEqual([201, 402]);
      await expectOneHoldAtMost(u);
      leads.push([b1, b2].find((r) => r.status === 201)!.body.bid.bid_id);
    }

    // Round 2: at once, cancel the lead, raise the same product to ₹95 and bid ₹90 on the other one.
    // Whatever the order, at most one of them ends up holding and nothing goes negative.
    // Which product of each pair the lead is on, read before anything is sent.
    const ledOn = await Promise.all(five.map(async (_, i) => ((await bidsOf(pairOf(i)[0])).some((b) => b.id === leads[i]) ? pairOf(i)[0] : pairOf(i)[1])));
    const second = await Promise.all(five.flatMap((u, i) => {
      const led = ledOn[i]!;
      const other = led === pairOf(i)[0] ? pairOf(i)[1] : pairOf(i)[0];
      return [
        http('POST', '/api/rollback-bid', { bid_id: leads[i] }, u.token), bid(u, led, 95), bid(u, other, 90),
        http('POST', '/api/wallet', {}, u.token),
      ];
    }));
    for (const [i, u] of five.entries()) {
      const [cancel, raise, other, wallet] = second.slice(4 * i, 4 * i + 4) as [Res, Res, Res, Res];
      expect(wallet.body.wallet_balance, ctx('balance mid-race')).toBeGreaterThanOrEqual(0);
      refusedAs(cancel, ['409 BID_NOT_ACTIVE']);
      refusedAs(raise, ['402 INSUFFICIENT_FUNDS']);
      refusedAs(other, ['402 INSUFFICIENT_FUNDS']);
      const holds = await expectOneHoldAtMost(u);
      expect(holds.length, ctx(`user ${u.id} ends holding exactly one bid`)).toBe(1);
      expect([raise, other].filter((r) => r.status === 201).length, ctx('exactly one of the two new bids')).toBe(1);
    }
    await expectHighestMatchesStore(productIds, five[0]!.token);
    await expectMoneyRight();
    stats('(e) two-product races', since);
  });
  it('(f) one wallet bids on eight products at once with money for only some: each 201 or 402 INSUFFICIENT_FUNDS, never negative, exact to the paisa', async () => {
    const bidders = 6;
    const { auctionId, productIds } = await newAuction(admin, 8 * bidders);
    const users = await inBatches(bidders, bidders, () => newUser(1_000, [auctionId]));
    const eightOf = (i: number) => productIds.slice(8 * i, 8 * i + 8);
    const balanceOf = async (u: Account) => (await row<{ b: number }>('select wallet_balance as b from users where id = ?', u.id))!.b;
    /** The user's leading bids: product → paise held. Nobody else bids on these products. */
    const holdsOf = async (u: Account) => new Map((await rows<{ product_id: string; amount: number }>(`select product_id, amount from bids where user_id = ? and status = 'success'`, u.id)).map((h) => [h.product_id, h.amount]));
    const since = log.length;
    let accepted = 0;
    let refused = 0;

    // Three rounds; before each, every bidder tops up ₹500 (one at a time), then all six send their
    // eight bids together (48 at once) with balance reads in between. On a product it already leads a
    // bidder raises by ₹150–₹400 (the lead's own hold counts towards it); elsewhere it bids ₹150–₹400.
    // Eight bids cost at least ₹1,200, so in the first round (₹1,000 in the wallet) some must be
    // refused; any one of them alone is affordable, so some must be accepted.
    for (const round of [1, 2, 3]) {
      if (round > 1) for (const u of users) await must(200, http('POST', '/api/wallet/topup', { amount: 500 }, u.token));
      const before = await Promise.all(users.map(async (u) => ({ balance: await balanceOf(u), holds: await holdsOf(u) })));
      const plans = users.map((_, i) => eightOf(i).map((productId) => {
        const held = before[i]!.holds.get(productId) ?? 0;
        return { productId, held, paise: held + int(150, 400) * 100 + int(1, 99) };
      }));
      const reads: Promise<Res>[] = [];
      const results = await Promise.all(users.map((u, i) => Promise.all(plans[i]!.map((p, j) => {
        if (j % 4 === 2) reads.push(http('POST', '/api/wallet', {}, u.token));
        return bid(u, p.productId, p.paise / 100);
      }))));
      for (const r of await Promise.all(reads)) {
        expect(r.status, ctx(JSON.stringify(r.body))).toBe(200);
        expect(r.body.wallet_balance, ctx('a balance read mid-race')).toBeGreaterThanOrEqual(0);
      }

      for (const [i, u] of users.entries()) {
        const after = { balance: await balanceOf(u), holds: await holdsOf(u) };
        const what = (p: { productId: string; paise: number }) => `round ${round}, user ${u.id}, ${p.paise} paise on ${p.productId}`;
        expect(after.balance, ctx(`round ${round}, user ${u.id}: balance never negative`)).toBeGreaterThanOrEqual(0);
        let spent = 0;
        const mine = results[i]!;
        for (const [j, p] of plans[i]!.entries()) {
          const r = mine[j]!;
          const key = r.status === 201 ? '201' : `${r.status} ${r.body.code}`;
          expect(['201', '402 INSUFFICIENT_FUNDS'], ctx(`${what(p)}: ${JSON.stringify(r.body)}`)).toContain(key);
          const stored = (await row<BidRow>('select * from bids where product_id = ? order by id desc', p.productId))!;
          expect(stored.amount, ctx(`${what(p)}: the last bid row of the product is this bid`)).toBe(p.paise);
          if (r.status === 201) {
            accepted++;
            spent += p.paise - p.held;
            expect(toPaise(r.body.highest_bid), ctx(what(p))).toBe(p.paise);
            expect(r.body.wallet_balance, ctx(`${what(p)}: balance after the bid`)).toBeGreaterThanOrEqual(0);
            expect(r.body.bid.bid_id).toBe(stored.id);
            expect(after.holds.get(p.productId), ctx(`${what(p)} holds its amount`)).toBe(p.paise);
          } else {
            refused++;
            expect([stored.status, stored.reason], ctx(`${what(p)}: recorded as refused`)).toEqual(['failed', 'INSUFFICIENT_FUNDS']);
            expect(after.holds.get(p.productId) ?? 0, ctx(`${what(p)}: refused, the old hold stays`)).toBe(p.held);
            // Balances only fall during a round, so the refusal saw at least the final balance: it was
            // refused only if even that plus its own hold on the product could not pay for it.
            expect(p.paise, ctx(`${what(p)}: refused only when it could not be paid`)).toBeGreaterThan(after.balance + p.held);
          }
        }
        expect(after.balance, ctx(`round ${round}, user ${u.id}: balance = before − what the accepted bids added to the holds`)).toBe(before[i]!.balance - spent);
        const total = (h: Map<string, number>) => [...h.values()].reduce((a, b) => a + b, 0);
        expect(after.balance + total(after.holds), ctx(`round ${round}, user ${u.id}: balance + holds unchanged`)).toBe(before[i]!.balance + total(before[i]!.holds));
        if (round === 1) {
          expect(mine.filter((r) => r.status === 201).length, ctx(`user ${u.id}: some of the eight accepted`)).toBeGreaterThan(0);
          expect(mine.filter((r) => r.status === 402).length, ctx(`user ${u.id}: some of the eight refused`)).toBeGreaterThan(0);
        }
      }
    }
    expect(accepted + refused).toBe(3 * 8 * bidders);
    for (const productId of productIds) await expectAcceptedChain(productId);
    await expectHighestMatchesStore(productIds, users[0]!.token);
    await expectMoneyRight();
    stats('(f) one wallet, eight products', since);
  }, 60_000);

  it('(g) two bidders, each leading one product, outbid each other on the other at the same moment, many pairs and rounds at once: no deadlock, no 5xx, money exact', async () => {
    const pairs = 10;
    const rounds = 12;
    const { auctionId, productIds } = await newAuction(admin, 2 * pairs);
    const users = await inBatches(2 * pairs, 10, () => newUser(20_000, [auctionId]));
    const pairOf = (k: number) => ({ a: users[2 * k]!, b: users[2 * k + 1]!, p: productIds[2 * k]!, q: productIds[2 * k + 1]! });
    // A leads p, B leads q.
    await Promise.all(Array.from({ length: pairs }, async (_, k) => {
      const { a, b, p, q } = pairOf(k);
      await must(201, bid(a, p, 100));
      await must(201, bid(b, q, 100.5));
    }));
    const since = log.length;

    // In every round of a pair, at the same moment: A outbids B on the product B leads while B outbids
    // A on the product A leads (each transaction locks one product, then both wallets), each of them
    // re-sends its current hold on the product it is losing (always 409 BID_TOO_LOW, which locks the
    // same rows), and every fourth round both top up. Funds cover every bid, so the only right answers
    // are 201, 409 BID_TOO_LOW and 200; a lock-order deadlock shows as a 5xx (503), a hang or a wrong answer.
    interface Lead { user: Account; paise: number }
    const wrong: string[] = [];
    const topups = new Map<number, number>();
    const finals = await Promise.all(Array.from({ length: pairs }, async (_, k) => {
      const { a, b, p, q } = pairOf(k);
      const lead = new Map<string, Lead>([[p, { user: a, paise: 10_000 }], [q, { user: b, paise: 10_050 }]]);
      for (let round = 1; round <= rounds; round++) {
        const aLeads = [...lead].find(([, l]) => l.user === a)![0];
        const bLeads = [...lead].find(([, l]) => l.user === b)![0];
        const aTakes = lead.get(bLeads)!.paise + int(1, 20) * 100 + int(0, 99);
        const bTakes = lead.get(aLeads)!.paise + int(1, 20) * 100 + int(0, 99);
        const sent: [string, Promise<Res>, string][] = [
          [`A ${aTakes} paise on ${bLeads}`, bid(a, bLeads, aTakes / 100), '201'],
          [`B ${bTakes} paise on ${aLeads}`, bid(b, aLeads, bTakes / 100), '201'],
          [`A re-sends its hold on ${aLeads}`, bid(a, aLeads, lead.get(aLeads)!.paise / 100), '409 BID_TOO_LOW'],
          [`B re-sends its hold on ${bLeads}`, bid(b, bLeads, lead.get(bLeads)!.paise / 100), '409 BID_TOO_LOW'],
        ];
        if (round % 4 === 0) {
          for (const u of [a, b]) {
            sent.push([`user ${u.id} tops up ₹25.50`, http('POST', '/api/wallet/topup', { amount: 25.5 }, u.token), '200']);
            topups.set(u.id, (topups.get(u.id) ?? 0) + 2_550);
          }
        }
        const answers = await Promise.all(sent.map(([, r]) => r));
        const bad = sent.flatMap(([what, , expected], i) => {
          const r = answers[i]!;
          const key = r.status === 201 || r.status === 200 ? String(r.status) : `${r.status} ${r.body.code}`;
          return key === expected ? [] : [`pair ${k}, round ${round}, ${what}: expected ${expected}, got ${r.status} ${JSON.stringify(r.body)}`];
        });
        if (bad.length > 0) {
          wrong.push(...bad);
          return null;
        }
        expect(toPaise(answers[0]!.body.highest_bid)).toBe(aTakes);
        expect(toPaise(answers[1]!.body.highest_bid)).toBe(bTakes);
        lead.set(bLeads, { user: a, paise: aTakes });
        lead.set(aLeads, { user: b, paise: bTakes });
      }
      return { a, b, lead };
    }));
    expect(wrong, ctx('every answer as expected')).toEqual([]);

    for (const final of finals) {
      const { a, b, lead } = final!;
      for (const [productId, l] of lead) {
        const leaders = (await bidsOf(productId)).filter((x) => x.status === 'success');
        expect(leaders.map((x) => [x.user_id, x.amount]), ctx(`${productId}: the last takeover leads`)).toEqual([[l.user.id, l.paise]]);
        const chain = await expectAcceptedChain(productId);
        expect(chain.length, ctx(`${productId}: opening + one takeover a round`)).toBe(1 + rounds);
      }
      for (const u of [a, b]) {
        const held = [...lead.values()].filter((l) => l.user === u).reduce((s, l) => s + l.paise, 0);
        const balance = (await row<{ b: number }>('select wallet_balance as b from users where id = ?', u.id))!.b;
        expect(balance, ctx(`user ${u.id}: ₹20,000 + top-ups − its one hold`)).toBe(2_000_000 + (topups.get(u.id) ?? 0) - held);
      }
    }
    const mine = await rows<BidRow>('select * from bids where auction_id = ? order by id', auctionId);
    expect(mine.length, ctx('one bid row per bid sent')).toBe(pairs * (2 + 4 * rounds));
    const failed = mine.filter((x) => x.status === 'failed');
    expect(failed.length).toBe(pairs * 2 * rounds);
    expect(failed.every((x) => x.reason === 'BID_TOO_LOW'), ctx('every refusal was BID_TOO_LOW')).toBe(true);
    await expectHighestMatchesStore(productIds, users[0]!.token);
    await expectMoneyRight();
    stats('(g) cross-wallet takeovers', since);
  }, 60_000);
});
