/**
 * Tokens, beyond what accounts.test.ts and live.test.ts already prove (tampered
 * signature, another key, `alg: none` and an expired token at the HTTP edge): the token service on its
 * own, expiry of tokens the service remembers as verified, revocation of every older session, and
 * the key file.
 */
import { createHmac, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../context.js';
import { call, expectError, makeApp, signUpAdmin, signUpUser, tempDir, TEST_SECRET } from '../test/helpers.js';
import { loadJwtSecret } from './secret.js';
import { createTokenService } from './tokens.js';

const KEY = new TextEncoder().encode(TEST_SECRET);
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hmac = (hash: 'sha256' | 'sha384' | 'sha512', data: string, key: Uint8Array = KEY) => createHmac(hash, key).update(data).digest('base64url');
const seconds = () => Math.floor(Date.now() / 1000);
const claims = (over: Record<string, unknown> = {}) => ({ sub: '7', role: 'user', ver: 0, iat: seconds(), exp: seconds() + 3600, ...over });

/** A token built by hand: any header and payload, HMAC-SHA-256 with the server's key unless told otherwise. */
function forge(header: object, payload: object, sign: (data: string) => string = (data) => hmac('sha256', data)) {
  const data = `${b64(header)}.${b64(payload)}`;
  return `${data}.${sign(data)}`;
}

describe('verify: only HS256 tokens signed with the server’s key, with well-formed claims', () => {
  it('accepts its own tokens and a hand-built HS256 token (the control for the forgeries below)', async () => {
    const tokens = await createTokenService(KEY, '1h');
    expect(await tokens.verify(await tokens.sign({ id: 7, role: 'admin', ver: 3 }))).toEqual({ id: 7, role: 'admin', ver: 3, exp: expect.any(Number) });
    expect(await tokens.verify(forge({ alg: 'HS256', typ: 'JWT' }, claims()))).toEqual({ id: 7, role: 'user', ver: 0, exp: expect.any(Number) });
  });

  it('refuses alg none in any spelling, with or without a signature', async () => {
    const tokens = await createTokenService(KEY, '1h');
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      const unsigned = `${b64({ alg, typ: 'JWT' })}.${b64(claims())}.`;
      expect(await tokens.verify(unsigned), alg).toBeNull();
      expect(await tokens.verify(unsigned.slice(0, -1)), `${alg} without the last dot`).toBeNull();
      expect(await tokens.verify(forge({ alg, typ: 'JWT' }, claims())), `${alg} with an HS256 signature`).toBeNull();
    }
  });

  it('refuses HS384 and HS512 even with the right key, and RS256 (by its own key, or HMAC’d with ours)', async () => {
    const tokens = await createTokenService(KEY, '1h');
    for (const alg of ['HS384', 'HS512'] as const) {
      const viaJose = await new SignJWT({ role: 'user', ver: 0 }).setProtectedHeader({ alg }).setSubject('7').setIssuedAt().setExpirationTime('1h').sign(KEY);
      expect(await tokens.verify(viaJose), alg).toBeNull();
      expect(await tokens.verify(forge({ alg }, claims(), (d) => hmac(alg === 'HS384' ? 'sha384' : 'sha512', d))), alg).toBeNull();
    }
    // Key confusion: an asymmetric alg in the header, the signature an HMAC with the server's secret.
    expect(await tokens.verify(forge({ alg: 'RS256' }, claims()))).toBeNull();
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rs256 = await new SignJWT({ role: 'user', ver: 0 }).setProtectedHeader({ alg: 'RS256' }).setSubject('7').setExpirationTime('1h').sign(privateKey);
    expect(await tokens.verify(rs256)).toBeNull();
  });

  it('refuses another key, a changed payload and malformed tokens', async () => {
    const tokens = await createTokenService(KEY, '1h');
    const otherKey = new TextEncoder().encode('another-secret-that-is-at-least-32-characters');
    expect(await tokens.verify(forge({ alg: 'HS256' }, claims(), (d) => hmac('sha256', d, otherKey)))).toBeNull();
    expect(await (await createTokenService(otherKey, '1h')).verify(await tokens.sign({ id: 7, role: 'user', ver: 0 }))).toBeNull();
    const [h, , s] = forge({ alg: 'HS256' }, claims()).split('.');
    expect(await tokens.verify(`${h}.${b64(claims({ sub: '8' }))}.${s}`)).toBeNull();
    expect(await tokens.verify(`${h}.${b64(claims({ role: 'admin' }))}.${s}`)).toBeNull();
    for (const garbage of ['', '.', '..', 'a.b', 'a.b.c', 'a.b.c.d', `${h}.${s}`, 'x'.repeat(10_000)]) {
      expect(await tokens.verify(garbage), garbage.slice(0, 20)).toBeNull();
    }
  });

  it('refuses correctly signed tokens whose claims are missing or malformed', async () => {
    const tokens = await createTokenService(KEY, '1h');
    const { exp: _exp, ...noExp } = claims();
    const { sub: _sub, ...noSub } = claims();
    const { ver: _ver, ...noVer } = claims();
    const { role: _role, ...noRole } = claims();
    const bad: [string, object][] = [
      ['no exp', noExp], ['no sub', noSub], ['no ver', noVer], ['no role', noRole],
      ['role owner', claims({ role: 'owner' })], ['role ADMIN', claims({ role: 'ADMIN' })],
      ['ver as text', claims({ ver: '0' })], ['ver 1.5', claims({ ver: 1.5 })],
      ['sub 0', claims({ sub: '0' })], ['sub -1', claims({ sub: '-1' })], ['sub abc', claims({ sub: 'abc' })], ['sub 1.5', claims({ sub: '1.5' })],
      ['sub beyond safe integers', claims({ sub: '9007199254740993' })],
      ['not yet valid (nbf)', claims({ nbf: seconds() + 600 })],
      ['exp as text', claims({ exp: String(seconds() + 3600) })],
    ];
    for (const [why, payload] of bad) expect(await tokens.verify(forge({ alg: 'HS256' }, payload)), why).toBeNull();
  });
});

