/**
 * One stop-word rule on both stores (docs/catalogue.md#search): a word that is a stop word is dropped
 * from the query before either store sees it, so `don vintage` finds what `vintage` finds on SQLite and
 * on PostgreSQL alike, and a query of only stop words finds nothing (an empty page, never an error).
 * On PostgreSQL, the list is the one its `english` configuration drops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { STOP_WORDS } from '../../db/search/query.js';
import { HOUR, call, makeApp, signUpAdmin, sqlRow } from '../../test/helpers.js';

let app: App;

interface Page { items: { id: string }[]; next_cursor: string | null; total: number }

async function lots(q: string): Promise<Page> {
  const res = await call(app, 'GET', `/api/catalogue/lots?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
async function auctions(q: string): Promise<string[]> {
  const res = await call(app, 'GET', `/api/catalogue/auctions?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: { id: string }[] }>().items.map((i) => i.id);
}
const ids = (p: Page) => p.items.map((i) => i.id).sort();

beforeAll(async () => {
  app = await makeApp();
  const admin = await signUpAdmin(app);
  // One lot even has "Don" in its name: the word is dropped all the same, so it finds every vintage lot.
  const lots = [
    ['sw-lamp', 'Vintage lamp', 'Brass, with its shade'],
    ['sw-clock', 'Vintage clock', 'Chimes on the hour'],
    ['sw-don', 'Vintage Don figurine', 'Painted by hand'],
    ['sw-desk', 'Oak desk', "Don't miss it: it's solid"],
  ];
  for (const [id, name, description] of lots) {
    const res = await call(app, 'POST', '/api/admin/product', { id, name, description }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
  }
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: 'sw-sale', name: 'Weekly sale', valid_until: new Date(Date.now() + 2 * HOUR).toISOString(), product_ids: lots.map(([id]) => id),
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(async () => { await app?.close(); });

describe('stop words', () => {
  it('a stop word is dropped from the query: "don vintage" finds what "vintage" finds', async () => {
    const vintage = await lots('vintage');
    expect(ids(vintage)).toEqual(['sw-clock', 'sw-don', 'sw-lamp']);
    for (const q of ['don vintage', "don't vintage", 'vintage s', 't vintage', 'the vintage', 'DON Vintage']) {
      const page = await lots(q);
      expect(ids(page), q).toEqual(ids(vintage));
      expect(page.total, q).toBe(vintage.total);
    }
    expect(await auctions('don vintage')).toEqual(await auctions('vintage'));
    expect(await auctions('vintage')).toEqual(['sw-sale']);
  });

  it('every word of the list is dropped, and a query of only stop words is an empty result', async () => {
    const vintage = ids(await lots('vintage'));
    for (const word of STOP_WORDS) expect(ids(await lots(`${word} vintage`)), word).toEqual(vintage);
    const empty = { items: [], next_cursor: null, total: 0 };
    for (const q of ['don', "don't", 's t', 'the and of don']) {
      expect(await lots(q), q).toEqual(empty);
      expect(await auctions(q), q).toEqual([]);
    }
  });

  it('on PostgreSQL, the list is exactly what its english configuration drops', async ({ skip }) => {
    if (app.ctx.store.kind !== 'postgres') skip('PostgreSQL only');
    // Each word of the list is a stop word there (ts_lexize gives no lexeme)...
    const kept = await sqlRow<{ words: string | null }>(
      app,
      "select string_agg(w, ' ') as words from regexp_split_to_table(?, ' ') w where ts_lexize('english_stem', w) <> '{}'::text[]",
      [...STOP_WORDS].join(' '),
    );
    expect(kept?.words ?? null).toBeNull();
    // ...and its stop-word file lists no other.
    const file = await sqlRow<{ text: string }>(
      app,
      "select pg_read_file(c.setting || '/tsearch_data/english.stop') as text from pg_config c where c.name = 'SHAREDIR'",
    );
    expect(new Set(file!.text.split(/\s+/).filter(Boolean))).toEqual(new Set(STOP_WORDS));
  });
});
