/**
 * Access control, route by route: every API route × every kind of caller, with the
 * status its role and ownership give (401 without a valid token, 403 for the wrong role or not the owner). The routes come from the live route table (the app's OpenAPI document,
 * cross-checked against every route Fastify serves), so a route added without an entry here fails.
 *
 * Targets (bids, auctions, products, wallets) belong to `user` and to `admin`, their creator; each cell
 * builds fresh ones, so a cell that succeeds leaves nothing behind for the next. A refused call must
 * change nothing in the database.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import {
  bid, call, createAuction, createProducts, expectError, expectMoneyInvariant, makeApp, richBidder, signUpAdmin, signUpUser, sqlRows, TEST_SECRET, uniqueName,
} from '../test/helpers.js';
import { connectWs, eventually, listen } from '../test/live-helpers.js';
import { addPhoto, multipart, picture } from '../test/photo-helpers.js';

const WHO = ['none', 'expired', 'user', 'otherUser', 'admin', 'otherAdmin', 'owner', 'deactivated'] as const;
/**
 * none: no token. expired: `user`'s token, correctly signed, past its expiry.
 * user / otherUser: bidders; `user` owns the targets. admin / otherAdmin: admins; `admin` created
 * the targets. owner: the platform owner (the first admin), not the creator.
 * deactivated: a bidder the owner deactivated (their token is revoked).
 */
type Who = (typeof WHO)[number];
type Signed = Exclude<Who, 'none' | 'expired'>;

/** A status, or a status and the error code it must carry. */
type Outcome = number | readonly [number, string];
type Expected = Record<Who, Outcome>;

interface Account { id: number; username: string; password: string }
interface Fixture {
  app: App;
  token: Record<Who, string | undefined>;
  acct: Record<Signed, Account>;
  /** admin's auction with product p0, on which `user` (registered) leads with bid0. */
  a0: string;
  p0: string;
  bid0: number;
  /** admin's unassigned product. */
  u0: string;
}

/** `raw`: a body sent as it is, with its own headers (a multipart photo upload), instead of JSON. */
interface Request { url: string; body?: unknown; raw?: { payload: Buffer; headers: Record<string, string> } }
interface Case {
  /** What the variant probes, when a route has several. */
  label?: string;
  request: (fx: Fixture) => Promise<Request> | Request;
  expect: Expected;
  /** Extra assertions on a 2xx answer: nothing of another account leaks. */
  check?: (who: Signed, res: LightMyRequestResponse, fx: Fixture) => void;
  /** A successful change of password revokes the caller's token: carry on with the fresh one. */
  refreshesToken?: boolean;
}

// ---- expectations, by role (401 only for a missing/invalid/revoked token, 403 for the wrong role or not the owner)

const everyone = (s: Outcome): Expected => ({ none: s, expired: s, user: s, otherUser: s, admin: s, otherAdmin: s, owner: s, deactivated: s });
const signedIn = (allowed: Partial<Record<Exclude<Signed, 'deactivated'>, Outcome>>): Expected =>
  ({ none: 401, expired: 401, deactivated: 401, user: 403, otherUser: 403, admin: 403, otherAdmin: 403, owner: 403, ...allowed });
const anyRole = (s: Outcome) => signedIn({ user: s, otherUser: s, admin: s, otherAdmin: s, owner: s });
/** User routes; `otherUser` gets `other` when the request names or targets `user`'s things. */
const userRole = (s: Outcome, other: Outcome = s) => signedIn({ user: s, otherUser: other });
/** Admin routes; the other admins (the owner included) get `other` when the target is `admin`'s. */
const adminRole = (s: Outcome, other: Outcome = s) => signedIn({ admin: s, otherAdmin: other, owner: other });
const ownerRole = (s: Outcome) => signedIn({ owner: s });

/** A lot's history names its bidders as the caller may see them: "You" for the bidder, usernames for the auction's own admin, aliases for everyone else. */
const historyBidders: Case['check'] = (who, res, fx) => {
  const bidders = res.json<{ bids: { bidder: string }[] }>().bids.map((b) => b.bidder);
  expect(bidders.length).toBeGreaterThan(0);
  const expected = who === 'user' ? 'You' : who === 'admin' ? fx.acct.user.username : 'Bidder 1';
  for (const b of bidders) expect(b, `bidder shown to ${who}`).toBe(expected);
};

// ---- fresh targets

const PASSWORD = 'secret1';
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

