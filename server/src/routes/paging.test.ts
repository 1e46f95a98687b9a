/**
 * Paged lists (docs/architecture.md, "Paged lists") through the HTTP API on both stores: the wallet's ledger
 * (`GET /wallet/transactions`), a lot's history (`GET /products/{id}` and `GET /products/{id}/bids`) and
 * a product's bids (`GET /bids?product_key=`). Keyset pages: read on from `next_before` while new rows
 * arrive, every row there at the start is listed exactly once; bad `limit` and `before` are 400
 * VALIDATION, never 500; the wallet's totals cover the whole ledger whatever page is read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { bid, call, createAuction, expectError, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';

let app: App;
beforeAll(async () => { app = await makeApp(); });
afterAll(async () => { await app.close(); });

const get = async <T>(url: string, token: string) => {
  const res = await call(app, 'GET', url, undefined, token);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json<T>();
};

const BAD_LIMITS = ['0', '101', '-1', '1.5', 'abc', '', '1e2', '007x', '1000'];

interface TxPage { transactions: { _id: string; type: string; amount: number }[]; next_before: string | null; totals: { topup: number; bid: number; refund: number; count: number } }

describe('GET /api/wallet/transactions', () => {
  it('newest first, the whole ledger unless a page is asked for (then 50 by default); read on from next_before while rows arrive, each row once; totals of the whole ledger on every page', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const asha = await richBidder(app, 100, [auctionId]);
    const ravi = await richBidder(app, 100_000, [auctionId]);
    // 60 top-ups, and bids that hold and refund: topups, bids and refunds in the ledger.
    for (let i = 0; i < 60; i++) expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10 + i }, asha.token)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await bid(app, asha.token, p!, 100 + 2 * i)).statusCode).toBe(201);
      expect((await bid(app, ravi.token, p!, 101 + 2 * i)).statusCode).toBe(201);
    }
    // The spec's clients cannot page: without limit or before, the whole ledger.
    const whole = await get<TxPage>('/api/wallet/transactions', asha.token);
    expect(whole.transactions).toHaveLength(71);
    expect(whole.next_before).toBeNull();
    // A page: before= past every id, no limit, is the default 50.
    const first = await get<TxPage>('/api/wallet/transactions?before=2147483647', asha.token);
    expect(first.transactions).toEqual(whole.transactions.slice(0, 50));
    const all = [...first.transactions];
    let before = first.next_before;
    expect(before).toBe(first.transactions.at(-1)!._id);
    // Read on 7 at a time; a new row arrives before each page.
    const known = new Set(all.map((t) => t._id));
    let added = 0;
    while (before !== null) {
      expect((await call(app, 'POST', '/api/wallet/topup', { amount: 500 }, asha.token)).statusCode).toBe(200);
      added++;
      const page = await get<TxPage>(`/api/wallet/transactions?before=${before}&limit=7`, asha.token);
      expect(page.transactions.length).toBeLessThanOrEqual(7);
      all.push(...page.transactions);
      before = page.next_before;
      if (before !== null) expect(page.transactions).toHaveLength(7);
    }
    // 1 + 60 top-ups, 5 holds and 5 refunds, each once, newest first; the rows written while paging are not in the later pages.
    const ids = all.map((t) => Number(t._id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all).toHaveLength(71);
    for (const id of known) expect(ids).toContain(Number(id));

    // The totals: the whole ledger (the rows added while paging included), exact to the paisa.
    const now = await get<TxPage>('/api/wallet/transactions?limit=1', asha.token);
    const topups = 100 + Array.from({ length: 60 }, (_, i) => 10 + i).reduce((a, b) => a + b, 0) + 500 * added;
    const held = [100, 102, 104, 106, 108].reduce((a, b) => a + b, 0);
    // Holds and their releases only: nothing spent.
    expect(now.totals).toEqual({ topup: topups, bid: held, refund: held, spent: 0, count: 71 + added });
    expect((await get<TxPage>(`/api/wallet/transactions?before=${ids.at(-1)!}`, asha.token))).toEqual({ transactions: [], next_before: null, totals: now.totals });
    // An id past any row's: everything is older.
    expect((await get<TxPage>('/api/wallet/transactions?before=999999999999999&limit=100', asha.token)).transactions).toHaveLength(71 + added);
    // Another bidder's ledger is their own.
    expect((await get<TxPage>('/api/wallet/transactions', ravi.token)).totals.count).toBe(1 + 5 + 4);
  });

  it('bad limit and before are 400 VALIDATION naming the field, never 500', async () => {
    const u = await signUpUser(app);
    for (const limit of BAD_LIMITS) expect(expectError(await call(app, 'GET', `/api/wallet/transactions?limit=${limit}`, undefined, u.token), 400, 'VALIDATION').field).toBe('limit');
    for (const before of ['abc', '-1', '1.5', '', '1e5', '9'.repeat(16)]) {
      expect(expectError(await call(app, 'GET', `/api/wallet/transactions?before=${before}`, undefined, u.token), 400, 'VALIDATION').field).toBe('before');
    }
    expect(await get<TxPage>('/api/wallet/transactions?limit=100&before=1', u.token)).toEqual({ transactions: [], next_before: null, totals: { topup: 0, bid: 0, refund: 0, spent: 0, count: 0 } });
  });
});

interface Entry { bid_id: number; amount: number; status: string; bidder: string; auto: boolean }
interface LotJson { bids: Entry[]; bids_next_before: string | null; bid_count: number }
interface HistoryPage { bids: Entry[]; next_before: string | null }

describe('a lot’s history', () => {
  it('GET /products/{id} carries the 50 highest; GET /products/{id}/bids reads on, each entry once while bids arrive, aliases the same on every page', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const [asha, ravi, meera] = await Promise.all([0, 1, 2].map(() => richBidder(app, 100_000, [auctionId])));
    // 60 bids in turn, and a maximum whose automatic raises are entries of their own.
    for (let i = 0; i < 60; i++) expect((await bid(app, [asha, ravi][i % 2]!.token, p!, 100 + i)).statusCode).toBe(201);
    expect((await call(app, 'POST', '/api/bid', { product_id: p, max_amount: 1000 }, meera!.token)).statusCode).toBe(201);
    for (let i = 0; i < 5; i++) expect((await bid(app, asha!.token, p!, 300 + 10 * i)).statusCode).toBe(201);
    const lot = await get<LotJson>(`/api/products/${p!}`, ravi!.token);
    expect(lot.bids).toHaveLength(50);
    expect(lot.bids_next_before).not.toBeNull();
    // Highest first.
    const amounts = lot.bids.map((e) => e.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const start = [...lot.bids];
    let before = lot.bids_next_before;
    let amount = 2000;
    while (before !== null) {
      // A new highest bid arrives before each page: it lands above the pages already read.
      expect((await bid(app, ravi!.token, p!, amount++)).statusCode).toBe(201);
      const page = await get<HistoryPage>(`/api/products/${p!}/bids?before=${before}&limit=9`, ravi!.token);
      start.push(...page.bids);
      before = page.next_before;
    }
    const key = (e: Entry) => `${e.bid_id}:${e.auto}:${e.amount}`;
    expect(new Set(start.map(key)).size).toBe(start.length);
    // 60 + Meera's maximum + 5 of Asha's answered by it (each an entry and an automatic raise).
    expect(start).toHaveLength(60 + 1 + 5 + 5);
    const all = start.map((e) => e.amount);
    expect(all).toEqual([...all].sort((a, b) => b - a));
    // One alias per bidder, the same on every page; the caller is "You".
    const aliases = new Map<string, Set<number>>();
    for (const e of start) {
      if (e.bidder === 'You') continue;
      const entry = aliases.get(e.bidder) ?? new Set<number>();
      entry.add(e.bid_id);
      aliases.set(e.bidder, entry);
    }
    expect([...aliases.keys()].sort()).toEqual(['Bidder 1', 'Bidder 3']);
    expect(start.filter((e) => e.bidder === 'You')).toHaveLength(30);
    // The auction's own admin sees usernames on every page too.
    const adminPage = await get<HistoryPage>(`/api/products/${p!}/bids?limit=100`, admin.token);
    expect(new Set(adminPage.bids.map((e) => e.bidder))).toEqual(new Set([asha!.username, ravi!.username, meera!.username]));
  });

  it('bad limit and before are 400 VALIDATION; an unknown lot is 404; a lot in no auction has no history', async () => {
    const admin = await signUpAdmin(app);
    const { productIds: [p] } = await createAuction(app, admin.token);
    const u = await signUpUser(app);
    for (const limit of BAD_LIMITS) expect(expectError(await call(app, 'GET', `/api/products/${p!}/bids?limit=${limit}`, undefined, u.token), 400, 'VALIDATION').field).toBe('limit');
    for (const before of ['x', '1', '1.2.3', '1.2.2.3', '1.2.0.99999999999', '1.2.0.4294967296', '-1.2.0.3', '1.2.0.3.4', '']) {
      expect(expectError(await call(app, 'GET', `/api/products/${p!}/bids?before=${before}`, undefined, u.token), 400, 'VALIDATION').field).toBe('before');
    }
    expect(await get<HistoryPage>(`/api/products/${p!}/bids?before=100.100.0.2147483647`, u.token)).toEqual({ bids: [], next_before: null });
    expectError(await call(app, 'GET', '/api/products/nope/bids', undefined, u.token), 404, 'NOT_FOUND');
    const [loose] = await (async () => {
      const id = `loose-${Date.now()}`;
      expect((await call(app, 'POST', '/api/admin/product', { id, name: 'Loose', description: 'd' }, admin.token)).statusCode).toBe(201);
      return [id];
    })();
    // A draft is its admin's alone: a bidder is told it does not exist; its admin sees no history.
    expectError(await call(app, 'GET', `/api/products/${loose}/bids`, undefined, u.token), 404, 'NOT_FOUND');
    expect(await get<HistoryPage>(`/api/products/${loose}/bids`, admin.token)).toEqual({ bids: [], next_before: null });
    expect((await get<LotJson>(`/api/products/${loose}`, admin.token)).bids_next_before).toBeNull();
  });
});

describe('GET /api/bids?product_key=', () => {
  it('newest first, every bid unless a page is asked for (then 50 by default); the next page is before= the last bid_id; bad values are 400', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
    const [asha, ravi] = await Promise.all([0, 1].map(() => richBidder(app, 100_000, [auctionId])));
    for (let i = 0; i < 60; i++) await bid(app, [asha, ravi][i % 2]!.token, p!, 100 + i - (i % 7 === 3 ? 50 : 0));
    expect(await get<{ bid_id: number }[]>(`/api/bids?product_key=${p!}`, asha!.token)).toHaveLength(60);
    const first = await get<{ bid_id: number }[]>(`/api/bids?product_key=${p!}&before=2147483647`, asha!.token);
    expect(first).toHaveLength(50);
    const rest = await get<{ bid_id: number }[]>(`/api/bids?product_key=${p!}&before=${first.at(-1)!.bid_id}&limit=100`, asha!.token);
    expect(rest).toHaveLength(10);
    const ids = [...first, ...rest].map((b) => b.bid_id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => b - a));
    for (const limit of BAD_LIMITS) expect(expectError(await call(app, 'GET', `/api/bids?product_key=${p!}&limit=${limit}`, undefined, asha!.token), 400, 'VALIDATION').field).toBe('limit');
    for (const before of ['x', '-1', '1.5']) expect(expectError(await call(app, 'GET', `/api/bids?product_key=${p!}&before=${before}`, undefined, asha!.token), 400, 'VALIDATION').field).toBe('before');
  });
});
