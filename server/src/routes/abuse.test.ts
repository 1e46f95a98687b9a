/**
 * Abuse limits: rate limits, the body limit, bounds on every input, safe ids, and the
 * security headers on every answer. Where it can, the test walks the live OpenAPI document, so a new
 * route or field without a bound fails here. (CSV export is the client's, tested there.)
 */
import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_STATUS, LIMITS, TOPUP_MESSAGE, type ErrorCode } from '@auction/shared';
import { BODY_LIMIT, buildApp } from '../app.js';
import type { App } from '../context.js';
import {
  bid, call, createAuction, createProducts, makeApp, richBidder, signUpAdmin, signUpUser, testConfig, uniqueName,
} from '../test/helpers.js';

// ---- every answer is checked: helmet's headers, the error shape, no 5xx unless asked for

const HELMET: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'strict-transport-security': /^max-age=\d+/,
  'content-security-policy': /default-src 'self'/,
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
  'x-download-options': 'noopen',
  'origin-agent-cluster': '?1',
};

function expectSecurityHeaders(res: LightMyRequestResponse, where: string) {
  for (const [name, want] of Object.entries(HELMET)) {
    const got = res.headers[name];
    expect(typeof got, `${where}: ${name}`).toBe('string');
    if (typeof want === 'string') expect(got, `${where}: ${name}`).toBe(want);
    else expect(got, `${where}: ${name}`).toMatch(want);
  }
  expect(res.headers['x-powered-by'], where).toBeUndefined();
}

/** The error body (`{ error, message, code }`, README.md#api), with the code's own status. */
function expectErrorShape(res: LightMyRequestResponse, where: string) {
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = res.json<{ error: unknown; message: unknown; code: ErrorCode }>();
  expect(typeof body.error, where).toBe('string');
  expect((body.error as string).length, where).toBeGreaterThan(0);
  expect(body.message, where).toBe(body.error);
  expect(ERROR_STATUS[body.code], `${where}: ${body.code}`).toBe(res.statusCode);
  return body;
}

/** Injects and checks what every answer must carry; `allow5xx` for the few tests that provoke one. */
async function hit(app: App, opts: InjectOptions & { token?: string | undefined }, allow5xx = false) {
  const { token, ...rest } = opts;
  const res = await app.inject({ ...rest, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...rest.headers } });
  const where = `${opts.method ?? 'GET'} ${opts.url as string} → ${res.statusCode}`;
  expectSecurityHeaders(res, where);
  if (!allow5xx) expect(res.statusCode, `${where} ${res.body.slice(0, 200)}`).toBeLessThan(500);
  // /api/health answers its own body when the database is down.
  if (res.statusCode >= 400 && opts.method !== 'HEAD' && opts.url !== '/api/health') expectErrorShape(res, where);
  return res;
}

const send = (app: App, method: InjectOptions['method'], url: string, body?: unknown, token?: string) =>
  hit(app, { method, url, token, ...(body === undefined ? {} : { payload: body as object }) });

function expectCode(res: LightMyRequestResponse, status: number, code: ErrorCode, field?: string) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ code: string; field?: string; error: string }>();
  expect(body.code).toBe(code);
  if (field !== undefined) expect(body.field, res.body).toBe(field);
  return body;
}

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

// ---- the live route table

interface Schema {
  type?: string; const?: unknown; enum?: unknown[]; anyOf?: Schema[];
  maxLength?: number; pattern?: string; maximum?: number; minimum?: number; exclusiveMinimum?: number;
  maxItems?: number; items?: Schema; properties?: Record<string, Schema>;
}
interface Operation {
  key: string;
  method: InjectOptions['method'];
  path: string;
  body?: Schema;
  params: { in: string; name: string; required?: boolean; schema: Schema }[];
}

