/**
 * Lot search on a catalogue of 50,000 lots set up as a seller sets one up (five CSV imports of 10,000
 * lots, then 100 auctions of 500 lots over them; nobody runs ANALYZE), on both stores
 * (docs/catalogue.md#what-a-search-costs): a common word answers in well under 100 ms, because the
 * lots ranked are read once and each looked up by its key, whatever the planner believes of the
 * tables; on PostgreSQL the planner's statistics follow the lots into their auctions; a search without
 * words reads at most SEARCH_WINDOW lots, the first to end while open and the most recently ended once
 * ended (lots sold by buy-now in open auctions included); a word that more ended lots match than are
 * ranked finds the open lots it matches. The figures of every kind of search are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { SEARCH_WINDOW } from '../../db/search/query.js';
import { HOUR, bid, call, makeApp, makeClock, richBidder, signUpAdmin, sqlRow } from '../../test/helpers.js';

const LOTS = 50_000;
const FILE_ROWS = 10_000;
const PER_AUCTION = 500;
const AUCTIONS = LOTS / PER_AUCTION;
/** The last auction to end of those still open: its lots alone cost ₹9,999 to start. */
const LAST_OPEN = AUCTIONS - 1;
const PRICEY = 9_999;
/** One auction in five has ended once the clock moves on (sale-0, sale-5 … sale-95: 10,000 lots). */
const endedAuction = (k: number) => k % 5 === 0;
/** Every lot of an ended auction has this word in its name; these three open lots only in their description. */
const HEIRLOOM = 'heirloom';
const OPEN_HEIRLOOMS = ['lot-1234', 'lot-22222', 'lot-33333'];
/** Bought at its buy-now price in sale-2, an auction still open. */
const BOUGHT = 'lot-1000';

const ADJECTIVES = ['antique', 'vintage', 'carved', 'brass', 'silver', 'painted', 'lacquered', 'embroidered', 'rosewood', 'enamelled', 'gilded'];
const NOUNS = ['clock', 'lamp', 'mirror', 'chest', 'cabinet', 'teapot', 'vase', 'bowl', 'plate', 'tray', 'jug', 'kettle', 'lantern', 'statue'];
const CONDITIONS = ['in good working order', 'with light wear', 'recently cleaned', 'never used', 'from a private collection', 'with minor scratches', 'complete with its box', 'showing a fine patina', 'with a small repair'];

const clock = makeClock(Date.now());
let app: App;
let categorySlug: string;
const setup = { importMs: 0, auctionsMs: 0 };

/**
 * Lot i: "<Adjective> <noun> number <i>" ("… heirloom" in an auction that ends), its description with
 * "good" in one in nine; one in ten can be bought now.
 */
function csvFile(from: number, categories: number[]): string {
  const rows = ['id,name,description,category,starting_price,buy_now_price'];
  for (let i = from; i < from + FILE_ROWS; i++) {
    const noun = NOUNS[(i * 7) % NOUNS.length]!;
    const price = Math.floor(i / PER_AUCTION) === LAST_OPEN ? PRICEY : 100 + (i % 500);
    const name = `${ADJECTIVES[i % ADJECTIVES.length]} ${noun} number ${i}${endedAuction(Math.floor(i / PER_AUCTION)) ? ` ${HEIRLOOM}` : ''}`;
    const description = `A ${NOUNS[i % NOUNS.length]}, ${CONDITIONS[(i * 3) % CONDITIONS.length]}.${OPEN_HEIRLOOMS.includes(`lot-${i}`) ? ` An ${HEIRLOOM}.` : ''}`;
    rows.push(`lot-${i},${name},"${description}",${categories[i % categories.length]},${price},${i % 10 === 0 ? price * 2 : ''}`);
  }
  return rows.join('\n');
}

