/**
 * A buyer's billing details (docs/invoices.md) through the HTTP API, on both stores: none until given, saved
 * and replaced, a business buyer's GSTIN checked against the address's state, each bidder's own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Billing } from '@auction/shared';
import type { App } from '../../context.js';
import { call, expectError, makeApp, signUpAdmin, signUpUser } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

const address = { line1: '7 Residency Road', city: 'Bengaluru', state_code: '29', pin: '560025' };

describe('billing details', () => {
  it('are none until given, then saved and replaced whole', async () => {
    app = await makeApp();
    const asha = await signUpUser(app);
    expect((await call(app, 'GET', '/api/me/billing', undefined, asha.token)).json()).toEqual({ name: null, address: null, gstin: null, updated_at: null });

    const saved = await call(app, 'PUT', '/api/me/billing', { name: 'Asha Rao', address, gstin: null }, asha.token);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Billing>()).toMatchObject({ name: 'Asha Rao', address: { ...address, line2: null }, gstin: null });

    const business = await call(app, 'PUT', '/api/me/billing', { name: 'Acme Traders', address: { ...address, line2: 'Floor 3' }, gstin: '29AAGCB7383J1Z4' }, asha.token);
    expect(business.statusCode, business.body).toBe(200);
    expect((await call(app, 'GET', '/api/me/billing', undefined, asha.token)).json<Billing>())
      .toMatchObject({ name: 'Acme Traders', address: { ...address, line2: 'Floor 3' }, gstin: '29AAGCB7383J1Z4' });
    // Saved whole: what is left out is cleared.
    await call(app, 'PUT', '/api/me/billing', { name: 'Acme Traders', address, gstin: null }, asha.token);
    expect((await call(app, 'GET', '/api/me/billing', undefined, asha.token)).json<Billing>()).toMatchObject({ name: 'Acme Traders', address: { ...address, line2: null }, gstin: null });
    // Each bidder's own.
    const ravi = await signUpUser(app);
    expect((await call(app, 'GET', '/api/me/billing', undefined, ravi.token)).json<Billing>()).toEqual({ name: null, address: null, gstin: null, updated_at: null });
  });

  it('refuse a GSTIN of another state or with a typo, a bad PIN or state, and keep what was there', async () => {
    app = await makeApp();
    const asha = await signUpUser(app);
    await call(app, 'PUT', '/api/me/billing', { name: 'Asha Rao', address, gstin: null }, asha.token);
    const other = expectError(await call(app, 'PUT', '/api/me/billing', { name: 'Acme', address, gstin: '27AAPFU0939F1ZV' }, asha.token), 400, 'VALIDATION');
    expect(other).toMatchObject({ field: 'gstin', message: expect.stringMatching(/state code of the address/) as unknown });
    expect(expectError(await call(app, 'PUT', '/api/me/billing', { name: 'Acme', address, gstin: '29AAGCB7383J1Z5' }, asha.token), 400, 'VALIDATION').field).toBe('gstin');
    for (const bad of [{ address: { ...address, pin: '56002' } }, { address: { ...address, state_code: '28' } }, { name: '' }, { address: null }]) {
      expectError(await call(app, 'PUT', '/api/me/billing', { name: 'Acme', address, gstin: null, ...bad }, asha.token), 400, 'VALIDATION');
    }
    expect((await call(app, 'GET', '/api/me/billing', undefined, asha.token)).json<Billing>().name).toBe('Asha Rao');
  });

  it('are a bidder’s: an admin is refused, a visitor is not signed in', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    expectError(await call(app, 'GET', '/api/me/billing', undefined, admin.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'PUT', '/api/me/billing', { name: 'A', address, gstin: null }, admin.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/me/billing'), 401, 'UNAUTHENTICATED');
  });
});