describe('expiry is enforced, also for a token remembered as verified', () => {
  afterEach(() => { vi.useRealTimers(); });
  const T = Date.parse('2026-11-24T10:00:00.000Z');

  it('a cached token stops working at exp, to the second; an uncached one the same', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const tokens = await createTokenService(KEY, '1m');
    const cached = await tokens.sign({ id: 7, role: 'user', ver: 0 });
    const fresh = await tokens.sign({ id: 8, role: 'user', ver: 0 });
    expect(await tokens.verify(cached)).not.toBeNull();
    vi.setSystemTime(T + 59_999);
    expect(await tokens.verify(cached), 'cached, one tick before exp').not.toBeNull();
    vi.setSystemTime(T + 60_000);
    expect(await tokens.verify(cached), 'cached, at exp').toBeNull();
    expect(await tokens.verify(cached), 'asked again').toBeNull();
    expect(await tokens.verify(fresh), 'never verified before, at exp').toBeNull();
  });

  it('over HTTP: a token used (and cached) before its expiry is 401 after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(T);
    const app = await makeApp({ tokenTtl: '2m' });
    try {
      const u = await signUpUser(app);
      expect((await call(app, 'GET', '/api/auctions', undefined, u.token)).statusCode).toBe(200);
      expect((await call(app, 'GET', '/api/user-bids', undefined, u.token)).statusCode).toBe(200);
      vi.setSystemTime(T + 120_000);
      expectError(await call(app, 'GET', '/api/auctions', undefined, u.token), 401, 'UNAUTHENTICATED');
      expectError(await call(app, 'GET', '/api/user-bids', undefined, u.token), 401, 'UNAUTHENTICATED');
      const again = await call(app, 'POST', '/api/login', { username: u.username, password: u.password });
      expect((await call(app, 'GET', '/api/auctions', undefined, again.json<{ token: string }>().token)).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('revocation: a password change ends every older session at once', () => {
  let app: App | undefined;
  afterEach(async () => { await app?.close(); app = undefined; });

  it.each(['user', 'admin'] as const)('%s: two sessions, both used (cached as verified), both refused after the change', async (role) => {
    app = await makeApp();
    const a = role === 'user' ? await signUpUser(app) : await signUpAdmin(app);
    const loginPath = role === 'user' ? '/api/login' : '/api/admin/login';
    const changePath = role === 'user' ? '/api/change-password' : '/api/admin/change-password';
    const readPath = role === 'user' ? '/api/user-bids' : '/api/admin/stats';
    const second = (await call(app, 'POST', loginPath, { username: a.username, password: a.password })).json<{ token: string }>().token;
    for (const t of [a.token, second]) expect((await call(app, 'GET', readPath, undefined, t)).statusCode).toBe(200);
    const changed = await call(app, 'POST', changePath, { password: a.password, new_password: 'brand-new-1' }, a.token);
    expect(changed.statusCode).toBe(200);
    for (const t of [a.token, second]) {
      expectError(await call(app, 'GET', readPath, undefined, t), 401, 'UNAUTHENTICATED');
      expectError(await call(app, 'GET', '/api/auctions', undefined, t), 401, 'UNAUTHENTICATED');
    }
    expect((await call(app, 'GET', readPath, undefined, changed.json<{ token: string }>().token)).statusCode).toBe(200);
  });

  it('deactivation ends every session of the bidder, cached or not; reactivation revives none', async () => {
    app = await makeApp();
    const owner = await signUpAdmin(app);
    const u = await signUpUser(app);
    const unused = (await call(app, 'POST', '/api/login', { username: u.username, password: u.password })).json<{ token: string }>().token;
    expect((await call(app, 'GET', '/api/auctions', undefined, u.token)).statusCode).toBe(200);
    expect((await call(app, 'PATCH', `/api/admin/users/${u.user.id}`, { status: 'inactive' }, owner.token)).statusCode).toBe(200);
    expect((await call(app, 'PATCH', `/api/admin/users/${u.user.id}`, { status: 'active' }, owner.token)).statusCode).toBe(200);
    for (const t of [u.token, unused]) expectError(await call(app, 'GET', '/api/auctions', undefined, t), 401, 'UNAUTHENTICATED');
  });
});

describe('the key file (no JWT_SECRET)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => { while (cleanups.length) cleanups.pop()!(); });
  const folder = () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    return t.dir;
  };

  it('is created in a data folder that does not exist yet (PostgreSQL keeps nothing else there)', () => {
    const dir = path.join(folder(), 'data');
    const key = loadJwtSecret(undefined, path.join(dir, 'postgres'));
    expect(Buffer.from(key).toString('hex')).toBe(fs.readFileSync(path.join(dir, 'jwt-secret'), 'utf8'));
  });

  it('is created once with mode 0600, holds 32 random bytes as hex, and is read back on the next start', () => {
    const dir = folder();
    const key = loadJwtSecret(undefined, path.join(dir, 'auction.db'));
    const file = path.join(dir, 'jwt-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(key).toString('hex')).toBe(fs.readFileSync(file, 'utf8'));
    expect(Buffer.from(loadJwtSecret(undefined, path.join(dir, 'auction.db')))).toEqual(Buffer.from(key));
    // Nothing else is left in the folder (the key is published through a temporary file).
    expect(fs.readdirSync(dir)).toEqual(['jwt-secret']);
    // Another folder, another key.
    expect(Buffer.from(loadJwtSecret(undefined, path.join(folder(), 'auction.db')))).not.toEqual(Buffer.from(key));
  });

  it('tightens an existing key file that others can read back to 0600 (as after a careless copy)', () => {
    const dir = folder();
    const file = path.join(dir, 'jwt-secret');
    fs.writeFileSync(file, 'ab'.repeat(32), { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(Buffer.from(loadJwtSecret(undefined, path.join(dir, 'auction.db'))).toString('hex')).toBe('ab'.repeat(32));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('JWT_SECRET wins and writes nothing; an in-memory database gets a key per process and no file', () => {
    const dir = folder();
    expect(Buffer.from(loadJwtSecret(TEST_SECRET, path.join(dir, 'auction.db'))).toString()).toBe(TEST_SECRET);
    expect(fs.readdirSync(dir)).toEqual([]);
    const a = loadJwtSecret(undefined, null);
    expect(a).toHaveLength(32);
    expect(Buffer.from(loadJwtSecret(undefined, null))).not.toEqual(Buffer.from(a));
  });

  it.each([
    ['empty', ''],
    ['too short', 'ab'.repeat(31)],
    ['a passphrase', 'correct horse battery staple correct horse battery staple correct horse'],
    ['hex, then junk (would decode to 4 bytes)', `deadbeef${'z'.repeat(60)}`],
    ['an odd number of hex digits', 'a'.repeat(65)],
  ])('refuses to start on a key file that does not hold a full key (%s), rather than signing with a weak key', (_why, content) => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, 'jwt-secret'), content, { mode: 0o600 });
    expect(() => loadJwtSecret(undefined, path.join(dir, 'auction.db'))).toThrow(/does not hold a JWT key/);
    expect(fs.readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(content);
  });

  it('keeps sessions across a restart of a file-backed server', async () => {
    const dir = folder();
    const config = { databaseUrl: path.join(dir, 'auction.db'), jwtSecret: undefined };
    const first = await makeApp(config);
    const u = await signUpUser(first);
    await first.close();
    expect(fs.statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    const second = await makeApp(config);
    try {
      expect((await call(second, 'GET', '/api/user-bids', undefined, u.token)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
