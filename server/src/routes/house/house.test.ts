/**
 * A house's profile (docs/invoices.md) through the HTTP API, on both stores: empty until filled, saved whole,
 * the account number masked on the way out and kept when it comes back masked, GSTIN and prefix checks,
 * pickup locations kept by id and taken out when left out, and one house's profile its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { House } from '@auction/shared';
import type { App } from '../../context.js';
import { call, expectError, makeApp, signUpAdmin, signUpUser, sqlRows } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

const address = { line1: '12 MG Road', line2: null, city: 'Pune', state_code: '27', pin: '411001' };
const profile = {
  legal_name: 'Rao Auctions LLP', display_name: 'Rao Auctions', address, gstin: '27AAPFU0939F1ZV', invoice_prefix: 'RAO',
  phone: '+919812345678', email: 'Sales@Rao.example', payout: { holder: 'Rao Auctions LLP', ifsc: 'HDFC0001234', account_number: '001234567890' },
  pickup_locations: [
    { name: 'Pune warehouse', address: { ...address, line1: '4 Industrial Estate' }, instructions: 'Gate 2, bring your invoice', hours: 'Mon–Sat 10:00–18:00' },
    { name: 'Mumbai office', address: { line1: '1 Fort Street', city: 'Mumbai', state_code: '27', pin: '400001' } },
  ],
};

describe('the house profile', () => {
  it('is empty until filled, says what settling needs, and is saved whole with the account number masked', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const empty = await call(app, 'GET', '/api/admin/house', undefined, admin.token);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json<House>()).toMatchObject({ legal_name: null, address: null, payout: null, pickup_locations: [], missing: ['legal_name', 'address'], updated_at: null });

    const saved = await call(app, 'PUT', '/api/admin/house', profile, admin.token);
    expect(saved.statusCode, saved.body).toBe(200);
    const h = saved.json<House>();
    expect(h).toMatchObject({ legal_name: 'Rao Auctions LLP', gstin: '27AAPFU0939F1ZV', invoice_prefix: 'RAO', email: 'sales@rao.example', missing: [] });
    expect(h.address).toEqual(address);
    expect(h.payout).toEqual({ holder: 'Rao Auctions LLP', ifsc: 'HDFC0001234', account_number: '••7890' });
    expect(h.pickup_locations.map((l) => [l.name, l.address.line2, l.instructions, l.hours])).toEqual([
      ['Pune warehouse', null, 'Gate 2, bring your invoice', 'Mon–Sat 10:00–18:00'], ['Mumbai office', null, null, null],
    ]);
    expect(saved.body).not.toContain('001234567890');
    expect((await call(app, 'GET', '/api/admin/house', undefined, admin.token)).json()).toEqual(h);

    // The masked number sent back keeps the stored one; a location kept by id stays the same location.
    const [pune, mumbai] = h.pickup_locations;
    const again = await call(app, 'PUT', '/api/admin/house', {
      ...profile, display_name: null, payout: { ...profile.payout, account_number: '••7890' },
      pickup_locations: [{ id: mumbai!.id, name: 'Mumbai office', address: mumbai!.address, hours: '9–5' }, { name: 'Nashik depot', address: { ...address, city: 'Nashik', pin: '422001' } }],
    }, admin.token);
    expect(again.statusCode, again.body).toBe(200);
    const h2 = again.json<House>();
    expect(h2.display_name).toBeNull();
    expect(h2.pickup_locations.map((l) => [l.id === mumbai!.id, l.name, l.hours])).toEqual([[true, 'Mumbai office', '9–5'], [false, 'Nashik depot', null]]);
    const [stored] = await sqlRows<{ payout_account: string }>(app, 'select payout_account from houses');
    expect(stored!.payout_account).toBe('001234567890');
    // The location taken out is kept for what points at it, and no longer listed.
    const rows = await sqlRows<{ id: number; gone: number }>(app, 'select id, case when deleted_at is null then 0 else 1 end as gone from pickup_locations order by id');
    expect(rows.find((r) => r.id === pune!.id)?.gone).toBe(1);
  });

  it('refuses a wrong GSTIN, another state’s GSTIN, a masked number that is not the stored one, and a location of another house', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    expectError(await call(app, 'PUT', '/api/admin/house', { ...profile, gstin: '27AAPFU0939F1ZW' }, admin.token), 400, 'VALIDATION');
    const typo = await call(app, 'PUT', '/api/admin/house', { ...profile, gstin: '27AAPFU0939F1ZW' }, admin.token);
    expect(typo.json()).toMatchObject({ field: 'gstin', message: expect.stringMatching(/check character/) as unknown });
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, gstin: '29AAGCB7383J1Z4' }, admin.token)).json()).toMatchObject({ field: 'gstin', message: expect.stringMatching(/state code of the address/) as unknown });
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, payout: { ...profile.payout, account_number: '••7890' } }, admin.token)).json())
      .toMatchObject({ code: 'VALIDATION', field: 'payout.account_number' });
    for (const bad of [{ invoice_prefix: 'rao' }, { invoice_prefix: 'TOOLONG' }, { address: { ...address, pin: '011001' } }, { address: { ...address, state_code: '99' } },
      { payout: { ...profile.payout, ifsc: 'HDFC1001234' } }, { payout: { ...profile.payout, account_number: '12345' } }, { legal_name: ' ' }, { legal_name: 'x'.repeat(121) }, { pickup_locations: 'none' }]) {
      expectError(await call(app, 'PUT', '/api/admin/house', { ...profile, ...bad }, admin.token), 400, 'VALIDATION');
    }
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, address: null }, admin.token)).json()).toMatchObject({ code: 'VALIDATION', field: 'gstin' });
    expectError(await call(app, 'PUT', '/api/admin/house', { ...profile, pickup_locations: [{ ...profile.pickup_locations[0], instructions: '' }] }, admin.token), 400, 'VALIDATION');
    // A wrong part of an address or a payout account is named, not the whole object.
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, address: { ...address, pin: '4110' } }, admin.token)).json())
      .toMatchObject({ field: 'address.pin', message: 'address.pin must be a PIN code of 6 digits' });
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, payout: { ...profile.payout, ifsc: 'HDFC1001234' } }, admin.token)).json()).toMatchObject({ field: 'payout.ifsc' });
    const { city: _city, ...noCity } = address;
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, address: noCity }, admin.token)).json()).toMatchObject({ field: 'address.city', message: 'address.city is required' });
    // Nothing of a refused save was kept.
    expect((await call(app, 'GET', '/api/admin/house', undefined, admin.token)).json<House>().legal_name).toBeNull();
    // Once a number is stored, a masked value that is not its own is refused, and the number stays.
    expect((await call(app, 'PUT', '/api/admin/house', profile, admin.token)).statusCode).toBe(200);
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, payout: { ...profile.payout, account_number: '••0000' } }, admin.token)).json())
      .toMatchObject({ code: 'VALIDATION', field: 'payout.account_number' });
    expect((await sqlRows<{ payout_account: string }>(app, 'select payout_account from houses'))[0]!.payout_account).toBe('001234567890');
    await call(app, 'PUT', '/api/admin/house', { ...profile, legal_name: null, address: null, gstin: null, invoice_prefix: null, payout: null, pickup_locations: [] }, admin.token);

    const theirs = (await call(app, 'PUT', '/api/admin/house', { ...profile, invoice_prefix: 'OTH', gstin: null }, other.token)).json<House>();
    const stolen = await call(app, 'PUT', '/api/admin/house', { ...profile, pickup_locations: [{ ...profile.pickup_locations[0], id: theirs.pickup_locations[0]!.id }] }, admin.token);
    expect(stolen.json()).toMatchObject({ code: 'VALIDATION', field: 'pickup_locations[0].id' });
    // Another house's prefix is taken; its own again is not.
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, invoice_prefix: 'OTH' }, admin.token)).json()).toMatchObject({ code: 'INVOICE_PREFIX_TAKEN', field: 'invoice_prefix' });
    expect((await call(app, 'PUT', '/api/admin/house', { ...profile, invoice_prefix: 'OTH', gstin: null }, other.token)).statusCode).toBe(200);
    // Each house sees its own profile only.
    expect((await call(app, 'GET', '/api/admin/house', undefined, admin.token)).json<House>().legal_name).toBeNull();
  });

  it('two houses choosing one prefix at once: one has it, the other is told, nothing breaks', async () => {
    app = await makeApp();
    const admins = await Promise.all(Array.from({ length: 6 }, () => signUpAdmin(app)));
    const answers = await Promise.all(admins.map((a) => call(app, 'PUT', '/api/admin/house', { ...profile, gstin: null, invoice_prefix: 'SAME' }, a.token)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((x) => x.statusCode === 409)) expect(r.json()).toMatchObject({ code: 'INVOICE_PREFIX_TAKEN' });
  });

  it('is the admins’: a bidder is refused, a visitor is not signed in', async () => {
    app = await makeApp();
    const bidder = await signUpUser(app);
    expectError(await call(app, 'GET', '/api/admin/house', undefined, bidder.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'PUT', '/api/admin/house', profile, bidder.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/admin/house'), 401, 'UNAUTHENTICATED');
  });
});
