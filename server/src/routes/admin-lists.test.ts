/**
 * The admin's paged lists on both stores: Manage Products' `GET /admin/products` (the caller's own
 * products, newest first, by name, status and category, keyset pages that neither repeat nor skip while
 * products are added between pages) and the owner's `GET /admin/users` with `limit` and `cursor`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { call, expectError, HOUR, makeApp, makeClock, richBidder, signUpAdmin, signUpUser, uniqueName } from '../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface Item {
  id: string; name: string; status: string; auction_id: string | null; lot_number: number | null;
  category: { id: number; name: string; slug: string } | null; auction: { id: string; name: string } | null; reserve_price?: number | null;
}
interface Page { items: Item[]; next_cursor: string | null; total: number }

async function page(token: string, query = ''): Promise<Page> {
  const res = await call(app, 'GET', `/api/admin/products${query ? `?${query}` : ''}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

/** Every page of a list, following next_cursor; `between` runs after each page. */
async function readAll(token: string, query: string, between?: () => Promise<void>): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const p: Page = await page(token, [query, cursor ? `cursor=${encodeURIComponent(cursor)}` : ''].filter(Boolean).join('&'));
    items.push(...p.items);
    cursor = p.next_cursor;
    if (between) await between();
  } while (cursor);
  return items;
}

async function product(token: string, id: string, extra: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/api/admin/product', { id, name: `Product ${id}`, description: `About ${id}`, ...extra }, token);
  expect(res.statusCode, res.body).toBe(201);
}

describe('GET /admin/products', () => {
  it('pages the caller’s own products newest first, with no repeats or gaps while new ones arrive between pages', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const ids: string[] = [];
    // Several products share one moment: ties are ordered by id.
    for (let i = 0; i < 11; i++) {
      const id = `N-${String(i).padStart(2, '0')}`;
      await product(admin.token, id);
      ids.push(id);
      if (i % 3 === 2) clock.advance(1000);
    }
    await product(other.token, uniqueName('THEIRS'));

    const first = await page(admin.token, 'limit=4');
    expect(first.total).toBe(11);
    expect(first.items.map((p) => p.id)).toEqual(['N-10', 'N-09', 'N-08', 'N-07']);
    expect(first.next_cursor).toEqual(expect.any(String));

    let added = 0;
    const seen = await readAll(admin.token, 'limit=4', async () => {
      clock.advance(10);
      await product(admin.token, `NEW-${++added}`);
    });
    // Every product there at the start, once each, in order; the new ones are newer than the first page.
    expect(seen.map((p) => p.id)).toEqual([...ids].reverse());
    expect((await page(admin.token, 'limit=100')).items.slice(0, added).map((p) => p.id)).toEqual(Array.from({ length: added }, (_, i) => `NEW-${added - i}`));
    expect(seen.every((p) => p.reserve_price !== undefined)).toBe(true);
  });

  it('filters by name, status and category, and shows each product’s category, lot number and auction', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const home = (await call(app, 'POST', '/api/admin/categories', { name: 'Home' }, admin.token)).json().category;
    const lamps = (await call(app, 'POST', '/api/admin/categories', { name: 'Lamps', parent_id: home.id }, admin.token)).json().category;
    await product(admin.token, 'L1', { name: 'Brass Lamp', category_id: lamps.id });
    await product(admin.token, 'L2', { name: 'Old lamp 50%_off', category_id: home.id });
    await product(admin.token, 'C1', { name: 'Chair' });
    await product(admin.token, 'S1', { name: 'Sold vase', buy_now_price: 500 });
    const auctionId = uniqueName('A');
    const created = await call(app, 'POST', '/api/admin/auction', {
      id: auctionId, name: 'Spring Sale', valid_until: new Date(clock.t + 2 * HOUR).toISOString(), product_ids: ['L1', 'S1'],
    }, admin.token);
    expect(created.statusCode, created.body).toBe(201);
    const bidder = await richBidder(app, 10_000, [auctionId]);
    const sold = await call(app, 'POST', '/api/buy-now', { product_id: 'S1' }, bidder.token);
    expect(sold.statusCode, sold.body).toBe(201);

    const all = await page(admin.token);
    const l1 = all.items.find((p) => p.id === 'L1')!;
    expect(l1).toMatchObject({ auction_id: auctionId, auction: { id: auctionId, name: 'Spring Sale' }, category: { id: lamps.id, slug: 'lamps' } });
    expect(l1.lot_number).toEqual(expect.any(Number));
    expect(all.items.find((p) => p.id === 'C1')).toMatchObject({ auction: null, lot_number: null, category: null });

    const ids = async (query: string) => (await page(admin.token, query)).items.map((p) => p.id).sort();
    expect(await ids('q=LAMP')).toEqual(['L1', 'L2']);
    expect(await ids('q=50%25_')).toEqual(['L2']);
    expect(await ids('q=%25%25')).toEqual([]);
    expect(await ids('status=unassigned')).toEqual(['C1', 'L2']);
    expect(await ids('status=assigned')).toEqual(['L1']);
    expect(await ids('status=sold')).toEqual(['S1']);
    expect(await ids(`category=${home.id}`)).toEqual(['L1', 'L2']);
    expect(await ids('category=lamps')).toEqual(['L1']);
    expect(await ids('category=no-such')).toEqual([]);
    expect((await page(admin.token, 'q=lamp&status=assigned')).total).toBe(1);
  });

  it('refuses forged and foreign cursors, bad filters, and anyone but an admin', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    for (let i = 0; i < 3; i++) await product(admin.token, `F-${i}`);
    const { next_cursor: cursor } = await page(admin.token, 'limit=1');
    expect(cursor).toEqual(expect.any(String));
    const get = (query: string, token = admin.token) => call(app, 'GET', `/api/admin/products?${query}`, undefined, token);
    expect(expectError(await get(`cursor=${cursor!}`, other.token), 400, 'VALIDATION').field).toBe('cursor');
    expectError(await get('cursor=not-a-cursor'), 400, 'VALIDATION');
    const forged = Buffer.from(JSON.stringify([1, `admin-products:${admin.admin.id}`, 'x', 'F-1'])).toString('base64url');
    expectError(await get(`cursor=${forged}`), 400, 'VALIDATION');
    const lotsCursor = Buffer.from(JSON.stringify([1, 'lots:ending', 1, 'F-1'])).toString('base64url');
    expectError(await get(`cursor=${lotsCursor}`), 400, 'VALIDATION');
    expectError(await get('status=gone'), 400, 'VALIDATION');
    expectError(await get('limit=0'), 400, 'VALIDATION');
    expectError(await get('limit=101'), 400, 'VALIDATION');
    const bidder = await signUpUser(app);
    expectError(await get('', bidder.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/admin/products'), 401, 'UNAUTHENTICATED');
    expect((await get(`cursor=${cursor!}`)).json<Page>().items.map((p) => p.id)).toEqual(['F-1', 'F-0']);
  });
});

