/**
 * Admin catalogue API, validation: 400 VALIDATION with the field and the exact message for every
 * field of the catalogue bodies, and bodies of the wrong shape; nothing is written.
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createProducts, expectError, signUpAdmin } from '../../../test/helpers.js';
import {
  type Account, type Method, adminProducts, app, DATE_TIME, DESCRIPTION_LONG, expectValidation, FILL_AUCTION, FILL_AUCTION_EDIT, FILL_PRODUCT,
  FILL_PRODUCT_EDIT, FUTURE, get, ID_RULE, inHours, NAME_LONG, newAuction, raw, unassigned, withApp,
} from '../../../test/catalogue-helpers.js';

describe('validation: 400 VALIDATION with the field and the exact message; nothing is written', () => {
  withApp('all');
  let admin: Account;
  let freeProduct: string;
  let auctionId: string;
  let auctionProduct: string;
  let snapshot: () => Promise<unknown>;

  beforeAll(async () => {
    admin = await signUpAdmin(app);
    [freeProduct] = (await createProducts(app, admin.token, 1, 'FREE')) as [string];
    const created = await newAuction(admin.token, { id: 'AUC-1' });
    auctionId = created.auctionId;
    auctionProduct = created.productIds[0]!;
    snapshot = async () => ({
      unassigned: await unassigned(admin.token),
      auctions: (await get('/api/admin/all_auctions', admin.token)).json(),
      products: await adminProducts(auctionId, admin.token),
    });
  });

  const longText = (n: number) => 'x'.repeat(n);

  describe('POST /api/admin/product', () => {
    const base = { id: 'NEW-PRODUCT', name: 'Teak chair', description: 'Hand carved' };
    it.each<[string, Record<string, unknown>, string]>([
      ['id', { id: undefined }, FILL_PRODUCT],
      ['name', { name: undefined }, FILL_PRODUCT],
      ['description', { description: undefined }, FILL_PRODUCT],
      ['id', { id: '' }, FILL_PRODUCT],
      ['id', { id: '   ' }, FILL_PRODUCT],
      ['name', { name: '' }, FILL_PRODUCT],
      ['name', { name: ' \t ' }, FILL_PRODUCT],
      ['description', { description: '' }, FILL_PRODUCT],
      ['description', { description: '   ' }, FILL_PRODUCT],
      ['id', { id: 'has space' }, ID_RULE],
      ['id', { id: 'slash/id' }, ID_RULE],
      ['id', { id: 'prodé' }, ID_RULE],
      ['id', { id: longText(65) }, ID_RULE],
      ['name', { name: longText(121) }, NAME_LONG],
      ['description', { description: longText(2001) }, DESCRIPTION_LONG],
      ['id', { id: 42 }, 'id must be a string'],
      ['name', { name: { first: 'Teak' } }, 'name must be a string'],
      ['name', { name: true }, 'name must be a string'],
      ['description', { description: ['Hand', 'carved'] }, 'description must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'POST', '/api/admin/product', { ...base, ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('PUT /api/admin/product/{id}', () => {
    const base = { name: 'Teak chair', description: 'Hand carved' };
    it.each<[string, Record<string, unknown>, string]>([
      ['name', { name: undefined }, FILL_PRODUCT_EDIT],
      ['description', { description: undefined }, FILL_PRODUCT_EDIT],
      ['name', { name: '' }, FILL_PRODUCT_EDIT],
      ['name', { name: '   ' }, FILL_PRODUCT_EDIT],
      ['description', { description: '' }, FILL_PRODUCT_EDIT],
      ['description', { description: '\n ' }, FILL_PRODUCT_EDIT],
      ['name', { name: longText(121) }, NAME_LONG],
      ['description', { description: longText(2001) }, DESCRIPTION_LONG],
      ['name', { name: 5 }, 'name must be a string'],
      ['description', { description: { text: 'x' } }, 'description must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'PUT', `/api/admin/product/${freeProduct}`, { ...base, ...over }, admin.token), field, message);
      expectValidation(await call(app, 'PUT', `/api/admin/product/${auctionProduct}`, { ...base, ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('POST /api/admin/auction', () => {
    const base = () => ({ id: 'NEW-AUCTION', name: 'Winter sale', valid_until: inHours(24), product_ids: [freeProduct] });
    it.each<[string, Record<string, unknown>, string]>([
      ['id', { id: undefined }, FILL_AUCTION],
      ['name', { name: undefined }, FILL_AUCTION],
      ['valid_until', { valid_until: undefined }, FILL_AUCTION],
      ['product_ids', { product_ids: undefined }, FILL_AUCTION],
      ['id', { id: '' }, FILL_AUCTION],
      ['name', { name: '  ' }, FILL_AUCTION],
      ['valid_until', { valid_until: '' }, FILL_AUCTION],
      ['valid_until', { valid_until: '   ' }, FILL_AUCTION],
      ['product_ids', { product_ids: [] }, FILL_AUCTION],
      ['id', { id: 'bad id!' }, ID_RULE],
      ['id', { id: longText(65) }, ID_RULE],
      ['name', { name: longText(121) }, NAME_LONG],
      ['valid_until', { valid_until: 'next friday' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-02-30T10:00' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-24T25:00' }, DATE_TIME],
      ['valid_until', { valid_until: '24/11/2026 07:45' }, DATE_TIME],
      ['valid_until', { valid_until: `2026-11-24T07:45:00.000${'0'.repeat(30)}Z` }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-23T23:59:59Z' }, FUTURE],
      ['valid_until', { valid_until: '2026-11-24T00:00:00.000Z' }, FUTURE],
      // 05:29 in Kolkata is 23:59 UTC the day before: in the past, although it would be the future in UTC.
      ['valid_until', { valid_until: '2026-11-24T05:29' }, FUTURE],
      ['id', { id: 7 }, 'id must be a string'],
      ['name', { name: ['Winter'] }, 'name must be a string'],
      ['valid_until', { valid_until: Date.parse('2026-12-01T00:00:00Z') }, 'valid_until must be a string'],
      ['valid_until', { valid_until: { date: '2026-12-01' } }, 'valid_until must be a string'],
      ['product_ids', { product_ids: 'FREE-0' }, 'product_ids must be an array'],
      ['product_ids', { product_ids: { 0: 'FREE-0' } }, 'product_ids must be an array'],
      ['product_ids.0', { product_ids: [7] }, 'product_ids.0 must be a string'],
      ['product_ids.0', { product_ids: [{ id: 'FREE-0' }] }, 'product_ids.0 must be a string'],
      ['product_ids.0', { product_ids: ['bad id'] }, 'product_ids item must be 1–64 characters: letters, digits, _ - or .'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'POST', '/api/admin/auction', { ...base(), ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('PUT /api/admin/auction/{id}', () => {
    const base = () => ({ name: 'Winter sale', valid_until: inHours(24) });
    it.each<[string, Record<string, unknown>, string]>([
      ['name', { name: undefined }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: undefined }, FILL_AUCTION_EDIT],
      ['name', { name: '' }, FILL_AUCTION_EDIT],
      ['name', { name: '  ' }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: '' }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: '   ' }, FILL_AUCTION_EDIT],
      ['name', { name: longText(121) }, NAME_LONG],
      ['valid_until', { valid_until: 'soon' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-23T12:00:00Z' }, FUTURE],
      ['valid_until', { valid_until: '2026-11-24T05:00' }, FUTURE],
      ['product_ids', { product_ids: [] }, 'Select at least one product'],
      ['name', { name: 1 }, 'name must be a string'],
      ['valid_until', { valid_until: 1795000000000 }, 'valid_until must be a string'],
      ['product_ids', { product_ids: 'FREE-0' }, 'product_ids must be an array'],
      ['product_ids.0', { product_ids: [null] }, 'product_ids.0 must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { ...base(), ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('bodies of the wrong shape (array, string, number, null, nothing, broken JSON) are 400, never 500; > 64 KiB is 413, text is 415', async () => {
    const before = await snapshot();
    const targets: [Method, string][] = [
      ['POST', '/api/admin/product'], ['PUT', `/api/admin/product/${freeProduct}`],
      ['POST', '/api/admin/auction'], ['PUT', `/api/admin/auction/${auctionId}`],
    ];
    for (const [method, url] of targets) {
      for (const payload of ['[]', '"text"', '42', 'null', 'true', '[{"id":"x"}]']) {
        expectValidation(await raw(method, url, admin.token, payload), 'body', 'body must be a JSON object');
      }
      expect(expectError(await raw(method, url, admin.token, '{"id": '), 400, 'VALIDATION').error).toBe('Request body is not valid JSON');
      expect((await raw(method, url, admin.token)).statusCode, `${method} ${url} without a body`).toBe(400);
      expect((await raw(method, url, admin.token, '{"name": null, "description": null, "id": null, "valid_until": null, "product_ids": null}')).statusCode).toBe(400);
      const big = await raw(method, url, admin.token, JSON.stringify({ id: 'BIG', name: 'Big', description: 'x'.repeat(70 * 1024), valid_until: inHours(5), product_ids: [freeProduct] }));
      expectError(big, 413, 'PAYLOAD_TOO_LARGE');
      const text = await app.inject({ method, url, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/plain' }, payload: 'id=x' });
      expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await snapshot()).toEqual(before);
  });
});
