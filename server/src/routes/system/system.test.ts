import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { buildApp } from '../../app.js';
import { StoreUnavailable } from '../../db/index.js';
import { call, expectError, makeApp, signUpUser, testConfig, uniqueName } from '../../test/helpers.js';

let app: App | undefined;
afterEach(async () => { await app?.close(); app = undefined; });

describe('GET /api/health and /api/time', () => {
  it('reports ok with the database state, and 503 once the database is gone', async () => {
    app = await makeApp();
    const ok = await call(app, 'GET', '/api/health');
    expect(ok.statusCode).toBe(200);
    const store = app.ctx.store.kind;
    expect(ok.json()).toEqual({ status: 'ok', db: 'ok', store, redis: 'off', draining: false, scheduler: 'active' });
    await app.ctx.store.close();
    const down = await call(app, 'GET', '/api/health');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'error', db: 'unreachable', store, redis: 'off', draining: false, scheduler: 'active' });
  });

  it('answers 503 "draining" while the process drains before stopping, and still serves requests', async () => {
    app = await makeApp();
    app.ctx.lifecycle.draining = true;
    const health = await call(app, 'GET', '/api/health');
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'draining', db: 'ok', draining: true });
    // Served, on a connection closed after the answer (a balancer's kept-alive ones are let go).
    const time = await call(app, 'GET', '/api/time');
    expect(time.statusCode).toBe(200);
    expect(time.headers.connection).toBe('close');
  });

  it('gives the server clock as an ISO string in TIMEZONE’s offset', async () => {
    app = await makeApp({}, { now: () => Date.parse('2026-11-24T02:15:00.000Z') });
    expect((await call(app, 'GET', '/api/time')).json()).toEqual({ server_time: '2026-11-24T07:45:00.000+05:30' });
  });
});

describe('API conventions', () => {
  it('answers an unknown API route with 404 NOT_FOUND in the error shape, for any method', async () => {
    app = await makeApp();
    expectError(await call(app, 'GET', '/api/nope'), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/nope'), 404, 'NOT_FOUND');
    expectError(await call(app, 'POST', '/api'), 404, 'NOT_FOUND');
  });

  it('never leaks the internals of a 5xx', async () => {
    app = await buildApp(testConfig());
    app.get('/api/boom', async () => { throw new Error('SQLITE secret path /var/data/auction.db'); });
    const res = await call(app, 'GET', '/api/boom');
    const body = expectError(res, 500, 'INTERNAL');
    expect(res.body).not.toMatch(/SQLITE|secret|\/var|stack/i);
    expect(body.error).toBe('Something went wrong on our side; please try again');
  });

  it('answers a busy database with 503 UNAVAILABLE and Retry-After', async () => {
    app = await buildApp(testConfig());
    app.get('/api/busy', async () => { throw new StoreUnavailable('database is locked'); });
    const res = await call(app, 'GET', '/api/busy');
    expectError(res, 503, 'UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('sends security headers on API responses', async () => {
    app = await makeApp();
    const res = await call(app, 'GET', '/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(res.headers['strict-transport-security']).toBeDefined();
    // Helmet's whole default set (computed once at start), on answers, errors and unknown paths alike.
    const helmetSet = ['content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster',
      'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control', 'x-download-options',
      'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];
    for (const r of [res, await call(app, 'GET', '/api/no-such-route'), await call(app, 'POST', '/api/wallet', {})]) {
      for (const h of helmetSet) expect(r.headers[h], `${h} on ${r.statusCode}`).toBeDefined();
    }
    expect(res.headers['x-xss-protection']).toBe('0');
  });

  it('publishes the OpenAPI document at /api/docs/json and its page at /api/docs', async () => {
    app = await makeApp();
    const doc = (await call(app, 'GET', '/api/docs/json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of ['/api/register', '/api/login', '/api/change-password', '/api/admin/register', '/api/admin/login', '/api/admin/change-password', '/api/health']) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.paths['/api/register'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'username', 'password', 'mobile_number']);
    const page = await call(app, 'GET', '/api/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('CORS', () => {
  it('is off by default: no CORS headers for a foreign origin', async () => {
    app = await makeApp();
    const res = await app.inject({ method: 'OPTIONS', url: '/api/login', headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('CORS_ORIGIN allows exactly that origin, with credentials and preflight', async () => {
    app = await makeApp({ corsOrigin: 'https://client.example' });
    const pre = await app.inject({
      method: 'OPTIONS', url: '/api/login',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('https://client.example');
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/authorization/);
    expect(String(pre.headers['access-control-allow-methods'])).toMatch(/PATCH/);
    const other = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).not.toBe('https://evil.example');
  });
});

describe('rate limits on credentials', () => {
  it('allows 20 logins a minute per IP, then 429 RATE_LIMITED in the error shape', async () => {
    app = await makeApp({ rateLimit: true });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await call(app, 'POST', '/api/login', { username: 'nobody', password: 'whatever' })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    const limited = await call(app, 'POST', '/api/login', { username: 'nobody', password: 'whatever' });
    expectError(limited, 429, 'RATE_LIMITED');
    // Another IP is not affected, and reads are never limited.
    const elsewhere = await app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody', password: 'whatever' }, remoteAddress: '10.0.0.9' });
    expect(elsewhere.statusCode).toBe(400);
    for (let i = 0; i < 30; i++) expect((await call(app, 'GET', '/api/health')).statusCode).toBe(200);
  });

  it('limits registration too', async () => {
    app = await makeApp({ rateLimit: true });
    const body = () => ({ name: 'N', username: uniqueName('rl'), password: 'x', mobile_number: '1' });
    for (let i = 0; i < 20; i++) expect((await call(app, 'POST', '/api/register', body())).statusCode).toBe(400);
    expectError(await call(app, 'POST', '/api/register', body()), 429, 'RATE_LIMITED');
    expectError(await call(app, 'POST', '/api/admin/register', body()), 400, 'VALIDATION');
  });

  it('RATE_LIMIT=off disables the limit', async () => {
    app = await makeApp({ rateLimit: false });
    for (let i = 0; i < 25; i++) expect((await call(app, 'POST', '/api/login', { username: 'nobody', password: 'whatever' })).statusCode).toBe(400);
    await signUpUser(app);
  });
});
