/**
 * `Cache-Control: no-store` on personal answers (docs/deploy.md#personal-answers-are-never-stored):
 * every answer to a request that carries a token, every answer of a personal area (account, wallet,
 * bids, notifications, saved lots, admin) and every answer to a write (sign-in and sign-up answers hold
 * tokens) says no-store, errors included; a visitor's catalogue reads keep what they had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../context.js';
import { call, createAuction, makeApp, richBidder, signUpAdmin, signUpUser, uniqueName } from '../test/helpers.js';

let app: App;
beforeAll(async () => { app = await makeApp(); });
afterAll(() => app.close());

const cacheControl = (res: LightMyRequestResponse) => res.headers['cache-control'];

describe('Cache-Control: no-store on personal answers', () => {
  it('sign-up and sign-in answers (sign-in answers hold tokens), and the refusals of those', async () => {
    const name = uniqueName('nostore');
    const answers = [
      await call(app, 'POST', '/api/register', { name: 'Asha', username: name, password: 'secret1', mobile_number: '9876543210' }),
      await call(app, 'POST', '/api/login', { username: name, password: 'secret1' }),
      await call(app, 'POST', '/api/admin/register', { name: 'House', username: `${name}a`, password: 'secret1', mobile_number: '9876543210', role: 'admin' }),
      await call(app, 'POST', '/api/admin/login', { username: `${name}a`, password: 'secret1', role: 'admin' }),
      await call(app, 'POST', '/api/login', { username: name, password: 'wrong-password' }),
      await call(app, 'POST', '/api/register', { username: '' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 200, 201, 200, 400, 400]);
    expect([answers[1]!, answers[3]!].every((r) => typeof r.json<{ token?: unknown }>().token === 'string')).toBe(true);
    for (const res of answers) expect(cacheControl(res), res.body).toBe('no-store');
  });

  it('every answer to a request with a token, on the personal routes and on public reads alike, errors included', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [productId] } = await createAuction(app, admin.token);
    const bidder = await richBidder(app, 1000, [auctionId]);
    const asUser: ['GET', string, number][] = [
      ['GET', '/api/me', 200],
      ['GET', '/api/wallet/transactions', 200],
      ['GET', '/api/user-bids', 200],
      ['GET', '/api/notifications', 200],
      ['GET', '/api/saved', 200],
      ['GET', '/api/auctions', 200],
      ['GET', '/api/catalogue/auctions', 200],
      ['GET', `/api/products/${productId}`, 200],
      ['GET', `/api/auctions/${auctionId}/products`, 200],
      ['GET', '/api/categories', 200],
      ['GET', '/api/time', 200],
      ['GET', '/api/products/no-such-lot', 404],
      ['GET', '/api/admin/products', 403],
      ['GET', '/api/no-such-route', 404],
    ];
    for (const [method, url, status] of asUser) {
      const res = await call(app, method, url, undefined, bidder.token);
      expect(res.statusCode, url).toBe(status);
      expect(cacheControl(res), `${url} ${res.statusCode}`).toBe('no-store');
    }
    for (const url of ['/api/admin/products', '/api/admin/stats', '/api/admin/auction/no-such-auction']) {
      const res = await call(app, 'GET', url, undefined, admin.token);
      expect(cacheControl(res), `${url} ${res.statusCode}`).toBe('no-store');
    }
    // A write with a token, accepted or refused.
    const placed = await call(app, 'POST', '/api/bid', { product_id: productId, bid_amount: 100 }, bidder.token);
    const refused = await call(app, 'POST', '/api/bid', { product_id: productId, bid_amount: 'lots' }, bidder.token);
    expect([placed.statusCode, refused.statusCode]).toEqual([201, 400]);
    expect([cacheControl(placed), cacheControl(refused)]).toEqual(['no-store', 'no-store']);
    // A token that is no longer any good is still one: its 401 is not stored either.
    const stale = await call(app, 'GET', '/api/me', undefined, 'not-a-token');
    expect([stale.statusCode, cacheControl(stale)]).toEqual([401, 'no-store']);
  });

  it('the personal areas without a token (their 401s), and the list of auctions still answers 304 to its ETag', async () => {
    for (const url of ['/api/me', '/api/wallet/transactions', '/api/user-bids', '/api/notifications', '/api/saved', '/api/admin/products', '/api/auctions']) {
      const res = await call(app, 'GET', url);
      expect(res.statusCode, url).toBe(401);
      expect(cacheControl(res), url).toBe('no-store');
    }
    const user = await signUpUser(app);
    const first = await call(app, 'GET', '/api/auctions', undefined, user.token);
    expect(first.headers.etag).toBeTruthy();
    const again = await app.inject({ method: 'GET', url: '/api/auctions', headers: { authorization: `Bearer ${user.token}`, 'if-none-match': String(first.headers.etag) } });
    expect([again.statusCode, cacheControl(again)]).toEqual([304, 'no-store']);
  });

  it('a visitor’s catalogue reads keep what they had (nothing), and so does a health check', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [productId] } = await createAuction(app, admin.token);
    for (const url of ['/api/catalogue/auctions', '/api/catalogue/lots', '/api/categories', `/api/products/${productId}`, `/api/auctions/${auctionId}/products`, '/api/time', '/api/health']) {
      const res = await call(app, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(cacheControl(res), url).toBeUndefined();
    }
  });
});
