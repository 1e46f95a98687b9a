/**
 * The paged auctions under a filter that many lots match (docs/catalogue.md#paged-auctions), on both
 * stores: such a filter is checked per auction in the page's order over the first auctions of the tab,
 * and read from the filter's list when they do not fill a page; the pages are the same either way, with
 * no repeats or gaps. The counts per tab are kept for a moment but never outlive a write. Lot search by
 * relevance over a word more lots match than `total` counts: 1,001 of them ranked, paged once each.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { call, HOUR, makeApp, makeClock, signUpAdmin } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface Page { items: { id: string }[]; next_cursor: string | null; counts: { active: number; ending: number; ended: number } }

async function browse(query: string): Promise<Page> {
  const res = await call(app, 'GET', `/api/catalogue/auctions?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

/** Every auction of a search, two a page, following the cursors. */
async function allPages(query: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await browse(`${query}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
    seen.push(...page.items.map((i) => i.id));
    cursor = page.next_cursor;
  } while (cursor !== null);
  return seen;
}

describe('paged auctions under a dense filter', () => {
  it('pages past the first auctions of the tab with none of its lots; counts follow every write', { timeout: 120_000 }, async () => {
    const clock = makeClock(Date.now());
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const made = await call(app, 'POST', '/api/admin/categories', { name: 'Clocks' }, admin.token);
    expect(made.statusCode, made.body).toBe(201);
    const slug = made.json<{ category: { slug: string } }>().category.slug;
    // 210 plain lots, then 600 clocks in the category: more than a filter needs to count as dense.
    const rows = ['id,name,description,category,starting_price'];
    for (let i = 0; i < 210; i++) rows.push(`plain-${i},Plain box ${i},A box,,100`);
    for (let i = 0; i < 600; i++) rows.push(`clock-${i},Vintage clock ${i},A clock,${slug},100`);
    const imported = await app.inject({
      method: 'POST', url: '/api/admin/products/import', payload: `${rows.join('\r\n')}\r\n`,
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const base = clock.t;
    // A millisecond apart, so that `newest` has an order of its own.
    const auction = async (id: string, endsIn: number, productIds: string[]) => {
      clock.advance(1);
      const res = await call(app, 'POST', '/api/admin/auction', {
        id, name: `Sale ${id}`, valid_until: new Date(base + endsIn).toISOString(), product_ids: productIds,
      }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
    };
    // The 210 auctions that end first have no clock; then six of 100 clocks each.
    for (let i = 0; i < 210; i++) await auction(`early-${i}`, HOUR + i * 1000, [`plain-${i}`]);
    const clocks = Array.from({ length: 6 }, (_, k) => `clocks-${k}`);
    for (let k = 0; k < 6; k++) await auction(clocks[k]!, 2 * HOUR + k * 1000, Array.from({ length: 100 }, (_, i) => `clock-${k * 100 + i}`));

    // The first page comes from the list (none of the first 200 auctions has a clock), the later ones from the walk.
    expect(await allPages('q=vintage')).toEqual(clocks);
    expect(await allPages(`category=${slug}`)).toEqual(clocks);
    expect(await allPages(`q=clock&category=${slug}`)).toEqual(clocks);
    // Descending (newest first): the clocks were created last, so the walk fills each page.
    expect(await allPages('q=vintage&sort=newest')).toEqual([...clocks].reverse());
    expect((await browse('q=vintage')).counts).toEqual({ active: 6, ending: 6, ended: 0 });

    // A write shows in the counts at once, though the clock has not moved.
    const renamed = await call(app, 'PUT', '/api/admin/product/plain-0', { name: 'Vintage box', description: 'A box' }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await browse('q=vintage');
    expect(after.counts).toEqual({ active: 7, ending: 7, ended: 0 });
    expect(after.items.map((i) => i.id)).toEqual(['early-0', ...clocks]);

    // Time moves the counts too: an hour on, the early auction has ended.
    clock.advance(HOUR + 500);
    expect((await browse('q=vintage')).counts).toEqual({ active: 6, ending: 6, ended: 1 });
  });
});

describe('lot search by relevance over a common word', () => {
  it('ranks 1,001 of the matches: total says more than 1,000, and the pages list each of them once', { timeout: 120_000 }, async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const rows = ['id,name,description,category,starting_price'];
    for (let i = 0; i < 1200; i++) rows.push(`v-${i},Vintage ${'old '.repeat(i % 4)}lamp ${i},A lamp,,100`);
    const imported = await app.inject({
      method: 'POST', url: '/api/admin/products/import', payload: `${rows.join('\r\n')}\r\n`,
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    for (let k = 0; k < 3; k++) {
      const res = await call(app, 'POST', '/api/admin/auction', {
        id: `lamps-${k}`, name: `Lamps ${k}`, valid_until: new Date(Date.now() + 2 * HOUR).toISOString(),
        product_ids: Array.from({ length: 400 }, (_, i) => `v-${k * 400 + i}`),
      }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
    }
    interface Lots { items: { id: string }[]; next_cursor: string | null; total: number }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await call(app, 'GET', `/api/catalogue/lots?q=vintage&limit=100${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<Lots>();
      expect(page.total).toBe(1001);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor !== null && pages < 20);
    expect(seen).toHaveLength(1001);
    expect(new Set(seen).size).toBe(1001);
  });

  it('the lot with the word in its name comes first, however many newer lots have it only in their description', { timeout: 120_000 }, async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const rows = ['id,name,description,category,starting_price', 'gramophone-1,Gramophone with brass horn,A wind-up player,,100'];
    for (let i = 0; i < 1200; i++) rows.push(`rec-${i},Record ${i},Plays on any gramophone,,100`);
    const imported = await app.inject({
      method: 'POST', url: '/api/admin/products/import', payload: `${rows.join('\r\n')}\r\n`,
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    for (let k = 0; k < 3; k++) {
      const ids = k === 0 ? ['gramophone-1', ...Array.from({ length: 399 }, (_, i) => `rec-${i}`)] : Array.from({ length: 400 }, (_, i) => `rec-${k * 400 + i - 1}`);
      const res = await call(app, 'POST', '/api/admin/auction', {
        id: `records-${k}`, name: `Records ${k}`, valid_until: new Date(Date.now() + 2 * HOUR).toISOString(), product_ids: ids,
      }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
    }
    const res = await call(app, 'GET', '/api/catalogue/lots?q=gramophones&limit=5');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ items: { id: string }[]; total: number }>();
    // The lots ranked are chosen before a lot's state is looked at: a draft among them counts for none.
    expect(page.total).toBeGreaterThanOrEqual(1000);
    expect(page.items[0]!.id).toBe('gramophone-1');
  });
});
