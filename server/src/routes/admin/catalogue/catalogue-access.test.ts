/**
 * Admin catalogue API, access: every admin catalogue route is for admin tokens only.
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { call, createProducts, expectError, signUpAdmin, signUpUser } from '../../../test/helpers.js';
import { type Method, adminAuction, app, get, inHours, newAuction, unassigned, withApp } from '../../../test/catalogue-helpers.js';

describe('access: every admin catalogue route', () => {
  withApp();

  /** In an order in which an admin's token succeeds at every step (settle uses a second auction `s`). */
  const routes = (p: string, a: string, s: string): [Method, string, unknown?][] => [
    ['POST', '/api/admin/product', { id: 'NEW-P', name: 'New', description: 'New product' }],
    ['PUT', `/api/admin/product/${p}`, { name: 'Renamed', description: 'Changed' }],
    ['GET', '/api/admin/products/unassigned'],
    ['POST', '/api/admin/auction', { id: 'NEW-A', name: 'New auction', valid_until: inHours(5), product_ids: ['NEW-P'] }],
    ['PUT', `/api/admin/auction/${a}`, { name: 'Renamed', valid_until: inHours(5) }],
    ['GET', `/api/admin/auction/${a}`],
    ['GET', '/api/admin/all_auctions'],
    ['GET', `/api/admin/auction_products/${a}`],
    ['GET', '/api/admin/auctions/my'],
    ['GET', `/api/admin/auction/${a}/products`],
    ['POST', `/api/admin/auction/${s}/settle`],
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/reports'],
    ['GET', '/api/admin/settings'],
    ['DELETE', `/api/admin/product/${p}`],
    ['DELETE', `/api/admin/auction/${a}`],
  ];

  it('401 UNAUTHENTICATED without a token or with a bad one, 403 FORBIDDEN with a bidder token; nothing changes', async () => {
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    const { auctionId } = await newAuction(admin.token);
    const { auctionId: toSettle } = await newAuction(admin.token);
    const [p] = await createProducts(app, admin.token, 1);
    const state = async () => ({
      auction: await adminAuction(auctionId, admin.token), settle: await adminAuction(toSettle, admin.token), unassigned: await unassigned(admin.token),
    });
    const before = await state();
    const list = routes(p!, auctionId, toSettle);
    expect(list).toHaveLength(16);

    for (const [method, url, body] of list) {
      expectError(await call(app, method, url, body), 401, 'UNAUTHENTICATED');
      expectError(await call(app, method, url, body, 'not-a-jwt'), 401, 'UNAUTHENTICATED');
      const forbidden = expectError(await call(app, method, url, body, user.token), 403, 'FORBIDDEN');
      expect(forbidden.error, `${method} ${url}`).toBe('This action is for admin accounts');
    }

    expect(await state()).toEqual(before);
    expect(before.settle.status).toBe('active');
    expectError(await get('/api/admin/auction/NEW-A', admin.token), 404, 'NOT_FOUND');
    // The same calls with the admin's token succeed, so the refusals above came from the guard.
    for (const [method, url, body] of list) {
      const res = await call(app, method, url, body, admin.token);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(method === 'POST' && !url.endsWith('/settle') ? 201 : 200);
    }
  });
});