async function freshAuction(fx: Fixture, registered: Signed[] = ['user']) {
  const { auctionId, productIds: [productId] } = await createAuction(fx.app, fx.token.admin!);
  for (const who of registered) {
    const res = await call(fx.app, 'POST', '/api/auctions/register', { auction_id: auctionId }, fx.token[who]);
    expect(res.statusCode, res.body).toBe(200);
  }
  return { auctionId, productId: productId! };
}

async function freshBidOfUser(fx: Fixture) {
  const { productId } = await freshAuction(fx);
  const res = await bid(fx.app, fx.token.user!, productId, 100);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bid: { bid_id: number } }>().bid.bid_id;
}

const freshProduct = async (fx: Fixture) => (await createProducts(fx.app, fx.token.admin!, 1))[0]!;
const callerId = (fx: Fixture, who: Signed) => fx.acct[who].id;
/** A category made by `admin` (categories are any admin's to manage). */
const freshCategory = async (fx: Fixture) => {
  const res = await call(fx.app, 'POST', '/api/admin/categories', { name: uniqueName('Matrix category ') }, fx.token.admin);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ category: { id: number } }>().category.id;
};
const newAccount = () => ({ name: 'Matrix Person', username: uniqueName('mx'), password: PASSWORD, mobile_number: '9876543210' });

// ---- the table: one entry per `METHOD /path` of the OpenAPI document

