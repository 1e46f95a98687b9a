import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { call, makeApp, signUpUser, sqliteConnection, tempDir } from '../../test/helpers.js';

const cleanups: (() => void)[] = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

describe('the SQLite store', () => {
  it('creates the data folder, applies migrations, runs in WAL with foreign keys, and keeps data across restarts', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const databaseUrl = path.join(dir, 'nested', 'auction.db');
    const first = await makeApp({ databaseUrl, jwtSecret: undefined });
    const u = await signUpUser(first);
    await first.close();

    const raw = new Database(databaseUrl, { readonly: true });
    const tables = raw.prepare("select name from sqlite_master where type = 'table'").all().map((r) => (r as { name: string }).name);
    expect(tables).toEqual(expect.arrayContaining(['users', 'admins', 'auctions', 'products', 'registrations', 'bids', 'wallet_transactions', '__drizzle_migrations']));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();

    // A restart: the same token still works (the secret was kept), the account is still there.
    const second = await makeApp({ databaseUrl, jwtSecret: undefined });
    cleanups.push(() => void second.close());
    expect(sqliteConnection(second).pragma('foreign_keys', { simple: true })).toBe(1);
    const res = await call(second, 'POST', '/api/change-password', { password: u.password, new_password: 'changed1' }, u.token);
    expect(res.statusCode).toBe(200);
    expect((await call(second, 'POST', '/api/login', { username: u.username, password: 'changed1' })).statusCode).toBe(200);
  });

  it('generates the signing secret once, readable by the owner only', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const app = await makeApp({ databaseUrl: path.join(dir, 'a.db'), jwtSecret: undefined });
    await app.close();
    const file = path.join(dir, 'jwt-secret');
    const stat = fs.statSync(file);
    expect(stat.mode & 0o777).toBe(0o600);
    const secret = fs.readFileSync(file, 'utf8');
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const again = await makeApp({ databaseUrl: path.join(dir, 'a.db'), jwtSecret: undefined });
    await again.close();
    expect(fs.readFileSync(file, 'utf8')).toBe(secret);
  });

  it('refuses a negative wallet and a second leading bid at the storage level', async () => {
    const app = await makeApp({ databaseUrl: ':memory:' });
    cleanups.push(() => void app.close());
    const sqlite = sqliteConnection(app);
    const u = await signUpUser(app);
    expect(() => sqlite.prepare('update users set wallet_balance = -1 where id = ?').run(u.user.id)).toThrow(/CHECK/);
    sqlite.prepare("insert into admins (username, name, mobile_number, password_hash, created_at) values ('a', 'A', '1234567', 'x', 0)").run();
    sqlite.prepare("insert into auctions (id, name, valid_until, created_by, created_at, updated_at) values ('A1', 'A', 1, 1, 0, 0)").run();
    sqlite.prepare("insert into products (id, name, description, created_by, auction_id, created_at, updated_at) values ('P1', 'P', 'd', 1, 'A1', 0, 0)").run();
    const bid = sqlite.prepare("insert into bids (user_id, product_id, auction_id, amount, status, created_at, updated_at) values (?, 'P1', 'A1', ?, ?, 0, 0)");
    bid.run(u.user.id, 100, 'success');
    expect(() => bid.run(u.user.id, 200, 'success')).toThrow(/UNIQUE/);
    expect(() => bid.run(u.user.id, 0, 'outbid')).toThrow(/CHECK/);
    expect(() => bid.run(999, 300, 'outbid')).toThrow(/FOREIGN KEY/);
  });
});
