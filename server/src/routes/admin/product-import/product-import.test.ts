import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../../context.js';
import { HOUR, call, makeApp, signUpAdmin, signUpUser, sqlRow, uniqueName } from '../../../test/helpers.js';
import { multipart } from '../../../test/photo-helpers.js';

let app: App;
let admin: { token: string };
let other: { token: string };
let bidder: { token: string };
let category: { id: number; slug: string };

beforeAll(async () => {
  app = await makeApp();
  admin = await signUpAdmin(app);
  other = await signUpAdmin(app);
  bidder = await signUpUser(app);
  const res = await call(app, 'POST', '/api/admin/categories', { name: uniqueName('Import lamps ') }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  category = res.json<{ category: { id: number; slug: string } }>().category;
});
afterAll(async () => { await app?.close(); });

const importCsv = (text: string, token: string | null = admin.token) => app.inject({
  method: 'POST', url: '/api/admin/products/import', payload: text,
  headers: { 'content-type': 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});
const productCount = async () => Number((await sqlRow<{ n: number | string }>(app, 'select count(*) as n from products'))!.n);
interface Problem { line: number; field: string; message: string }
const problems = (res: LightMyRequestResponse, status = 400, code = 'VALIDATION') => {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ code: string; rows: Problem[] }>();
  expect(body.code).toBe(code);
  return body.rows;
};
const exportCsv = async (token: string) => {
  const res = await call(app, 'GET', '/api/admin/products/export', undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  return res.body;
};

describe('POST /api/admin/products/import', () => {
  it('creates every row of a valid file, listed and searchable', async () => {
    const [a, b, c] = [uniqueName('IMA'), uniqueName('IMB'), uniqueName('IMC')];
    const before = await productCount();
    const res = await importCsv([
      'id,name,description,category,starting_price,reserve_price,buy_now_price',
      `${a},Zanzibar lantern,Brass and glass,${category.slug},100,150.50,500`,
      `${b},Zanzibar kettle,Copper,${category.id},20.25,,`,
      `${c},Plain stool,Three legs,,,,`,
    ].join('\r\n'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ created: 3 });
    expect(await productCount()).toBe(before + 3);
    const listed = await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token);
    const mine = listed.json<{ id: string; name: string; starting_price: number; reserve_price: number | null; category: { slug: string } | null }[]>();
    const lantern = mine.find((p) => p.id === a)!;
    expect(lantern).toMatchObject({ name: 'Zanzibar lantern', starting_price: 100, reserve_price: 150.5, category: { slug: category.slug } });
    expect(mine.find((p) => p.id === b)).toMatchObject({ starting_price: 20.25, reserve_price: null, category: { slug: category.slug } });
    expect(mine.some((p) => p.id === c)).toBe(true);
    // Put in an auction, they are found by the catalogue's search.
    const auction = await call(app, 'POST', '/api/admin/auction', { id: uniqueName('IMX'), name: 'Import sale', valid_until: new Date(Date.now() + 2 * HOUR).toISOString(), product_ids: [a, b] }, admin.token);
    expect(auction.statusCode, auction.body).toBe(201);
    const found = await call(app, 'GET', '/api/catalogue/lots?q=zanzibar');
    expect(found.json<{ items: { id: string }[] }>().items.map((i) => i.id).sort()).toEqual([a, b].sort());
  });

  it('writes a large file in batches: every row created and in the search index; ids it took refuse a later file by their lines (409 ID_TAKEN)', async () => {
    const lotSearchCount = async () => Number((await sqlRow<{ n: number | string }>(app, 'select count(*) as n from lot_search'))!.n);
    const prefix = uniqueName('IMBULK');
    const lines = ['id,name,description,category,starting_price'];
    for (let i = 0; i < 2500; i++) lines.push(`${prefix}-${i},Bulk lamp ${i},Lamp number ${i},${i % 2 ? category.slug : ''},${10 + i}`);
    const [before, indexed] = [await productCount(), await lotSearchCount()];
    const res = await importCsv(lines.join('\n'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ created: 2500 });
    expect(await productCount()).toBe(before + 2500);
    expect(await lotSearchCount()).toBe(indexed + 2500);
    const last = await sqlRow<{ name: string; starting_price: number | string; category_id: number | null }>(app, 'select name, starting_price, category_id from products where id = ?', `${prefix}-2499`);
    expect({ ...last, starting_price: Number(last!.starting_price) }).toEqual({ name: 'Bulk lamp 2499', starting_price: 250_900, category_id: category.id });

    // The same ids again, but for one new row: only the taken ones are named, on their lines, and nothing is written.
    const again = [lines[0]!, `${prefix}-new,New lamp,x,,1`, ...lines.slice(2401, 2404)];
    const rows = problems(await importCsv(again.join('\n')), 409, 'ID_TAKEN');
    expect(rows.map((r) => [r.line, r.field])).toEqual([[3, 'id'], [4, 'id'], [5, 'id']]);
    expect(rows[0]!.message).toMatch(new RegExp(`${prefix}-2400 already exists`));
    expect(await productCount()).toBe(before + 2500);
    expect(await lotSearchCount()).toBe(indexed + 2500);
  });

  it('names every bad row by line (the header is line 1) and creates nothing', async () => {
    const before = await productCount();
    const rows = problems(await importCsv([
      'id,name,description,starting_price,reserve_price',
      `${uniqueName('IMG')},Good,fine,10,`,
      `${uniqueName('IMB')},,no name,10,`,
      `${uniqueName('IMG')},Good too,fine,10,`,
      `${uniqueName('IMB')},Cheap reserve,x,100,50`,
    ].join('\n')));
    expect(rows.map((r) => [r.line, r.field])).toEqual([[3, 'name'], [5, 'reserve_price']]);
    expect(await productCount()).toBe(before);
  });

  it('refuses an id twice in the file, an id taken, an unknown category, a bad price', async () => {
    const taken = uniqueName('IMT');
    expect((await call(app, 'POST', '/api/admin/product', { id: taken, name: 'First', description: 'x' }, other.token)).statusCode).toBe(201);
    const twice = uniqueName('IMD');
    const before = await productCount();
    const rows = problems(await importCsv([
      'id,name,description,category,starting_price',
      `${twice},One,x,,`,
      `${twice},Two,x,,`,
      `${taken},Three,x,,`,
      `${uniqueName('IMC')},Four,x,no-such-category,`,
      `${uniqueName('IMC')},Five,x,999999,`,
      `${uniqueName('IMP')},Six,x,,10.005`,
      `${uniqueName('IMP')},Seven,x,,ten`,
    ].join('\n')));
    expect(rows.map((r) => [r.line, r.field])).toEqual([[3, 'id'], [4, 'id'], [5, 'category'], [6, 'category'], [7, 'starting_price'], [8, 'starting_price']]);
    expect(rows[1]!.message).toMatch(/already exists/);
    expect(await productCount()).toBe(before);
  });

  it('reads quoted fields with commas, quotes and line breaks, and a BOM', async () => {
    const id = uniqueName('IMQ');
    const res = await importCsv(`\uFEFFid,name,description\r\n${id},"Lamp, brass","Says ""hello""\r\non two lines"\r\n`);
    expect(res.statusCode, res.body).toBe(201);
    const product = (await call(app, 'GET', `/api/products/${id}`, undefined, admin.token)).json<{ name: string; description: string }>();
    expect(product.name).toBe('Lamp, brass');
    expect(product.description).toBe('Says "hello"\r\non two lines');
  });

  it('refuses an unknown column, a missing name column, and more than 10,000 rows', async () => {
    const unknown = problems(await importCsv(`id,name,description,colour\n${uniqueName('IMU')},A,b,red\n`));
    expect(unknown).toEqual([expect.objectContaining({ line: 1, field: 'colour' })]);
    expect(unknown[0]!.message).toMatch(/colour/);
    const missing = problems(await importCsv(`id,description\n${uniqueName('IMU')},b\n`));
    expect(missing).toEqual([expect.objectContaining({ line: 1, field: 'name' })]);
    const before = await productCount();
    const many = ['id,name,description', ...Array.from({ length: 10_001 }, (_, i) => `IMN${process.pid}_${i},N,d`)].join('\n');
    const big = problems(await importCsv(many));
    expect(big[0]!.message).toMatch(/10000/);
    expect(await productCount()).toBe(before);
  });

  it('takes the multipart field file too', async () => {
    const id = uniqueName('IMM');
    const form = multipart([{ field: 'file', bytes: `id,name,description\n${id},Multipart lamp,x\n`, filename: 'p.csv', contentType: 'text/csv' }]);
    const res = await app.inject({ method: 'POST', url: '/api/admin/products/import', payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${admin.token}` } });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('is for admins only; a body over 5 MiB is 413', async () => {
    const csv = `id,name,description\n${uniqueName('IMA')},A,b\n`;
    expect((await importCsv(csv, null)).statusCode).toBe(401);
    expect((await importCsv(csv, bidder.token)).statusCode).toBe(403);
    expect((await call(app, 'GET', '/api/admin/products/export')).statusCode).toBe(401);
    expect((await call(app, 'GET', '/api/admin/products/export', undefined, bidder.token)).statusCode).toBe(403);
    const huge = await importCsv(`id,name,description\n${'x'.repeat(5 * 1024 * 1024)}`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: 'Request body must not exceed 5 MiB' });
  });
});

describe('GET /api/admin/products/export', () => {
  it('round-trips through an import into another admin’s account, defused cells back as they were', async () => {
    const seller = await signUpAdmin(app);
    const buyer = await signUpAdmin(app);
    const csv = [
      'id,name,description,category,starting_price,reserve_price,buy_now_price',
      `${uniqueName('IME')},"=HYPERLINK(""x"")","Line one\nline, two",${category.slug},1500.5,2000,9999.99`,
      `${uniqueName('IME')},Plain,-not a number,,0,,`,
    ].join('\n');
    expect((await importCsv(csv, seller.token)).statusCode).toBe(201);
    const exported = await exportCsv(seller.token);
    expect(exported).toContain(`"'=HYPERLINK(""x"")"`);
    expect(exported).toContain(`'-not a number`);
    // Another admin imports it under new ids.
    const lines = exported.split('\r\n');
    const renamed = lines.map((line, i) => (i === 0 || line === '' ? line : line.replace(/^IME/, 'IMF'))).join('\r\n');
    expect((await importCsv(renamed, buyer.token)).statusCode).toBe(201);
    const reexported = await exportCsv(buyer.token);
    expect(reexported.replace(/IMF/g, 'IME')).toBe(exported);
    const list = (await call(app, 'GET', '/api/admin/products/unassigned', undefined, buyer.token)).json<{ name: string; starting_price: number; reserve_price: number | null; buy_now_price: number | null }[]>();
    expect(list.map((p) => [p.name, p.starting_price, p.reserve_price, p.buy_now_price]).sort()).toEqual([
      ['=HYPERLINK("x")', 1500.5, 2000, 9999.99],
      ['Plain', 0, null, null],
    ].sort());
  });
});