const TABLE: Record<string, Case[]> = {
  // public
  'GET /api/health': [{ request: () => ({ url: '/api/health' }), expect: everyone(200) }],
  'GET /api/time': [{ request: () => ({ url: '/api/time' }), expect: everyone(200) }],
  'GET /api/demo': [{ request: () => ({ url: '/api/demo' }), expect: everyone(200) }],
  'POST /api/register': [{ request: () => ({ url: '/api/register', body: newAccount() }), expect: everyone(201) }],
  'POST /api/login': [{ request: (fx) => ({ url: '/api/login', body: { username: fx.acct.user.username, password: PASSWORD } }), expect: everyone(200) }],
  'POST /api/admin/register': [{ request: () => ({ url: '/api/admin/register', body: { ...newAccount(), role: 'admin' } }), expect: everyone(201) }],
  'POST /api/admin/login': [{ request: (fx) => ({ url: '/api/admin/login', body: { username: fx.acct.admin.username, password: PASSWORD, role: 'admin' } }), expect: everyone(200) }],

  // accounts
  'POST /api/change-password': [
    { label: 'own password', request: () => ({ url: '/api/change-password', body: { password: PASSWORD, new_password: PASSWORD } }), expect: userRole(200), refreshesToken: true },
    {
      label: 'body names the bidder by username',
      request: (fx) => ({ url: '/api/change-password', body: { password: PASSWORD, new_password: PASSWORD, username: fx.acct.user.username } }),
      expect: userRole(200, 403), refreshesToken: true,
    },
    {
      label: 'body names the bidder by user_id',
      request: (fx) => ({ url: '/api/change-password', body: { password: PASSWORD, new_password: PASSWORD, user_id: fx.acct.user.id } }),
      expect: userRole(200, 403), refreshesToken: true,
    },
  ],
  'POST /api/admin/change-password': [
    { label: 'own password', request: () => ({ url: '/api/admin/change-password', body: { password: PASSWORD, new_password: PASSWORD, role: 'admin' } }), expect: adminRole(200), refreshesToken: true },
    {
      label: 'body names the admin (the spec payload)',
      request: (fx) => ({ url: '/api/admin/change-password', body: { username: fx.acct.admin.username, password: PASSWORD, new_password: PASSWORD, role: 'admin' } }),
      expect: adminRole(200, 403), refreshesToken: true,
    },
  ],

  // reads for any signed-in account
  'GET /api/auctions': [{
    request: () => ({ url: '/api/auctions' }),
    expect: anyRole(200),
    check: (who, res, fx) => {
      const mine = who === 'user' || who === 'otherUser' ? [callerId(fx, who)] : [];
      for (const a of res.json<{ id: string; registrations: number[]; registered: boolean }[]>()) {
        expect(mine, `registrations of ${a.id}`).toEqual(expect.arrayContaining(a.registrations));
      }
      const a0 = res.json<{ id: string; registered: boolean }[]>().find((a) => a.id === fx.a0);
      expect(a0?.registered).toBe(who === 'user');
    },
  }],
  'GET /api/auctions/{id}/products': [{ request: (fx) => ({ url: `/api/auctions/${fx.a0}/products` }), expect: everyone(200) }],
  'GET /api/bids': [{
    request: (fx) => ({ url: `/api/bids?product_key=${fx.p0}` }),
    expect: anyRole(200),
    check: (who, res, fx) => {
      const bidders = res.json<{ bidder: string }[]>().map((b) => b.bidder);
      expect(bidders.length).toBeGreaterThan(0);
      // Only the auction's own admin sees who bid.
      for (const b of bidders) expect(b === fx.acct.user.username, `bidder ${b} shown to ${who}`).toBe(who === 'admin');
    },
  }],
  'GET /api/highest-bid': [{ request: (fx) => ({ url: `/api/highest-bid?product_key=${fx.p0}` }), expect: anyRole(200) }],
  'GET /api/time-left': [{ request: (fx) => ({ url: `/api/time-left?product_key=${fx.p0}` }), expect: anyRole(200) }],

  // bidder routes
  'POST /api/auctions/register': [{ request: async (fx) => ({ url: '/api/auctions/register', body: { auction_id: (await freshAuction(fx, [])).auctionId } }), expect: userRole(200) }],
  'GET /api/my_auctions': [{
    request: () => ({ url: '/api/my_auctions' }),
    expect: userRole(200),
    check: (who, res, fx) => {
      const details = res.json<{ user_details: { id: number; auctions: string[] } }>().user_details;
      expect(details.id).toBe(callerId(fx, who));
      expect(details.auctions.includes(fx.a0)).toBe(who === 'user');
    },
  }],
  'POST /api/bid': [
    { label: 'no name in the body', request: async (fx) => ({ url: '/api/bid', body: { product_id: (await freshAuction(fx, ['user', 'otherUser'])).productId, bid_amount: 100 } }), expect: userRole(201) },
    {
      label: 'bidding as user_id = the bidder',
      request: async (fx) => ({ url: '/api/bid', body: { product_id: (await freshAuction(fx, ['user', 'otherUser'])).productId, bid_amount: 100, user_id: fx.acct.user.id } }),
      expect: userRole(201, 403),
    },
    {
      label: 'user_id holding the bidder’s username (existing clients)',
      request: async (fx) => ({ url: '/api/bid', body: { product_name: (await freshAuction(fx, ['user', 'otherUser'])).productId, bid_amount: 100, user_id: fx.acct.user.username } }),
      expect: userRole(201, 403),
    },
    {
      label: 'username = the bidder',
      request: async (fx) => ({ url: '/api/bid', body: { product_id: (await freshAuction(fx, ['user', 'otherUser'])).productId, bid_amount: 100, username: fx.acct.user.username } }),
      expect: userRole(201, 403),
    },
  ],
  // A lot without a buy-now price: the bidder reaches the rule (409 BUY_NOW_UNAVAILABLE), nobody else gets that far.
  'POST /api/buy-now': [{ request: async (fx) => ({ url: '/api/buy-now', body: { product_id: (await freshAuction(fx, ['user', 'otherUser'])).productId } }), expect: userRole(409) }],
  'POST /api/rollback-bid': [
    { label: 'the bidder’s leading bid', request: async (fx) => ({ url: '/api/rollback-bid', body: { bid_id: await freshBidOfUser(fx) } }), expect: userRole(200, 403) },
    {
      label: 'the bidder’s leading bid, body naming the bidder',
      request: async (fx) => ({ url: '/api/rollback-bid', body: { bid_id: String(await freshBidOfUser(fx)), username: fx.acct.user.username } }),
      expect: userRole(200, 403),
    },
  ],
  'GET /api/user-bids': [{
    request: () => ({ url: '/api/user-bids' }),
    expect: userRole(200),
    check: (who, res, fx) => expect(res.json<{ bid_id: number }[]>().some((b) => b.bid_id === fx.bid0)).toBe(who === 'user'),
  }],
  'GET /api/user-bids/auction/{id}': [{
    request: (fx) => ({ url: `/api/user-bids/auction/${fx.a0}` }),
    expect: userRole(200),
    check: (who, res) => expect(res.json<unknown[]>().length > 0).toBe(who === 'user'),
  }],
  'POST /api/wallet': [
    { label: 'no name in the body', request: () => ({ url: '/api/wallet', body: {} }), expect: userRole(200) },
    { label: 'reading the bidder’s wallet by username', request: (fx) => ({ url: '/api/wallet', body: { username: fx.acct.user.username } }), expect: userRole(200, 403) },
    { label: 'reading the bidder’s wallet by user_id', request: (fx) => ({ url: '/api/wallet', body: { user_id: fx.acct.user.id } }), expect: userRole(200, 403) },
  ],
  'POST /api/wallet/topup': [{ request: () => ({ url: '/api/wallet/topup', body: { amount: 10 } }), expect: userRole(200) }],
  'GET /api/wallet/transactions': [{
    request: () => ({ url: '/api/wallet/transactions' }),
    expect: userRole(200),
    check: (who, res, fx) => {
      const onP0 = res.json<{ transactions: { meta: { product_id: string | null } }[] }>().transactions.filter((t) => t.meta.product_id === fx.p0);
      expect(onP0.length > 0).toBe(who === 'user');
    },
  }],

  // admin catalogue: the creator changes; any admin reads
  'POST /api/admin/product': [{ request: () => ({ url: '/api/admin/product', body: { id: uniqueName('MP'), name: 'Matrix product', description: 'x' } }), expect: adminRole(201) }],
  'PUT /api/admin/product/{id}': [{ request: async (fx) => ({ url: `/api/admin/product/${await freshProduct(fx)}`, body: { name: 'Renamed', description: 'y' } }), expect: adminRole(200, 403) }],
  'DELETE /api/admin/product/{id}': [{ request: async (fx) => ({ url: `/api/admin/product/${await freshProduct(fx)}` }), expect: adminRole(200, 403) }],
  // categories: read by anyone, managed by any admin (docs/catalogue.md)
  'GET /api/categories': [{ request: () => ({ url: '/api/categories' }), expect: everyone(200) }],
  'GET /api/catalogue/lots': [{ request: () => ({ url: '/api/catalogue/lots?q=product' }), expect: everyone(200) }],
  'GET /api/catalogue/auctions': [{ request: () => ({ url: '/api/catalogue/auctions' }), expect: everyone(200) }],
  'POST /api/admin/categories': [{ request: () => ({ url: '/api/admin/categories', body: { name: uniqueName('Matrix category ') } }), expect: adminRole(201) }],
  'PUT /api/admin/categories/{id}': [{ request: async (fx) => ({ url: `/api/admin/categories/${await freshCategory(fx)}`, body: { name: uniqueName('Renamed ') } }), expect: adminRole(200) }],
  'DELETE /api/admin/categories/{id}': [{ request: async (fx) => ({ url: `/api/admin/categories/${await freshCategory(fx)}` }), expect: adminRole(200) }],
  'GET /api/admin/products/unassigned': [{
    request: () => ({ url: '/api/admin/products/unassigned' }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.json<{ id: string }[]>().some((p) => p.id === fx.u0)).toBe(who === 'admin'),
  }],
  'GET /api/admin/products': [{
    request: () => ({ url: '/api/admin/products?limit=100' }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.json<{ items: { id: string }[] }>().items.some((p) => p.id === fx.u0)).toBe(who === 'admin'),
  }],
  // products in bulk: each admin imports into, and exports, their own
  'POST /api/admin/products/import': [{
    request: () => ({ url: '/api/admin/products/import', raw: { payload: Buffer.from(`id,name,description\r\n${uniqueName('MI')},Imported,x\r\n`), headers: { 'content-type': 'text/csv' } } }),
    expect: adminRole(201),
  }],
  'GET /api/admin/products/export': [{
    request: () => ({ url: '/api/admin/products/export' }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.body.split('\r\n').some((line) => line.startsWith(`${fx.u0},`))).toBe(who === 'admin'),
  }],
  'POST /api/admin/auction': [{
    label: 'from the creator’s product',
    request: async (fx) => ({ url: '/api/admin/auction', body: { id: uniqueName('MA'), name: 'Matrix auction', valid_until: inHours(2), product_ids: [await freshProduct(fx)] } }),
    // Another admin's product is not available to put in an auction (the same answer as an assigned or unknown one).
    expect: adminRole(201, [409, 'PRODUCT_NOT_AVAILABLE']),
  }],
  'PUT /api/admin/auction/{id}': [{ request: async (fx) => ({ url: `/api/admin/auction/${(await freshAuction(fx)).auctionId}`, body: { name: 'Renamed', valid_until: inHours(3) } }), expect: adminRole(200, 403) }],
  'DELETE /api/admin/auction/{id}': [{
    label: 'with a leading bid in it',
    request: async (fx) => {
      const { auctionId, productId } = await freshAuction(fx);
      expect((await bid(fx.app, fx.token.user!, productId, 100)).statusCode).toBe(201);
      return { url: `/api/admin/auction/${auctionId}` };
    },
    expect: adminRole(200, 403),
  }],
  'GET /api/admin/auction/{id}': [{ request: (fx) => ({ url: `/api/admin/auction/${fx.a0}` }), expect: adminRole(200) }],
  'POST /api/admin/auction/{id}/settle': [{
    request: async (fx) => {
      const { auctionId, productId } = await freshAuction(fx);
      expect((await bid(fx.app, fx.token.user!, productId, 100)).statusCode).toBe(201);
      return { url: `/api/admin/auction/${auctionId}/settle` };
    },
    expect: adminRole(200, 403),
  }],
  'GET /api/admin/all_auctions': [{ request: () => ({ url: '/api/admin/all_auctions' }), expect: adminRole(200) }],
  'GET /api/admin/auctions/my': [{
    request: () => ({ url: '/api/admin/auctions/my' }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.json<{ id: string }[]>().some((a) => a.id === fx.a0)).toBe(who === 'admin'),
  }],
  'GET /api/admin/auction_products/{id}': [{ request: (fx) => ({ url: `/api/admin/auction_products/${fx.a0}` }), expect: adminRole(200) }],
  'GET /api/admin/auction/{id}/products': [{ request: (fx) => ({ url: `/api/admin/auction/${fx.a0}/products` }), expect: adminRole(200) }],
  'GET /api/admin/stats': [{
    request: () => ({ url: '/api/admin/stats' }),
    expect: adminRole(200),
    check: (who, res) => expect(res.json<{ pending: number }>().pending > 0).toBe(who === 'admin'),
  }],
  'GET /api/admin/reports': [{
    request: () => ({ url: '/api/admin/reports' }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.json<{ auctions: { id: string }[] }>().auctions.some((a) => a.id === fx.a0)).toBe(who === 'admin'),
  }],
  'GET /api/admin/settings': [{ request: () => ({ url: '/api/admin/settings' }), expect: adminRole(200) }],
  'PUT /api/admin/profile': [{
    request: () => ({ url: '/api/admin/profile', body: { name: 'Matrix Admin', mobile_number: '9876543210' } }),
    expect: adminRole(200),
    check: (who, res, fx) => expect(res.json<{ admin: { id: number } }>().admin.id).toBe(callerId(fx, who)),
  }],

  // the house's profile (docs/invoices.md): each admin its own
  'GET /api/admin/house': [{ request: () => ({ url: '/api/admin/house' }), expect: adminRole(200) }],
  'PUT /api/admin/house': [{
    request: () => ({
      url: '/api/admin/house',
      body: { legal_name: 'Matrix House', display_name: null, address: null, gstin: null, invoice_prefix: null, phone: null, email: null, payout: null, pickup_locations: [] },
    }),
    expect: adminRole(200),
    check: (_who, res) => expect(res.json<{ legal_name: string; missing: string[] }>()).toMatchObject({ legal_name: 'Matrix House', missing: ['address'] }),
  }],

  'GET /api/me/billing': [{ request: () => ({ url: '/api/me/billing' }), expect: userRole(200) }],
  'PUT /api/me/billing': [{
    request: () => ({ url: '/api/me/billing', body: { name: 'Matrix Buyer', address: { line1: '1 Main Road', city: 'Pune', state_code: '27', pin: '411001' }, gstin: null } }),
    expect: userRole(200),
    check: (_who, res) => expect(res.json<{ name: string }>().name).toBe('Matrix Buyer'),
  }],

  // photos and the lot page (docs/photos.md): the product's admin changes its photos; renditions are public
  'POST /api/admin/products/{id}/images': [{
    request: async (fx) => ({ url: `/api/admin/products/${await freshProduct(fx)}/images`, raw: multipart([{ field: 'image', bytes: await picture('png'), filename: 'p.png', contentType: 'image/png' }]) }),
    expect: adminRole(201, 403),
  }],
  'DELETE /api/admin/products/{id}/images/{imageId}': [{
    request: async (fx) => {
      const p = await freshProduct(fx);
      return { url: `/api/admin/products/${p}/images/${(await addPhoto(fx.app, fx.token.admin!, p)).id}` };
    },
    expect: adminRole(200, 403),
  }],
  'PUT /api/admin/products/{id}/images/order': [{
    request: async (fx) => {
      const p = await freshProduct(fx);
      const ids = [(await addPhoto(fx.app, fx.token.admin!, p)).id, (await addPhoto(fx.app, fx.token.admin!, p, await picture('jpeg'))).id];
      return { url: `/api/admin/products/${p}/images/order`, body: { ids: ids.reverse() } };
    },
    expect: adminRole(200, 403),
  }],
  // Not by account but by address: a caller on this machine (inject's), or METRICS_TOKEN (routes/metrics.test.ts).
  'GET /metrics': [{ request: () => ({ url: '/metrics' }), expect: everyone(200) }],
  'GET /media/{file}': [{
    request: async (fx) => ({ url: (await addPhoto(fx.app, fx.token.admin!, await freshProduct(fx))).thumb_url }),
    expect: everyone(200),
  }],
  // Public (a shared lot link opens for a visitor); a token adds the caller's own view.
  'GET /api/products/{id}': [{
    request: (fx) => ({ url: `/api/products/${fx.p0}` }),
    expect: everyone(200),
    check: historyBidders,
  }],
  'GET /api/products/{id}/bids': [{
    request: (fx) => ({ url: `/api/products/${fx.p0}/bids` }),
    expect: everyone(200),
    check: historyBidders,
  }],

  // saved lots and notifications: the bidder's own only
  'GET /api/saved': [{ request: () => ({ url: '/api/saved' }), expect: userRole(200) }],
  'PUT /api/saved/{productId}': [{ request: (fx) => ({ url: `/api/saved/${fx.p0}` }), expect: userRole(204) }],
  'DELETE /api/saved/{productId}': [{ request: (fx) => ({ url: `/api/saved/${fx.p0}` }), expect: userRole(204) }],
  'GET /api/notifications': [{ request: () => ({ url: '/api/notifications' }), expect: userRole(200) }],
  'POST /api/notifications/read': [{ request: () => ({ url: '/api/notifications/read', body: {} }), expect: userRole(200) }],
  // Accounts by email (docs/email.md): the caller's own account; links that need no sign-in.
  'GET /api/me': [{ request: () => ({ url: '/api/me' }), expect: anyRole(200) }],
  'PUT /api/me/email': [{ request: () => ({ url: '/api/me/email', body: { email: `${uniqueName('mx').toLowerCase()}@example.com`, password: PASSWORD } }), expect: anyRole(202) }],
  'DELETE /api/me/email': [{ request: () => ({ url: '/api/me/email', body: { password: PASSWORD } }), expect: anyRole(204) }],
  'POST /api/email/verify': [{ request: () => ({ url: '/api/email/verify', body: { token: 'nope' } }), expect: everyone([400, 'TOKEN_INVALID']) }],
  'POST /api/email/undo': [{ request: () => ({ url: '/api/email/undo', body: { token: 'nope', password: 'secret9' } }), expect: everyone([400, 'TOKEN_INVALID']) }],
  'POST /api/password/forgot': [{ request: () => ({ url: '/api/password/forgot', body: { username: 'nobody' } }), expect: everyone(202) }],
  'POST /api/password/reset': [{ request: () => ({ url: '/api/password/reset', body: { token: 'nope', password: 'secret9' } }), expect: everyone([400, 'TOKEN_INVALID']) }],
  'GET /api/me/notification-settings': [{ request: () => ({ url: '/api/me/notification-settings' }), expect: userRole(200) }],
  'PUT /api/me/notification-settings': [{ request: () => ({ url: '/api/me/notification-settings', body: { email: { won: true } } }), expect: userRole(200) }],
  'POST /api/unsubscribe': [{ request: () => ({ url: '/api/unsubscribe', body: { token: 'nope' } }), expect: everyone([400, 'TOKEN_INVALID']) }],

  // the platform owner's Users page
  'GET /api/admin/users': [{ request: () => ({ url: '/api/admin/users' }), expect: ownerRole(200) }],
  'PATCH /api/admin/users/{id}': [{
    label: 'deactivating a bidder',
    request: async (fx) => {
      const res = await call(fx.app, 'POST', '/api/register', newAccount());
      return { url: `/api/admin/users/${res.json<{ user: { id: number } }>().user.id}`, body: { status: 'inactive' } };
    },
    expect: ownerRole(200),
  }],
};