describe('GET /admin/users with limit and cursor', () => {
  it('pages newest first with no repeats or gaps while bidders join between pages; the whole list without limit', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const owner = await signUpAdmin(app);
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await signUpUser(app, uniqueName('pager'))).user.id);
      if (i % 2 === 1) clock.advance(1000);
    }
    const whole = (await call(app, 'GET', '/api/admin/users', undefined, owner.token)).json();
    expect(whole).toEqual({ users: expect.any(Array) });
    expect(whole.users.map((u: { id: number }) => u.id)).toEqual([...ids].reverse());

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(app, 'GET', `/api/admin/users?q=pager&limit=3${cursor ? `&cursor=${cursor}` : ''}`, undefined, owner.token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ users: { id: number }[]; next_cursor: string | null }>();
      expect(body.users.length).toBeLessThanOrEqual(3);
      seen.push(...body.users.map((u) => u.id));
      cursor = body.next_cursor;
      pages++;
      clock.advance(5);
      await signUpUser(app, uniqueName('pager'));
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const firstPage = (await call(app, 'GET', '/api/admin/users?limit=2', undefined, owner.token)).json();
    expect(firstPage.users).toHaveLength(2);
    expect(firstPage.next_cursor).toEqual(expect.any(String));
    const productCursor = Buffer.from(JSON.stringify([1, `admin-products:${owner.admin.id}`, 1, 'P-1'])).toString('base64url');
    expectError(await call(app, 'GET', `/api/admin/users?limit=2&cursor=${productCursor}`, undefined, owner.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/admin/users?limit=2&cursor=@@', undefined, owner.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/admin/users?limit=500', undefined, owner.token), 400, 'VALIDATION');
    const other = await signUpAdmin(app);
    expectError(await call(app, 'GET', '/api/admin/users?limit=2', undefined, other.token), 403, 'FORBIDDEN');
  });
});