beforeAll(async () => {
  app = await makeApp({}, { now: clock.now });
  const admin = await signUpAdmin(app);
  const categories: number[] = [];
  for (const name of ['Clocks', 'Lamps', 'Kitchen']) {
    const res = await call(app, 'POST', '/api/admin/categories', { name }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    categories.push(res.json<{ category: { id: number; slug: string } }>().category.id);
    categorySlug ??= res.json<{ category: { slug: string } }>().category.slug;
  }
  let t = performance.now();
  for (let from = 0; from < LOTS; from += FILE_ROWS) {
    const res = await app.inject({
      method: 'POST', url: '/api/admin/products/import', payload: csvFile(from, categories),
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  setup.importMs = performance.now() - t;
  t = performance.now();
  // Each auction ends a minute after the one before; one in five within the hour (ended once the clock moves on).
  const create = async (k: number) => {
    const validUntil = clock.t + (endedAuction(k) ? HOUR : 48 * HOUR) + k * 60_000;
    const res = await call(app, 'POST', '/api/admin/auction', {
      id: `sale-${k}`, name: `Sale ${k}`, valid_until: new Date(validUntil).toISOString(),
      product_ids: Array.from({ length: PER_AUCTION }, (_, j) => `lot-${k * PER_AUCTION + j}`),
    }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
  };
  // Three sellers' requests at a time.
  await Promise.all([0, 1, 2].map(async (first) => { for (let k = first; k < AUCTIONS; k += 3) await create(k); }));
  setup.auctionsMs = performance.now() - t;
  const bidder = await richBidder(app, 100_000, ['sale-1', 'sale-2']);
  for (let j = 0; j < 20; j++) expect((await bid(app, bidder.token, `lot-${PER_AUCTION + j * 7}`, 700 + j)).statusCode).toBe(201);
  const bought = await call(app, 'POST', '/api/buy-now', { product_id: BOUGHT }, bidder.token);
  expect(bought.statusCode, bought.body).toBe(201);
  clock.advance(3 * HOUR);
}, 600_000);
afterAll(async () => { await app?.close(); });

/** One request, refused past `deadlineMs` (a plan that reads the catalogue once per lot would take minutes). */
async function timed(query: string, deadlineMs = 20_000): Promise<{ ms: number; cpuMs: number; total: number; ids: string[]; next: string | null }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${query}: no answer within ${deadlineMs} ms`)), deadlineMs); });
  try {
    const res = await Promise.race([call(app, 'GET', `/api/catalogue/lots?${query}`), deadline]);
    expect(res.statusCode, res.body).toBe(200);
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const page = res.json<{ items: { id: string }[]; total: number; next_cursor: string | null }>();
    return { ms, cpuMs: (used.user + used.system) / 1000, total: page.total, ids: page.items.map((i) => i.id), next: page.next_cursor };
  } finally {
    clearTimeout(timer);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Two requests to warm up, then the median of seven (wall and this process's CPU). */
async function measure(query: string) {
  await timed(query);
  await timed(query);
  const runs = [];
  for (let i = 0; i < 7; i++) runs.push(await timed(query));
  return { query, ms: Math.round(median(runs.map((r) => r.ms)) * 10) / 10, cpuMs: Math.round(median(runs.map((r) => r.cpuMs)) * 10) / 10, total: runs[0]!.total };
}

describe(`lot search over ${LOTS.toLocaleString('en')} lots, imported and then put into auctions`, () => {
  it('a common word answers in under 100 ms (median of seven after two to warm up)', { timeout: 300_000 }, async () => {
    const figures = [];
    for (const q of ['good', 'vintage', 'good lamp', 'number 12345', 'number', 'lamp good working', HEIRLOOM]) {
      figures.push(await measure(`q=${encodeURIComponent(q)}`));
    }
    console.log(`${app.ctx.store.kind}: setup ${Math.round(setup.importMs)} ms import, ${Math.round(setup.auctionsMs)} ms auctions`);
    console.table(figures);
    for (const f of figures) expect(f.ms, f.query).toBeLessThan(100);
    expect(figures.find((f) => f.query === 'q=number%2012345')!.total).toBe(1);
  });

  it('on PostgreSQL, the planner knows that the lots are in auctions now', async ({ skip }) => {
    if (app.ctx.store.kind !== 'postgres') skip('PostgreSQL only');
    // The import analysed the products while none was in an auction; the auctions moved all of them.
    const stats = await sqlRow<{ nullFrac: number }>(app,
      "select null_frac as \"nullFrac\" from pg_stats where schemaname = current_schema() and tablename = 'products' and attname = 'auction_id'");
    expect(stats!.nullFrac).toBeLessThan(0.5);
  });

  it(`a search without words reads at most ${SEARCH_WINDOW.toLocaleString('en')} lots, the first to end`, { timeout: 300_000 }, async () => {
    // The only lots at ₹9,999 are in the open auction that ends last: past the window of any search
    // without words, unless it names their auction.
    expect((await timed(`min_price=${PRICEY}`)).total).toBe(0);
    expect((await timed(`min_price=${PRICEY}&sort=price_desc`)).ids).toEqual([]);
    const named = await timed(`min_price=${PRICEY}&auction_id=sale-${LAST_OPEN}&limit=100`);
    expect(named.total).toBe(PER_AUCTION);
    // The window is the first lots to end, in the `ending` order: its first page is the catalogue's.
    const first = await timed('sort=ending&limit=5');
    expect(first.ids).toEqual(['lot-500', 'lot-501', 'lot-502', 'lot-503', 'lot-504']);

    const figures = [];
    for (const q of [
      'q=zanzibar', `category=${categorySlug}`, 'min_price=150&max_price=250', 'buy_now=1', 'status=ended', 'sort=price_asc',
      'sort=price_desc', 'sort=bids', 'sort=ending', `min_price=${PRICEY}`, 'status=ended&sort=price_desc',
      `category=${categorySlug}&min_price=150&max_price=160&buy_now=1&sort=price_asc`, 'q=good&sort=price_asc', `q=good&category=${categorySlug}`,
      `q=${HEIRLOOM}&sort=price_asc`, `q=${HEIRLOOM}&status=ended`, 'q=vintage&status=ended',
    ]) figures.push(await measure(q));
    console.log(`${app.ctx.store.kind}: searches with filters`);
    console.table(figures);
  });

  it(`status=ended reads the most recently ended lots (more than ${SEARCH_WINDOW.toLocaleString('en')} have ended), and lots sold in open auctions`, async () => {
    // Sold by buy-now in sale-2 (open, ending after every ended auction), then sale-95's lots (the
    // last auction to have ended), by id.
    const first = await timed('status=ended&limit=4');
    expect(first.ids).toEqual([BOUGHT, 'lot-47500', 'lot-47501', 'lot-47502']);
    expect(first.total).toBe(1001);
    // Paging on: sale-95's other lots, then sale-90's.
    const seen = [...first.ids];
    for (let cursor = first.next; seen.length < 1 + 2 * PER_AUCTION && cursor !== null;) {
      const page = await timed(`status=ended&limit=100&cursor=${cursor}`);
      seen.push(...page.ids);
      cursor = page.next;
    }
    expect(seen.slice(1, 1 + PER_AUCTION)).toEqual(Array.from({ length: PER_AUCTION }, (_, j) => `lot-${95 * PER_AUCTION + j}`));
    expect(seen.slice(1 + PER_AUCTION, 1 + 2 * PER_AUCTION)).toEqual(Array.from({ length: PER_AUCTION }, (_, j) => `lot-${90 * PER_AUCTION + j}`));
    // A price sort orders the same window: the cheapest lot (₹100, the first of each auction) of each of
    // the ten auctions that ended last (sale-50 … sale-95).
    expect((await timed('status=ended&sort=price_asc&limit=10')).ids).toEqual(Array.from({ length: 10 }, (_, j) => `lot-${(50 + 5 * j) * PER_AUCTION}`));
    // The lot bought is in the window too (sold at ₹200).
    expect((await timed('status=ended&min_price=200&max_price=200&limit=100')).ids).toContain(BOUGHT);
    // Each of them has ended, and none of the open auctions' lots for sale is among them.
    const byBids = (await timed('status=ended&sort=bids&limit=100')).ids;
    expect(byBids[0]).toBe(BOUGHT);
    expect(byBids.slice(1).filter((id) => !endedAuction(Math.floor(Number(id.slice(4)) / PER_AUCTION)))).toEqual([]);
  });

  it('a word that more than 1,001 ended lots match finds the open lots it matches, whatever the sort', async () => {
    // Every lot of the 20 ended auctions has the word in its name (ranked first on both stores); three
    // open lots have it in their description.
    for (const sort of ['', '&sort=relevance', '&sort=ending', '&sort=price_asc', '&sort=price_desc', '&sort=bids']) {
      const page = await timed(`q=${HEIRLOOM}${sort}`);
      expect([...page.ids].sort(), sort).toEqual(OPEN_HEIRLOOMS);
      expect(page.total, sort).toBe(OPEN_HEIRLOOMS.length);
    }
    expect((await timed(`q=${HEIRLOOM}&category=${categorySlug}`)).total).toBe(OPEN_HEIRLOOMS.filter((id) => Number(id.slice(4)) % 3 === 0).length);
    const ended = await timed(`q=${HEIRLOOM}&status=ended&limit=100`);
    expect(ended.total).toBe(1001);
    expect(ended.ids.filter((id) => OPEN_HEIRLOOMS.includes(id))).toEqual([]);
    // The other way round: "vintage" (one lot in eleven) is mostly in open auctions: every ended lot it
    // matches is found, not only those among the best 1,001 of all.
    const endedVintage = Array.from({ length: LOTS }, (_, i) => i).filter((i) => i % ADJECTIVES.length === 1 && endedAuction(Math.floor(i / PER_AUCTION))).length;
    expect(endedVintage).toBeLessThan(1001);
    expect((await timed('q=vintage&status=ended')).total).toBe(endedVintage);
  });
});