const probeApp = await makeApp();
const OPERATIONS: Operation[] = Object.entries((probeApp.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths)
  .flatMap(([path, ops]) => Object.entries(ops).filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map(([m, op]) => ({
    key: `${m.toUpperCase()} ${path}`,
    method: m.toUpperCase(),
    path,
    body: (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content?.['application/json']?.schema,
    params: (op.parameters as Operation['params'] | undefined) ?? [],
  })));
await probeApp.close();

/** A request body every body route accepts past validation (what happens next does not matter here). */
const VALID_BODY: Record<string, () => Record<string, unknown>> = {
  'POST /api/register': () => ({ name: 'Abuse Tester', username: uniqueName('ab'), password: 'secret1', mobile_number: '9876543210' }),
  'POST /api/login': () => ({ username: 'nobody', password: 'whatever' }),
  'POST /api/admin/register': () => ({ name: 'Abuse Admin', username: uniqueName('ab'), password: 'secret1', mobile_number: '9876543210', role: 'admin' }),
  'POST /api/admin/login': () => ({ username: 'nobody', password: 'whatever', role: 'admin' }),
  'POST /api/change-password': () => ({ password: 'not-the-password', new_password: 'secret9' }),
  'POST /api/admin/change-password': () => ({ password: 'not-the-password', new_password: 'secret9', role: 'admin' }),
  'POST /api/auctions/register': () => ({ auction_id: 'nope' }),
  'POST /api/bid': () => ({ product_id: 'nope', bid_amount: 100 }),
  'POST /api/rollback-bid': () => ({ bid_id: 999_999 }),
  'POST /api/buy-now': () => ({ product_id: 'nope' }),
  'POST /api/wallet': () => ({}),
  'POST /api/wallet/topup': () => ({ amount: 10 }),
  'POST /api/admin/product': () => ({ id: uniqueName('AB'), name: 'Abuse product', description: 'd' }),
  'PUT /api/admin/product/{id}': () => ({ name: 'n', description: 'd' }),
  'POST /api/admin/auction': () => ({ id: uniqueName('AB'), name: 'n', valid_until: inHours(2), product_ids: ['nope'], ...STEPS }),
  'PUT /api/admin/auction/{id}': () => ({ name: 'n', valid_until: inHours(2), product_ids: ['nope'], ...STEPS }),
  // Categories (docs/catalogue.md).
  'POST /api/admin/categories': () => ({ name: uniqueName('Abuse category ') }),
  'PUT /api/admin/categories/{id}': () => ({ name: 'n' }),
  'PATCH /api/admin/users/{id}': () => ({ status: 'active' }),
  'PUT /api/admin/profile': () => ({ name: 'Owner', mobile_number: '9876543210' }),
  // Notifications.
  'POST /api/notifications/read': () => ({ ids: [1] }),
  'PUT /api/admin/products/{id}/images/order': () => ({ ids: [1] }),
  // Accounts by email (docs/email.md).
  'PUT /api/me/email': () => ({ email: `${uniqueName('ab').toLowerCase()}@example.com`, password: 'not-the-password' }),
  'POST /api/email/verify': () => ({ token: 'nope' }),
  'DELETE /api/me/email': () => ({ password: 'not-the-password' }),
  'POST /api/email/undo': () => ({ token: 'nope', password: 'secret9' }),
  'POST /api/password/forgot': () => ({ username: 'nobody' }),
  'POST /api/password/reset': () => ({ token: 'nope', password: 'secret9' }),
  'PUT /api/me/notification-settings': () => ({ email: { won: true } }),
  'PUT /api/admin/house': () => ({
    legal_name: 'Abuse House', display_name: 'Abuse', address: { line1: '1 Road', line2: 'Floor 2', city: 'Pune', state_code: '27', pin: '411001' }, gstin: null,
    invoice_prefix: null, phone: '9876543210', email: 'house@example.com', payout: { holder: 'Abuse House', ifsc: 'HDFC0001234', account_number: '001234567890' },
    pickup_locations: [{ name: 'Warehouse', address: { line1: '2 Road', city: 'Pune', state_code: '27', pin: '411001' }, instructions: 'Gate 2', hours: '10–6' }],
  }),
  'PUT /api/me/billing': () => ({ name: 'Abuse Buyer', address: { line1: '1 Road', line2: 'Floor 2', city: 'Pune', state_code: '27', pin: '411001' }, gstin: null }),
  'POST /api/unsubscribe': () => ({ token: 'nope' }),
  // POST /api/admin/products/{id}/images takes multipart/form-data, not JSON, so it has no JSON body
  // here: its path id is probed below, and JSON over 64 KiB is still 413. Its own limits (MEDIA_MAX_MB,
  // one file in the field image, bytes that decode) are tested in images.test.ts.
};

/** Routes whose body holds only booleans (routes/email.test.ts refuses a switch that is not one). */
const SWITCHES_ONLY = new Set(['PUT /api/me/notification-settings']);

/** Seller-chosen steps, so that the bounds of each tier's fields are probed too. */
const STEPS = { increment_rule: 'custom', increment_amount: 5, increment_tiers: [{ below: 1000, step: 10 }, { step: 50 }], cancel_policy: 'strict' };

/** Path parameters: '1' fits both id shapes (text ids, numeric user ids); unknown targets answer 404. */
const url = (op: Operation, override: Record<string, string> = {}) => {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(override[name] ?? '1'));
  const query = op.params.filter((p) => p.in === 'query' && (p.required || p.name in override)).map((p) => `${p.name}=${encodeURIComponent(override[p.name] ?? '1')}`);
  return query.length ? `${path}?${query.join('&')}` : path;
};

/** Values a field must refuse as over-long or out of range: [what, value, field reported]. */
function outOfBounds(field: string, s: Schema, valid: unknown, unbounded: string[]): [string, unknown, string][] {
  const variants = s.anyOf ?? [s];
  const out: [string, unknown, string][] = [];
  for (const v of variants) {
    if (v.const !== undefined || v.enum !== undefined) continue;
    if (v.type === 'string') {
      if (v.maxLength === undefined && v.pattern === undefined) unbounded.push(`${field}: a string without maxLength`);
      out.push([`${field} over-long`, '1'.repeat((v.maxLength ?? 4096) + 1), field]);
    } else if (v.type === 'number' || v.type === 'integer') {
      if (v.maximum === undefined) unbounded.push(`${field}: a number without maximum`);
      else out.push([`${field} above its maximum`, v.maximum + 1, field]);
      if (v.minimum !== undefined) out.push([`${field} below its minimum`, v.minimum - 1, field]);
      else if (v.exclusiveMinimum !== undefined) out.push([`${field} at its exclusive minimum`, v.exclusiveMinimum, field]);
      else unbounded.push(`${field}: a number without minimum`);
    } else if (v.type === 'array') {
      const item: unknown = Array.isArray(valid) ? valid[0] : undefined;
      if (v.maxItems === undefined) unbounded.push(`${field}: an array without maxItems`);
      else out.push([`${field} with too many items`, Array.from({ length: v.maxItems + 1 }, () => item), field]);
      if (v.items) {
        for (const [what, bad, f] of outOfBounds(`${field}.0`, v.items, item, unbounded)) out.push([what, [bad], f]);
      }
    } else if (v.type === 'object' && v.properties) {
      const fields = (valid ?? {}) as Record<string, unknown>;
      for (const [key, sub] of Object.entries(v.properties)) {
        for (const [what, bad, f] of outOfBounds(`${field}.${key}`, sub, fields[key], unbounded)) out.push([what, { ...fields, [key]: bad }, f]);
      }
    } else if (v.type !== 'boolean' && v.type !== 'null') {
      unbounded.push(`${field}: type ${v.type ?? 'unknown'} is not checked here`);
    }
  }
  return out;
}

describe('inputs: every string, number and list the API takes is bounded (generated from the OpenAPI document)', () => {
  let app: App;
  let tokens: (string | undefined)[];
  beforeAll(async () => {
    app = await makeApp();
    const owner = await signUpAdmin(app);
    const user = await richBidder(app, 1000);
    tokens = [undefined, user.token, owner.token];
  });
  afterAll(async () => { await app.close(); });

  /** The first caller (none, a bidder, the owner) the route lets past its guard. */
  async function allowedToken(op: Operation, body: unknown) {
    for (const token of tokens) {
      const res = await hit(app, { method: op.method, url: url(op), token, ...(body === undefined ? {} : { payload: body as object }) });
      if (res.statusCode !== 401 && !(res.statusCode === 403 && res.json<{ code: string }>().code === 'FORBIDDEN')) return { token, res };
    }
    throw new Error(`${op.key}: no caller gets past the guard`);
  }

  it('every route with a body has a valid body in this file', () => {
    expect(OPERATIONS.filter((op) => op.body && !VALID_BODY[op.key]).map((op) => op.key)).toEqual([]);
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(OPERATIONS.filter((op) => op.body || op.params.length).map((op) => [op.key, op] as const))('%s', async (_key, op) => {
    const unbounded: string[] = [];
    const valid = VALID_BODY[op.key]?.();
    const { token, res: baseline } = await allowedToken(op, valid);
    // The baseline passes validation, so each refusal below is the probed field's.
    expect(baseline.json<{ code?: string }>().code, `${op.key} baseline: ${baseline.body}`).not.toBe('VALIDATION');
    const probes: { what: string; url: string; body?: unknown; field: string }[] = [];
    if (op.body && valid) {
      for (const [field, schema] of Object.entries(op.body.properties ?? {})) {
        for (const [what, bad, f] of outOfBounds(field, schema, valid[field], unbounded)) probes.push({ what, url: url(op), body: { ...VALID_BODY[op.key]!(), [field]: bad }, field: f });
      }
    }
    for (const p of op.params) {
      // Longer path segments are refused by the router before the schema sees them.
      if (p.in === 'path' && !((p.schema.maxLength ?? Infinity) <= 100)) unbounded.push(`${p.name}: a path parameter needs a maxLength of at most 100`);
      for (const [what, bad, f] of outOfBounds(p.name, p.schema, '1', unbounded)) {
        if (typeof bad === 'string') probes.push({ what, url: url(op, { [p.name]: bad }), ...(valid ? { body: valid } : {}), field: f });
      }
    }
    expect(unbounded).toEqual([]);
    // A body of switches alone has nothing to bound (its types are checked in its own suite).
    if (!SWITCHES_ONLY.has(op.key)) expect(probes.length).toBeGreaterThan(0);
    for (const probe of probes) {
      const name = `${op.key}: ${probe.what}`;
      const res = await hit(app, { method: op.method, url: probe.url, token, ...(probe.body === undefined ? {} : { payload: probe.body as object }) });
      expect(res.statusCode, `${name} → ${res.body}`).toBe(400);
      expect(res.json<{ code: string; field: string }>(), name).toMatchObject({ code: 'VALIDATION', field: probe.field });
    }
  });
});

describe('inputs: limits at and just past the edge', () => {
  let app: App;
  let owner: Awaited<ReturnType<typeof signUpAdmin>>;
  let user: Awaited<ReturnType<typeof richBidder>>;
  let productId: string;
  beforeAll(async () => {
    app = await makeApp();
    owner = await signUpAdmin(app);
    const a = await createAuction(app, owner.token);
    productId = a.productIds[0]!;
    user = await richBidder(app, 100, [a.auctionId]);
  });
  afterAll(async () => { await app.close(); });

  const account = (over: Record<string, unknown>) => ({ name: 'Edge Case', username: uniqueName('e'), password: 'secret1', mobile_number: '9876543210', ...over });

  it.each([
    ['a 120-character name; 121 refused', 'name', 'n'.repeat(LIMITS.nameMax), 'n'.repeat(LIMITS.nameMax + 1)],
    ['a 32-character username; 33 refused', 'username', 'u'.repeat(LIMITS.usernameMax), 'u'.repeat(LIMITS.usernameMax + 1)],
    ['a 3-character username; 2 refused', 'username', 'a3c', 'ab'],
    ['username letters, digits, _ . -; a space refused', 'username', 'A.b_c-9', 'a b c'],
    ['username; markup refused', 'username', 'abd', 'ab<script>'],
    ['username; a non-ASCII letter refused', 'username', 'abe', 'josé'],
    ['a 6-character password; 5 refused', 'password', 'p'.repeat(LIMITS.passwordMin), 'p'.repeat(LIMITS.passwordMin - 1)],
    ['a 128-character password; 129 refused', 'password', 'p'.repeat(LIMITS.passwordMax), 'p'.repeat(LIMITS.passwordMax + 1)],
    ['a 7-digit mobile; 6 refused', 'mobile_number', '1234567', '123456'],
    ['+ and 15 digits; 16 digits refused', 'mobile_number', `+${'1'.repeat(15)}`, '1'.repeat(16)],
    ['digits only; a dash refused', 'mobile_number', '9876543210', '98765-43210'],
  ])('register: %s', async (_what, field, ok, bad) => {
    // (Each accepted username appears once: usernames are unique.)
    expect((await send(app, 'POST', '/api/register', account({ [field]: ok }))).statusCode).toBe(201);
    expectCode(await send(app, 'POST', '/api/register', account({ [field]: bad })), 400, 'VALIDATION', field);
  });

  it('ids past 32 bits (the API takes 15 digits) name nothing: 404, on both stores', async () => {
    expectCode(await send(app, 'POST', '/api/rollback-bid', { bid_id: '9876543210' }, user.token), 404, 'NOT_FOUND');
    expectCode(await send(app, 'PATCH', '/api/admin/users/987654321012345', { status: 'inactive' }, owner.token), 404, 'NOT_FOUND');
  });

  it('NUL characters: refused as 400 VALIDATION naming the field, in bodies, path ids, query strings and keys (PostgreSQL cannot store them)', async () => {
    expectCode(await send(app, 'POST', '/api/register', account({ name: 'Nul\u0000Name' })), 400, 'VALIDATION', 'name');
    expectCode(await send(app, 'POST', '/api/login', { username: 'a\u0000b', password: 'secret1' }), 400, 'VALIDATION', 'username');
    expectCode(await send(app, 'POST', '/api/admin/product', { id: 'P\u0000', name: 'Lamp', description: 'Brass' }, owner.token), 400, 'VALIDATION', 'id');
    expectCode(await send(app, 'DELETE', '/api/admin/auction/%00', undefined, owner.token), 400, 'VALIDATION', 'id');
    expectCode(await send(app, 'GET', '/api/highest-bid?product_key=%00', undefined, user.token), 400, 'VALIDATION', 'product_key');
    expectCode(await send(app, 'POST', '/api/bid', { product_id: productId, bid_amount: 5, 'x\u0000': 1 }, user.token), 400, 'VALIDATION', 'body');
    // Nothing of it was written, and the same values without the NUL are fine.
    expect((await send(app, 'POST', '/api/admin/product', { id: uniqueName('P'), name: 'Lamp', description: 'Brass' }, owner.token)).statusCode).toBe(201);
  });

  it('passwords: login and change-password refuse over-long ones as 400 VALIDATION, never by hashing them', async () => {
    const u = await signUpUser(app);
    const huge = 'p'.repeat(LIMITS.passwordMax + 1);
    expectCode(await send(app, 'POST', '/api/login', { username: u.username, password: huge }), 400, 'VALIDATION', 'password');
    expectCode(await send(app, 'POST', '/api/admin/login', { username: u.username, password: huge }), 400, 'VALIDATION', 'password');
    expectCode(await send(app, 'POST', '/api/change-password', { password: huge, new_password: 'secret9' }, u.token), 400, 'VALIDATION', 'password');
    expectCode(await send(app, 'POST', '/api/change-password', { password: u.password, new_password: huge }, u.token), 400, 'VALIDATION', 'new_password');
    expectCode(await send(app, 'POST', '/api/change-password', { password: u.password, new_password: 'short' }, u.token), 400, 'VALIDATION', 'new_password');
  });

  it('names a bidder sends for themselves are bounded like usernames and ids', async () => {
    expectCode(await send(app, 'POST', '/api/wallet', { username: 'u'.repeat(LIMITS.usernameMax + 1) }, user.token), 400, 'VALIDATION', 'username');
    expectCode(await send(app, 'POST', '/api/wallet', { user_id: 0 }, user.token), 400, 'VALIDATION', 'user_id');
    expectCode(await send(app, 'POST', '/api/wallet', { user_id: 2 ** 53 }, user.token), 400, 'VALIDATION', 'user_id');
    expect((await send(app, 'POST', '/api/wallet', { username: user.username.toUpperCase(), user_id: user.user.id }, user.token)).statusCode).toBe(200);
  });

  it.each([
    ['a 64-character id', 'i'.repeat(LIMITS.idMax), true],
    ['letters, digits, _ - .', 'Vase_01.a-b', true],
    ['dots among other characters', 'v1...2', true],
    ['a 65-character id', 'i'.repeat(LIMITS.idMax + 1), false],
    ['an empty id', '', false],
    ['a space', 'a b', false],
    ['a slash', 'a/b', false],
    ['a percent sign', 'a%2Fb', false],
    ['a question mark', 'a?b', false],
    ['a hash', 'a#b', false],
    ['markup', '<b>', false],
    ['a non-ASCII letter', 'vasé', false],
    ['a NUL', 'a\u0000b', false],
    ['a newline', 'a\nb', false],
    // Dot segments: a browser resolves /api/admin/product/.. to /api/admin/, so such an id could never be edited.
    ['only a dot', '.', false],
    ['only two dots', '..', false],
  ])('product and auction ids: %s', async (_what, id, accepted) => {
    const product = await send(app, 'POST', '/api/admin/product', { id, name: 'n', description: 'd' }, owner.token);
    if (accepted) {
      expect(product.statusCode, product.body).toBe(201);
      const auction = await send(app, 'POST', '/api/admin/auction', { id, name: 'n', valid_until: inHours(2), product_ids: [id] }, owner.token);
      expect(auction.statusCode, auction.body).toBe(201);
      // And it is reachable by path, as the client calls it.
      expect((await send(app, 'GET', `/api/admin/auction/${encodeURIComponent(id)}`, undefined, owner.token)).statusCode).toBe(200);
    } else {
      expectCode(product, 400, 'VALIDATION', 'id');
      expectCode(await send(app, 'POST', '/api/admin/auction', { id, name: 'n', valid_until: inHours(2), product_ids: ['x'] }, owner.token), 400, 'VALIDATION', 'id');
      expectCode(await send(app, 'POST', '/api/admin/auction', { id: uniqueName('A'), name: 'n', valid_until: inHours(2), product_ids: [id] }, owner.token), 400, 'VALIDATION', 'product_ids.0');
    }
  });

  it('names, descriptions, date-times and product lists', async () => {
    const [p] = await createProducts(app, owner.token, 1);
    const at = (over: Record<string, unknown>) => send(app, 'POST', '/api/admin/product', { id: uniqueName('E'), name: 'n', description: 'd', ...over }, owner.token);
    expect((await at({ name: 'n'.repeat(LIMITS.nameMax), description: 'd'.repeat(LIMITS.descriptionMax) })).statusCode).toBe(201);
    expectCode(await at({ name: 'n'.repeat(LIMITS.nameMax + 1) }), 400, 'VALIDATION', 'name');
    expectCode(await at({ description: 'd'.repeat(LIMITS.descriptionMax + 1) }), 400, 'VALIDATION', 'description');
    expectCode(await send(app, 'PUT', `/api/admin/product/${p}`, { name: 'n', description: 'd'.repeat(LIMITS.descriptionMax + 1) }, owner.token), 400, 'VALIDATION', 'description');
    expectCode(await send(app, 'PUT', '/api/admin/profile', { name: 'n'.repeat(LIMITS.nameMax + 1), mobile_number: '9876543210' }, owner.token), 400, 'VALIDATION', 'name');
    const auction = (over: Record<string, unknown>) => send(app, 'POST', '/api/admin/auction', { id: uniqueName('E'), name: 'n', valid_until: inHours(2), product_ids: [p], ...over }, owner.token);
    for (const when of ['tomorrow', '2026-13-45T07:45', '1'.repeat(41), 1_800_000_000_000]) {
      expectCode(await auction({ valid_until: when }), 400, 'VALIDATION', 'valid_until');
    }
    expectCode(await auction({ product_ids: [] }), 400, 'VALIDATION', 'product_ids');
    expectCode(await auction({ product_ids: Array.from({ length: 501 }, (_, i) => `p${i}`) }), 400, 'VALIDATION', 'product_ids');
  });

  it('bid amounts: more than ₹0, at most 2 decimals, at most ₹1,00,00,00,000; numbers only', async () => {
    const place = (amount: unknown) => send(app, 'POST', '/api/bid', { product_id: productId, bid_amount: amount }, user.token);
    for (const amount of [0, -1, -0.01, 0.001, 100.005, LIMITS.bidMaxRupees + 0.01, LIMITS.bidMaxRupees + 1, 1e300, '100', null, true, [100], { v: 100 }]) {
      expectCode(await place(amount), 400, 'VALIDATION', 'bid_amount');
    }
    // JSON has no Infinity, but 1e309 parses as one.
    const inf = await hit(app, { method: 'POST', url: '/api/bid', token: user.token, headers: { 'content-type': 'application/json' }, payload: `{"product_id":"${productId}","bid_amount":1e309}` });
    expectCode(inf, 400, 'VALIDATION', 'bid_amount');
    // At the bounds the amount is valid; the wallet decides.
    expectCode(await place(LIMITS.bidMaxRupees), 402, 'INSUFFICIENT_FUNDS');
    expect((await place(1)).statusCode).toBe(201);
    expectCode(await place(1.99), 409, 'BID_TOO_LOW');
    expect((await place(2.01)).statusCode).toBe(201);
  });

  it('top-ups: ₹10 to ₹1,00,000 with at most 2 decimals, in the specification’s words', async () => {
    const u = await signUpUser(app);
    const topUp = (amount: unknown) => send(app, 'POST', '/api/wallet/topup', { amount }, u.token);
    for (const amount of [0, -10, 9.99, 10.001, LIMITS.topupMaxRupees + 0.01, 1e9, '50', null]) {
      const body = expectCode(await topUp(amount), 400, 'VALIDATION', 'amount');
      if (typeof amount === 'number') expect(body.error).toBe(TOPUP_MESSAGE);
    }
    expect((await topUp(LIMITS.topupMinRupees)).statusCode).toBe(200);
    expect((await topUp(LIMITS.topupMaxRupees)).statusCode).toBe(200);
    expect((await topUp(10.5)).json<{ wallet_balance: number }>().wallet_balance).toBe(100_020.5);
  });

  it('numeric ids: bid ids and user ids are digits only, at most 15, never zero or negative', async () => {
    for (const id of [0, -1, 1.5, 2 ** 53, '1e3', '0x10', ' 1', '1'.repeat(16), '', null]) {
      expectCode(await send(app, 'POST', '/api/rollback-bid', { bid_id: id }, user.token), 400, 'VALIDATION', 'bid_id');
    }
    for (const id of ['abc', '1.5', '-1', '1e3', '1'.repeat(16)]) {
      expectCode(await send(app, 'PATCH', `/api/admin/users/${encodeURIComponent(id)}`, { status: 'active' }, owner.token), 400, 'VALIDATION', 'id');
    }
  });
});

describe('the 64 KiB body limit', () => {
  let app: App;
  let tokens: (string | undefined)[];
  beforeAll(async () => {
    app = await makeApp();
    const owner = await signUpAdmin(app);
    const user = await signUpUser(app);
    tokens = [undefined, user.token, owner.token];
  });
  afterAll(async () => { await app.close(); });

  /** A JSON object of exactly `bytes` bytes. */
  const jsonOf = (bytes: number) => {
    const shell = '{"pad":""}';
    return `{"pad":"${'x'.repeat(bytes - shell.length)}"}`;
  };
  const post = (op: Operation, payload: string | Readable, token: string | undefined) =>
    hit(app, { method: op.method, url: url(op), token, headers: { 'content-type': 'application/json' }, payload });

  it.each(OPERATIONS.filter((op) => op.method !== 'GET').map((op) => [op.key, op] as const))('%s: 413 PAYLOAD_TOO_LARGE for the caller it admits, 401 unread for no one', async (_key, op) => {
    const big = jsonOf(BODY_LIMIT + 1);
    expect(Buffer.byteLength(big)).toBe(65_537);
    let answered = false;
    for (const token of tokens) {
      const res = await post(op, big, token);
      if (res.statusCode === 401 || (res.statusCode === 403 && res.json<{ code: string }>().code === 'FORBIDDEN')) continue;
      expectCode(res, 413, 'PAYLOAD_TOO_LARGE');
      expect(res.json<{ error: string }>().error).toBe('Request body must not exceed 64 KiB');
      answered = true;
      break;
    }
    expect(answered, `${op.key}: no caller got past the guard`).toBe(true);
  });

  it('exactly 64 KiB is read; a streamed body without a length is cut off at the limit too', async () => {
    const register = OPERATIONS.find((op) => op.key === 'POST /api/register')!;
    expect(Buffer.byteLength(jsonOf(BODY_LIMIT))).toBe(BODY_LIMIT);
    // Read and validated: the padding is ignored and the first missing field is named.
    expectCode(await post(register, jsonOf(BODY_LIMIT), undefined), 400, 'VALIDATION', 'name');
    const chunks = Array.from({ length: 17 }, (_, i) => (i === 0 ? '{"pad":"' : '') + 'x'.repeat(4096));
    const streamed = await post(register, Readable.from([...chunks, '"}']), undefined);
    expectCode(streamed, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('rate limits (RATE_LIMIT on)', () => {
  afterEach(() => { vi.useRealTimers(); });
  const T = Date.parse('2026-11-24T10:00:00.000Z');

  it.each(['/api/login', '/api/register', '/api/admin/login', '/api/admin/register'])('%s: 20 a minute per IP, then 429 RATE_LIMITED with Retry-After; another IP and the next minute are free', async (path) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const app = await makeApp({ rateLimit: true });
    try {
      // An empty body is refused by validation, which runs after the limiter: cheap, and still counted.
      const attempt = (remoteAddress = '127.0.0.1') => hit(app, { method: 'POST', url: path, payload: {}, remoteAddress });
      for (let i = 0; i < 20; i++) expect((await attempt()).statusCode).toBe(400);
      const limited = await attempt();
      expect(expectCode(limited, 429, 'RATE_LIMITED').error).toMatch(/try again/i);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect((await attempt('10.0.0.9')).statusCode).toBe(400);
      vi.setSystemTime(T + 60_000);
      expect((await attempt()).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });

  it.each([
    [false, 'ignored: every client behind the proxy shares its address'],
    [true, 'trusted: each forwarded client has its own budget'],
  ])('TRUST_PROXY=%s: X-Forwarded-For is %s', async (trustProxy) => {
    const app = await makeApp({ rateLimit: true, trustProxy });
    try {
      const attempt = (client: string) => hit(app, { method: 'POST', url: '/api/login', payload: {}, remoteAddress: '10.0.0.1', headers: { 'x-forwarded-for': client } });
      for (let i = 0; i < 20; i++) expect((await attempt('203.0.113.7')).statusCode).toBe(400);
      expect((await attempt('203.0.113.7')).statusCode).toBe(429);
      expect((await attempt('198.51.100.4')).statusCode).toBe(trustProxy ? 400 : 429);
    } finally {
      await app.close();
    }
  });

  it('reads and other routes are not limited', async () => {
    const app = await makeApp({ rateLimit: true });
    try {
      const u = await signUpUser(app);
      for (let i = 0; i < 50; i++) expect((await send(app, 'GET', '/api/auctions', undefined, u.token)).statusCode).toBe(200);
      for (let i = 0; i < 30; i++) expect((await send(app, 'POST', '/api/wallet', {}, u.token)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('bids: 20 a second per user (not per IP); a limited bid is not recorded and moves no money', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const app = await makeApp({ rateLimit: true });
    try {
      const admin = await signUpAdmin(app);
      const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
      const asha = await richBidder(app, 10_000, [auctionId]);
      const ravi = await richBidder(app, 10_000, [auctionId]);
      const statuses: number[] = [];
      for (let i = 1; i <= 20; i++) statuses.push((await bid(app, asha.token, p!, i)).statusCode);
      expect(statuses.every((s) => s === 201)).toBe(true);
      const limited = await hit(app, { method: 'POST', url: '/api/bid', token: asha.token, payload: { product_id: p, bid_amount: 500 } });
      expectCode(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBe(1);
      // Not recorded, nothing held: Asha still leads at 20.
      const mine = (await call(app, 'GET', '/api/user-bids', undefined, asha.token)).json<{ amount: number }[]>();
      expect(mine).toHaveLength(20);
      expect((await call(app, 'GET', `/api/highest-bid?product_key=${p}`, undefined, asha.token)).json()).toEqual({ highest_bid: 20 });
      expect((await call(app, 'POST', '/api/wallet', {}, asha.token)).json()).toEqual({ wallet_balance: 9_980, on_hold: 20 });
      // Another bidder from the same address is not affected.
      expect((await bid(app, ravi.token, p!, 21)).statusCode).toBe(201);
      // The next second Asha may bid again.
      vi.setSystemTime(T + 1_000);
      expect((await bid(app, asha.token, p!, 22)).statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });
});

describe('security headers and the error shape on every kind of answer', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig({ rateLimit: true }));
    app.get('/api/boom', async () => { throw new Error('internal detail'); });
    await app.ready();
  });
  afterAll(async () => { await app.close(); });

  it('2xx, 4xx of every kind, 404s, the docs, the plain-HTTP WebSocket route and a 5xx all carry them', async () => {
    const u = await signUpUser(app);
    const admin = await signUpAdmin(app);
    const json = { 'content-type': 'application/json' };
    const cases: [string, InjectOptions & { token?: string }, number][] = [
      ['200', { method: 'GET', url: '/api/health' }, 200],
      ['201', { method: 'POST', url: '/api/register', payload: { name: 'H', username: uniqueName('h'), password: 'secret1', mobile_number: '9876543210' } }, 201],
      ['HEAD', { method: 'HEAD', url: '/api/time' }, 200],
      ['400 validation', { method: 'POST', url: '/api/admin/product', token: admin.token, payload: { id: '..', name: 'n', description: 'd' } }, 400],
      ['400 broken JSON', { method: 'POST', url: '/api/wallet', token: u.token, headers: json, payload: '{"a":' }, 400],
      ['401', { method: 'GET', url: '/api/auctions' }, 401],
      ['403', { method: 'GET', url: '/api/admin/stats', token: u.token }, 403],
      ['404 unknown route', { method: 'GET', url: '/api/nope' }, 404],
      ['404 unknown id', { method: 'GET', url: '/api/admin/auction/nope', token: admin.token }, 404],
      ['404 WebSocket route without an upgrade', { method: 'GET', url: '/api/ws' }, 404],
      ['400 malformed percent-encoding (refused before routing)', { method: 'GET', url: '/api/auctions/%zz/products', token: u.token }, 400],
      ['400 path segment over 100 characters (refused before routing)', { method: 'DELETE', url: `/api/admin/product/${'p'.repeat(101)}`, token: admin.token }, 400],
      ['409', { method: 'POST', url: '/api/register', payload: { name: 'H', username: u.username, password: 'secret1', mobile_number: '9876543210' } }, 409],
      ['413', { method: 'POST', url: '/api/wallet', token: u.token, headers: json, payload: `{"p":"${'x'.repeat(BODY_LIMIT)}"}` }, 413],
      ['415', { method: 'POST', url: '/api/login', headers: { 'content-type': 'text/plain' }, payload: 'x' }, 415],
      ['docs page', { method: 'GET', url: '/api/docs' }, 200],
      ['OpenAPI document', { method: 'GET', url: '/api/docs/json' }, 200],
    ];
    for (const [what, opts, status] of cases) {
      const res = await hit(app, opts);
      expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBe(status);
    }
    for (let i = 0; i < 20; i++) await hit(app, { method: 'POST', url: '/api/login', payload: {} });
    expect((await hit(app, { method: 'POST', url: '/api/login', payload: {} })).statusCode).toBe(429);
    const boom = await hit(app, { method: 'GET', url: '/api/boom' }, true);
    expectCode(boom, 500, 'INTERNAL');
    expect(boom.body).not.toContain('internal detail');
    // The client's pages (or the 404 when the client is not built) too.
    expect([200, 404]).toContain((await hit(app, { method: 'GET', url: '/' })).statusCode);
    expect([200, 404]).toContain((await hit(app, { method: 'GET', url: '/auctions/some-page' })).statusCode);
  });

  it('a 503 (database gone) carries them too', async () => {
    const other = await makeApp();
    try {
      await other.ctx.store.close();
      const res = await hit(other, { method: 'GET', url: '/api/health' }, true);
      expect(res.statusCode).toBe(503);
    } finally {
      await other.close();
    }
  });
});
