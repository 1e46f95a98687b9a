/**
 * Input edges from an attacker's review, through HTTP: date-time
 * offsets beyond ±14:00, money with more than 2 decimals, names made of invisible or direction-changing
 * characters, usernames that only match after Unicode case mapping (the Kelvin sign), and masks that
 * showed two of a three-letter username.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import {
  balanceOf, bid, call, createAuction, createProducts, expectError, expectMoneyInvariant, makeApp, makeClock, richBidder,
  signUpAdmin, signUpUser, sqlRow,
} from '../test/helpers.js';

const START = Date.parse('2026-11-24T00:00:00.000Z');
const DATE_TIME = 'valid_until must be a date-time such as 2026-11-24T07:45';

let app: App;
const clock = makeClock(START);
let admin: Awaited<ReturnType<typeof signUpAdmin>>;

beforeAll(async () => {
  app = await makeApp({ autoSettle: false }, { now: clock.now });
  admin = await signUpAdmin(app);
});
afterAll(async () => { await app.close(); });

const bidRows = async () => Number((await sqlRow<{ n: number }>(app, 'select count(*) as n from bids'))!.n);

describe('date-time offsets', () => {
  it('refuses an offset beyond ±14:00 or with 60+ minutes, on create and edit, naming valid_until', async () => {
    const [p] = await createProducts(app, admin.token, 1);
    for (const [i, valid_until] of ['2026-11-25T07:45+99:99', '2026-11-25T07:45+14:01', '2026-11-25T07:45-14:30', '2026-11-25T07:45+15:00', '2026-11-25T07:45+05:60', '2026-11-25T07:45:00-0099', '2026-11-25T07:45+2400'].entries()) {
      const res = await call(app, 'POST', '/api/admin/auction', { id: `OFF-${i}`, name: 'Offsets', valid_until, product_ids: [p] }, admin.token);
      const body = expectError(res, 400, 'VALIDATION');
      expect(body, valid_until).toMatchObject({ field: 'valid_until', error: DATE_TIME });
    }
    expectError(await call(app, 'GET', '/api/admin/auction/OFF-0', undefined, admin.token), 404, 'NOT_FOUND');

    // The extremes that exist (Kiribati +14:00, Baker Island −12:00; −14:00 allowed symmetrically) are fine.
    for (const [i, [valid_until, expected]] of ([
      ['2026-11-25T07:45+14:00', '2026-11-24T23:15:00.000+05:30'], ['2026-11-25T07:45-14:00', '2026-11-26T03:15:00.000+05:30'], ['2026-11-25T07:45+0530', '2026-11-25T07:45:00.000+05:30'],
    ] as const).entries()) {
      const [q] = await createProducts(app, admin.token, 1);
      const res = await call(app, 'POST', '/api/admin/auction', { id: `OK-${i}`, name: 'Offsets', valid_until, product_ids: [q] }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ auction: { valid_until: string } }>().auction.valid_until).toBe(expected);
    }

    const edit = await call(app, 'PUT', '/api/admin/auction/OK-0', { name: 'Offsets', valid_until: '2026-11-26T07:45+99:99' }, admin.token);
    expect(expectError(edit, 400, 'VALIDATION')).toMatchObject({ field: 'valid_until', error: DATE_TIME });
  });
});

describe('money with more than 2 decimals', () => {
  it('refuses a top-up of 10.000000001 (and other sub-paisa tails) naming amount; exact 2-decimal amounts still pass', async () => {
    const u = await signUpUser(app);
    for (const amount of [10.000000001, 10.0000001, 10.001, 99.999, 100.005, 10.0000000001]) {
      const body = expectError(await call(app, 'POST', '/api/wallet/topup', { amount }, u.token), 400, 'VALIDATION');
      expect(body.field, String(amount)).toBe('amount');
    }
    expect(await balanceOf(app, u.token)).toBe(0);
    for (const amount of [10.15, 10.29, 300.25, 99999.99, 10.1, 10.01]) {
      const res = await call(app, 'POST', '/api/wallet/topup', { amount }, u.token);
      expect(res.statusCode, `${amount}: ${res.body}`).toBe(200);
    }
    expect(await balanceOf(app, u.token)).toBe(100_340.79);
    await expectMoneyInvariant(app);
  });

  it('refuses a bid_amount with more than 2 decimals or below a paisa, recording nothing; 1.15, 2.29 and 300.25 pass', async () => {
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
    const u = await richBidder(app, 1000, [auctionId]);
    const before = await bidRows();
    for (const amount of [20.000000001, 20.0000001, 1.155, 0.001, 1e-9, 4.9e-9]) {
      const body = expectError(await bid(app, u.token, p!, amount), 400, 'VALIDATION');
      expect(body.field, String(amount)).toBe('bid_amount');
    }
    expect(await bidRows()).toBe(before);
    for (const amount of [1.15, 2.29, 300.25]) expect((await bid(app, u.token, p!, amount)).statusCode).toBe(201);
    expect(await balanceOf(app, u.token)).toBe(699.75);
    await expectMoneyInvariant(app);
  });
});

describe('visible names and descriptions', () => {
  const BAD_NAMES = ['\u202E', '\u202Egnp.exe', 'Lamp\u202Egnp.exe', 'Lamp\u2066x\u2069', '\u202A\u202B\u202C\u202D', '\u0007', 'Lamp\u0085', 'Lamp\u001B[31m', 'Lamp\nLamp', 'Lamp\t1', '\u200B', '\u200B\u200F\uFEFF', '\u00AD', '\u0301\u0301', '\u3164'];

  it('refuses a product or auction name of invisible, control or bidi-override characters, naming the field', async () => {
    for (const [i, name] of BAD_NAMES.entries()) {
      const res = await call(app, 'POST', '/api/admin/product', { id: `BAD-${i}`, name, description: 'Brass' }, admin.token);
      expect(expectError(res, 400, 'VALIDATION').field, JSON.stringify(name)).toBe('name');
    }
    const [p] = await createProducts(app, admin.token, 1);
    expect(expectError(await call(app, 'PUT', `/api/admin/product/${p}`, { name: '\u202E', description: 'Brass' }, admin.token), 400, 'VALIDATION').field).toBe('name');
    const create = await call(app, 'POST', '/api/admin/auction', { id: 'BIDI-A', name: 'Sale\u202E', valid_until: '2026-11-26T10:00', product_ids: [p] }, admin.token);
    expect(expectError(create, 400, 'VALIDATION').field).toBe('name');
    const { auctionId } = await createAuction(app, admin.token, { now: clock.t });
    const edit = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: '\u2067', valid_until: '2026-11-26T10:00' }, admin.token);
    expect(expectError(edit, 400, 'VALIDATION').field).toBe('name');
    // NUL is refused before the schema, as before.
    expect(expectError(await call(app, 'POST', '/api/admin/product', { id: 'NUL-1', name: '\u0000\u202E', description: 'Brass' }, admin.token), 400, 'VALIDATION').field).toBe('name');
  });

  it('refuses such descriptions too, but keeps newlines and tabs in descriptions', async () => {
    for (const [i, description] of ['\u202E', 'Brass\u202Egnp', '\u2068', '\u0007', 'Brass\u007F', '\n\t\r\n', '\u200B'].entries()) {
      const res = await call(app, 'POST', '/api/admin/product', { id: `BADD-${i}`, name: 'Lamp', description }, admin.token);
      expect(expectError(res, 400, 'VALIDATION').field, JSON.stringify(description)).toBe('description');
    }
    const res = await call(app, 'POST', '/api/admin/product', { id: 'MULTI-1', name: 'Лампа 🦄 مزاد café', description: 'Line one\n\tLine two\r\n' }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<{ product: { name: string; description: string } }>().product).toMatchObject({ name: 'Лампа 🦄 مزاد café', description: 'Line one\n\tLine two' }); // trimmed, as before
  });

  it('applies the same rule to person names at registration and in the admin profile', async () => {
    const reg = await call(app, 'POST', '/api/register', { name: 'Asha\u202E', username: 'bidi_person', password: 'secret1', mobile_number: '9876543210' });
    expect(expectError(reg, 400, 'VALIDATION').field).toBe('name');
    const profile = await call(app, 'PUT', '/api/admin/profile', { name: '\u200B', mobile_number: '9876543210' }, admin.token);
    expect(expectError(profile, 400, 'VALIDATION').field).toBe('name');
    expect((await call(app, 'POST', '/api/register', { name: 'Āśā Ṛāō', username: 'accented_person', password: 'secret1', mobile_number: '9876543210' })).statusCode).toBe(201);
  });
});

describe('usernames are ASCII, matched without Unicode case mapping', () => {
  it('a Kelvin sign (U+212A) or fullwidth letters do not sign in as the ASCII user or admin; ASCII case still does not matter', async () => {
    const kate = await signUpUser(app, 'kate_k');
    const kadmin = await signUpAdmin(app, 'kadmin');
    for (const username of ['\u212Aate_k', '\u212AATE_K', 'ｋａｔｅ_ｋ', 'kate_\u212A']) {
      const res = await call(app, 'POST', '/api/login', { username, password: kate.password });
      expectError(res, 400, 'INVALID_CREDENTIALS');
    }
    const admin = await call(app, 'POST', '/api/admin/login', { username: '\u212Aadmin', password: kadmin.password, role: 'admin' });
    expectError(admin, 400, 'INVALID_CREDENTIALS');
    expect((await call(app, 'POST', '/api/login', { username: ' KATE_K ', password: kate.password })).statusCode).toBe(200);
    expect((await call(app, 'POST', '/api/admin/login', { username: 'KADMIN', password: kadmin.password, role: 'admin' })).statusCode).toBe(200);
    // A body that names the caller with the look-alike names someone else (403), not the caller.
    expectError(await call(app, 'POST', '/api/wallet', { username: '\u212Aate_k' }, kate.token), 403, 'FORBIDDEN');
    expect((await call(app, 'POST', '/api/wallet', { username: 'Kate_K' }, kate.token)).statusCode).toBe(200);
  });

  it('refuses a username that is not ASCII at registration (users and admins)', async () => {
    for (const username of ['\u212Aelvin', 'ｋｅｌｖｉｎ', 'kelvın']) {
      const user = await call(app, 'POST', '/api/register', { name: 'Kelvin', username, password: 'secret1', mobile_number: '9876543210' });
      expect(expectError(user, 400, 'VALIDATION').field, username).toBe('username');
      const adm = await call(app, 'POST', '/api/admin/register', { name: 'Kelvin', username, password: 'secret1', mobile_number: '9876543210', role: 'admin' });
      expect(expectError(adm, 400, 'VALIDATION').field, username).toBe('username');
    }
  });
});

describe('masked bidders', () => {
  it('shows at most a third of a username, always with three asterisks; the owning admin sees the name', async () => {
    const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
    const names = ['abc', 'abcde', 'abcdef', 'abcdefghijklmnopqrstuvwxyz012345'];
    const bidders = [];
    for (const name of names) bidders.push(await signUpUser(app, name));
    let amount = 10;
    for (const b of bidders) {
      expect((await call(app, 'POST', '/api/wallet/topup', { amount: 1000 }, b.token)).statusCode).toBe(200);
      expect((await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, b.token)).statusCode).toBe(200);
      expect((await bid(app, b.token, p!, amount++)).statusCode).toBe(201);
    }
    const shown = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, bidders[0]!.token)).json<{ bidder: string }[]>().map((b) => b.bidder);
    expect(shown).toEqual(['a***5', 'a***f', 'a***', 'a***']);
    const owner = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, admin.token)).json<{ bidder: string }[]>().map((b) => b.bidder);
    expect(owner).toEqual([...names].reverse());
  });
});