/** Served under /api but not in the OpenAPI document, each covered below. */
const HIDDEN: { match: (method: string, path: string) => boolean; why: string }[] = [
  { match: (m, p) => m === 'GET' && p === '/api/ws', why: 'the plain WebSocket feed (@fastify/websocket hides it from the document)' },
  { match: (_m, p) => p === '/api/docs' || p.startsWith('/api/docs/'), why: 'the OpenAPI page and document (public)' },
];

// ---- the live route table

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** `METHOD /path` of every operation in the app's OpenAPI document. */
function documentedRoutes(doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, ops]) =>
    Object.keys(ops).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
}

/** `METHOD /path` of every route Fastify serves, read from its route tree (`:id` written `{id}`). */
function servedRoutes(app: App): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at < 0) continue;
    const depth = at / 4;
    const m = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 4))!;
    stack[depth] = m[1]!;
    stack.length = depth + 1;
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (m[2] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) out.push(`${method} ${path}`);
  }
  return out;
}

// Built once at collection time, so that every documented route becomes a test of its own.
const probe = await makeApp();
const DOCUMENTED = documentedRoutes(probe.swagger() as { paths?: Record<string, Record<string, unknown>> });
const SERVED = servedRoutes(probe);
await probe.close();

// ---- running a cell

const DEFAULT_CODE: Record<number, string> = { 400: 'VALIDATION', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** Every row of every table: a refused call must leave this unchanged. */
const TABLES = { admins: 'id', auctions: 'id', bids: 'id', products: 'id', registrations: 'auction_id, user_id', users: 'id', wallet_transactions: 'id', media: 'name', product_images: 'id',
  // Saved lots and notifications.
  saved_lots: 'user_id, product_id', notifications: 'id',
  // Categories (docs/catalogue.md).
  categories: 'id',
  // Mail and the links it carries (docs/email.md).
  mail_outbox: 'id', account_tokens: 'id' };

/** What the mail sender changes on its own, in the background, whatever the request: left out. */
const SENDER_COLUMNS = ['mailed_at', 'sent_at', 'attempts', 'next_attempt_at', 'failed_at', 'last_error'];

async function snapshot(app: App): Promise<string> {
  const tables = await Promise.all(Object.entries(TABLES).map(async ([name, key]) => {
    const rows = await sqlRows<Record<string, unknown>>(app, `select * from ${name} order by ${key}`);
    return [name, rows.map((r) => Object.fromEntries(Object.entries(r).filter(([column]) => !SENDER_COLUMNS.includes(column))))];
  }));
  return JSON.stringify(tables);
}

let fx: Fixture;

async function runCell(key: string, c: Case, who: Who): Promise<string[]> {
  const [method] = key.split(' ') as [InjectOptions['method'], string];
  const req = await c.request(fx);
  const before = await snapshot(fx.app);
  const res = req.raw
    ? await fx.app.inject({ method, url: req.url, payload: req.raw.payload, headers: { ...req.raw.headers, ...(fx.token[who] ? { authorization: `Bearer ${fx.token[who]}` } : {}) } })
    : await call(fx.app, method, req.url, req.body, fx.token[who]);
  const where = `${key}${c.label ? ` [${c.label}]` : ''} as ${who}`;
  const problems: string[] = [];
  const outcome = c.expect[who];
  const [status, code] = typeof outcome === 'number' ? [outcome, DEFAULT_CODE[outcome]] : outcome;
  if (res.statusCode !== status) return [`${where}: expected ${status}${code ? ` ${code}` : ''}, got ${res.statusCode} ${res.body.slice(0, 160)}`];
  // Every answer, refused or not, carries the security headers.
  if (res.headers['x-content-type-options'] !== 'nosniff') problems.push(`${where}: no x-content-type-options`);
  if (status >= 400) {
    const body = expectError(res, status, code ?? res.json<{ code: string }>().code);
    if (code && body.code !== code) problems.push(`${where}: code ${body.code}, expected ${code}`);
    if ((await snapshot(fx.app)) !== before) problems.push(`${where}: a refused call changed the database`);
  } else {
    if (who !== 'none' && who !== 'expired') {
      c.check?.(who, res, fx);
      if (c.refreshesToken) fx.token[who] = res.json<{ token: string }>().token;
    }
  }
  return problems;
}

// ---- the tests

describe('the route table is complete', () => {
  it('the OpenAPI document lists the API (sanity: it is generated from the live routes)', () => {
    expect(DOCUMENTED.length).toBeGreaterThanOrEqual(40);
    expect(DOCUMENTED).toContain('POST /api/rollback-bid');
    expect(DOCUMENTED).toContain('PATCH /api/admin/users/{id}');
  });

  it('every documented route has an entry in the expectation table, and every entry is a live route', () => {
    expect(DOCUMENTED.filter((r) => !TABLE[r]), 'routes without an entry in TABLE').toEqual([]);
    expect(Object.keys(TABLE).filter((r) => !DOCUMENTED.includes(r)), 'TABLE entries that are not routes').toEqual([]);
  });

  it('every route Fastify serves under /api is documented or listed as hidden (and tested below)', () => {
    expect(SERVED.length).toBeGreaterThan(DOCUMENTED.length);
    const undocumented = SERVED.filter((r) => {
      const [method, path] = r.split(' ') as [string, string];
      if (method === 'HEAD' || !(path === '/api' || path.startsWith('/api/'))) return false;
      return !DOCUMENTED.includes(r) && !HIDDEN.some((h) => h.match(method, path));
    });
    expect(undocumented).toEqual([]);
    for (const h of HIDDEN) expect(SERVED.some((r) => h.match(...(r.split(' ') as [string, string]))), h.why).toBe(true);
  });
});

describe('access matrix: route × caller', () => {
  beforeAll(async () => {
    const app = await makeApp();
    // The first admin is the platform owner; `admin` creates the targets.
    const owner = await signUpAdmin(app);
    const admin = await signUpAdmin(app);
    const otherAdmin = await signUpAdmin(app);
    const user = await richBidder(app, 200_000);
    const otherUser = await richBidder(app, 200_000);
    const deactivated = await signUpUser(app);
    expect((await call(app, 'PATCH', `/api/admin/users/${deactivated.user.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    const { auctionId: a0, productIds: [p0] } = await createAuction(app, admin.token);
    expect((await call(app, 'POST', '/api/auctions/register', { auction_id: a0 }, user.token)).statusCode).toBe(200);
    const placed = await bid(app, user.token, p0!, 100);
    expect(placed.statusCode).toBe(201);
    const [u0] = await createProducts(app, admin.token, 1);
    const expired = await new SignJWT({ role: 'user', ver: 0 }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.user.id))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200).setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(new TextEncoder().encode(TEST_SECRET));
    const acct = (a: { user?: { id: number }; admin?: { id: number }; username: string; password: string }) =>
      ({ id: (a.user ?? a.admin)!.id, username: a.username, password: a.password });
    fx = {
      app,
      token: { none: undefined, expired, user: user.token, otherUser: otherUser.token, admin: admin.token, otherAdmin: otherAdmin.token, owner: owner.token, deactivated: deactivated.token },
      acct: { user: acct(user), otherUser: acct(otherUser), admin: acct(admin), otherAdmin: acct(otherAdmin), owner: acct(owner), deactivated: acct(deactivated) },
      a0, p0: p0!, bid0: placed.json<{ bid: { bid_id: number } }>().bid.bid_id, u0: u0!,
    };
    expect(owner.admin.is_owner).toBe(true);
    expect(admin.admin.is_owner).toBe(false);
  });

  afterAll(async () => {
    await expectMoneyInvariant(fx.app);
    await fx.app.close();
  });

  it.each(DOCUMENTED)('%s', async (key) => {
    const cases = TABLE[key];
    expect(cases, `no entry for ${key} in the access table`).toBeDefined();
    const problems: string[] = [];
    for (const c of cases!) {
      for (const who of WHO) problems.push(...await runCell(key, c, who));
    }
    expect(problems).toEqual([]);
  });

  it('hidden: the OpenAPI page and document are public', async () => {
    for (const who of WHO) {
      const res = await call(fx.app, 'GET', '/api/docs/json', undefined, fx.token[who]);
      expect(res.statusCode, who).toBe(200);
    }
  });

  it('hidden: GET /api/ws admits every active account and closes 4401 without a token or with a revoked one', async () => {
    const base = await listen(fx.app);
    const outcome = async (token: string | undefined) => {
      const ws = await connectWs(base, token);
      // Without a token, anything but an auth message ends the connection.
      if (!token) ws.send({ type: 'watch', auction_id: fx.a0 });
      let result = '';
      await eventually(() => {
        const code = ws.closeCode();
        const first = ws.messages[0];
        result = code !== null ? `closed ${code}` : first ? String(first.role ?? first.type) : '';
        expect(result).not.toBe('');
      });
      ws.close();
      return result;
    };
    const seen: Record<string, string> = {};
    for (const who of WHO) seen[who] = await outcome(fx.token[who]);
    expect(seen).toEqual({
      none: 'closed 4401', expired: 'closed 4401', user: 'user', otherUser: 'user', admin: 'admin', otherAdmin: 'admin', owner: 'admin', deactivated: 'closed 4401',
    });
  });
});
