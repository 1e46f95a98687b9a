/**
 * The PostgreSQL store's driver-level pieces: migrations into a schema of its own, placeholders,
 * number parsing, named statements, error translation, retries of deadlocks and serialization
 * failures, ping and close. Needs a PostgreSQL server (TEST_POSTGRES_URL); skipped with a message
 * when there is none, unless REQUIRE_POSTGRES=1.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS_DIR } from '../../paths.js';
import { isStoreUnavailable, StoreUnavailable } from '../errors.js';
import type { SqlRunner } from '../sql.js';
import { isRetryable, postgresDialect, prepare, toPositional, translate } from './runner.js';
import { ConnectionGate, MAX_ATTEMPTS, openPostgresStore, parsePostgresUrl, type PostgresStore } from './store.js';

/** Migrations in drizzle/postgres (its journal's entries): each applied once. */
const MIGRATIONS = (JSON.parse(fs.readFileSync(path.join(POSTGRES_MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
const BASE_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: BASE_URL, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return (err as Error).message || String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const unreachable = await reachable();
if (unreachable !== null) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${BASE_URL} is unreachable: ${unreachable}`);
  console.warn(`Skipping the PostgreSQL store tests: ${BASE_URL} is unreachable (${unreachable}). Set REQUIRE_POSTGRES=1 to fail instead.`);
}

const freshSchema = (what: string) => `t_${what}_${process.pid}_${randomBytes(4).toString('hex')}`;
const urlFor = (schema: string) => {
  const u = new URL(BASE_URL);
  u.searchParams.set('schema', schema);
  return u.toString();
};

const TABLES = ['account_tokens', 'admins', 'auctions', 'auto_bids', 'billing_details', 'bids', 'categories', 'houses', 'media', 'notifications', 'pickup_locations', 'product_images', 'products', 'lot_search', 'mail_caps', 'mail_outbox', 'registrations', 'saved_lots', 'users', 'wallet_transactions'];

describe('placeholders and names (no database)', () => {
  it('numbers ? in order, leaving strings, identifiers and comments alone', () => {
    expect(toPositional('select * from t where a = ? and b in (?, ?)')).toBe('select * from t where a = $1 and b in ($2, $3)');
    expect(toPositional(`select '?' as "wh?", 'it''s ?' as x, ? -- what?\n , ?`)).toBe(`select '?' as "wh?", 'it''s ?' as x, $1 -- what?\n , $2`);
    expect(toPositional('select 1')).toBe('select 1');
  });

  it('gives each distinct text one stable name and caches the conversion', () => {
    const a = prepare('select ? as only_in_this_test');
    const b = prepare('select ? as only_in_this_test');
    const c = prepare('select ? as only_in_this_test_too');
    expect(a).toBe(b);
    expect(a.name).toMatch(/^q\d+$/);
    expect(c.name).not.toBe(a.name);
    expect(a.text).toBe('select $1 as only_in_this_test');
  });

  it('knows which errors are retryable and which mean unavailable', () => {
    expect(isRetryable({ code: '40001' })).toBe(true);
    expect(isRetryable({ code: '40P01' })).toBe(true);
    expect(isRetryable({ code: '23505' })).toBe(false);
    for (const code of ['ECONNREFUSED', 'ETIMEDOUT', '57P01', '53300', '08006', '55P03', '57014']) {
      const err = Object.assign(new Error(code), { code });
      const out = translate(err);
      expect(isStoreUnavailable(out), code).toBe(true);
      expect((out as Error).cause).toBe(err);
    }
    const sqlError = Object.assign(new Error('duplicate'), { code: '23505' });
    expect(translate(sqlError)).toBe(sqlError);
    expect(isStoreUnavailable(translate(new Error('timeout exceeded when trying to connect')))).toBe(true);
    expect(isStoreUnavailable(translate(Object.assign(new Error('deadlock'), { code: '40P01' })))).toBe(false);
  });

  it('splits ?schema= off the URL and validates it', () => {
    const p = parsePostgresUrl('postgres://u@h:5432/db?schema=abc_1&sslmode=disable');
    expect(p.schema).toBe('abc_1');
    expect(p.connectionString).toBe('postgres://u@h:5432/db?sslmode=disable');
    expect(parsePostgresUrl('postgresql://u@h/db').schema).toBeNull();
    expect(() => parsePostgresUrl('postgres://u@h/db?schema=Bad-Name')).toThrow(/schema/);
    expect(() => parsePostgresUrl('postgres://u@h/db?schema=x;drop')).toThrow(/schema/);
  });
});

describe.skipIf(unreachable !== null)('the PostgreSQL store', () => {
  const schema = freshSchema('store');
  const schemas = [schema];
  let store: PostgresStore;
  let publicTablesBefore: number;

  const publicTables = async (s: PostgresStore) =>
    (await s.query<{ n: number }>("select count(*) as n from information_schema.tables where table_schema = 'public'"))[0]!.n;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    publicTablesBefore = Number((await admin.query<{ n: string }>("select count(*) as n from information_schema.tables where table_schema = 'public'")).rows[0]!.n);
    await admin.end();
    store = await openPostgresStore(urlFor(schema), { poolSize: 4 });
    await store.query('create table scratch (id integer primary key, v bigint not null default 0)');
    await store.query('insert into scratch (id) values (1), (2)');
  });

  afterAll(async () => {
    await store?.close();
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    for (const s of schemas) await admin.query(`drop schema if exists ${s} cascade`);
    await admin.end();
  });

  it('migrates every table, its indexes and checks into its own schema, not public', async () => {
    const tables = await store.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE' order by 1", [schema]);
    expect(tables.map((t) => t.table_name)).toEqual([...TABLES, '__drizzle_migrations', 'stored_functions', 'scratch'].sort());
    const indexes = (await store.query<{ indexname: string }>('select indexname from pg_indexes where schemaname = ?', [schema])).map((r) => r.indexname);
    expect(indexes).toEqual(expect.arrayContaining([
      'users_username_uq', 'admins_username_uq', 'admins_one_owner_uq', 'auctions_created_by_idx', 'auctions_open_end_idx',
      'products_auction_idx', 'products_owner_idx', 'products_winner_idx', 'registrations_user_idx', 'bids_leader_uq',
      'bids_product_idx', 'bids_user_idx', 'bids_auction_idx', 'wallet_tx_user_idx', 'wallet_tx_bid_idx',
    ]));
    // Foreign keys point at this schema's tables.
    const fkTargets = await store.query<{ nspname: string }>(
      `select distinct n.nspname from pg_constraint c join pg_class t on t.oid = c.confrelid join pg_namespace n on n.oid = t.relnamespace
       join pg_class f on f.oid = c.conrelid join pg_namespace fn on fn.oid = f.relnamespace where c.contype = 'f' and fn.nspname = ?`, [schema]);
    expect(fkTargets.map((r) => r.nspname)).toEqual([schema]);
    expect(await publicTables(store)).toBe(publicTablesBefore);
    // The CHECKs hold, and seq is filled in by insertion.
    await store.query("insert into admins (username, name, mobile_number, password_hash, created_at) values ('a', 'A', '1', 'h', ?)", [Date.now()]);
    await expect(store.query("update admins set status = 'gone'")).rejects.toMatchObject({ code: '23514' });
    await store.query("insert into auctions (id, name, valid_until, created_by, created_at, updated_at) values ('x1', 'X', ?, 1, 1, 1), ('x0', 'X', ?, 1, 1, 1)", [2 ** 45, 2 ** 45]);
    const order = await store.query<{ id: string; validUntil: number }>(
      `select a.id, a.valid_until as "validUntil" from auctions a order by a.created_at, ${postgresDialect.insertionOrder('a')}`);
    expect(order).toEqual([{ id: 'x1', validUntil: 2 ** 45 }, { id: 'x0', validUntil: 2 ** 45 }]);
  });

  it('opens again, and twice at once, without migrating twice', async () => {
    const again = await openPostgresStore(urlFor(schema), { poolSize: 1 });
    await again.close();
    const other = freshSchema('race');
    schemas.push(other);
    const both = await Promise.all([openPostgresStore(urlFor(other), { poolSize: 1 }), openPostgresStore(urlFor(other), { poolSize: 1 })]);
    const applied = await both[0].query<{ n: number }>('select count(*) as n from __drizzle_migrations');
    expect(applied[0]!.n).toBe(MIGRATIONS);
    await Promise.all(both.map((s) => s.close()));
    expect((await store.query<{ n: number }>('select count(*) as n from __drizzle_migrations'))[0]!.n).toBe(MIGRATIONS);
  });

  it('reads counts, bigint sums and bigint columns as numbers, and builds JSON arrays', async () => {
    const [row] = await store.query<Record<string, unknown>>(
      "select count(*) as c, sum(x::bigint) as s, 9007199254740991::bigint as big, 1.5::numeric as n, true as b, '?' as q, ? as p from generate_series(1, 3) x", ['hi']);
    expect(row).toEqual({ c: 3, s: 6, big: 9007199254740991, n: 1.5, b: true, q: '?', p: 'hi' });
    const json = (where: number) => store.query<{ j: string }>(
      `select ${postgresDialect.jsonArray('x.v', 'from (values (3), (1), (2)) x(v) where x.v > ?', 'x.v desc')} as j`, [where]);
    expect(JSON.parse((await json(0))[0]!.j)).toEqual([3, 2, 1]);
    expect((await json(10))[0]!.j).toBe('[]');
  });

  it('prepares each statement once per connection', async () => {
    const text = 'select ? + 1 as n';
    const counts = await store.runInTransaction(async (sql) => {
      expect(await sql.get(text, [1])).toEqual({ n: 2 });
      expect(await sql.get(text, [2])).toEqual({ n: 3 });
      return sql.all<{ name: string; statement: string }>('select name, statement from pg_prepared_statements where statement = ?', [prepare(text).text]);
    });
    expect(counts).toEqual([{ name: prepare(text).name, statement: 'select $1 + 1 as n' }]);
  });

  it('commits, rolls back on a throw, passes SQL errors through, and refuses to report an aborted transaction', async () => {
    expect(await store.runInTransaction((sql) => sql.run('update scratch set v = v + 1'))).toBe(2);
    await expect(store.runInTransaction(async (sql) => {
      await sql.run('update scratch set v = v + 100');
      await sql.run('insert into scratch (id) values (1)');
    })).rejects.toMatchObject({ code: '23505' });
    await expect(store.runInTransaction(async (sql) => {
      await sql.run('update scratch set v = v + 100');
      await sql.run('insert into scratch (id) values (1)').catch(() => undefined);
    })).rejects.toThrow(/aborted/);
    expect(await store.query('select id, v from scratch order by id')).toEqual([{ id: 1, v: 1 }, { id: 2, v: 1 }]);
  });

  it('runs a deadlocked transaction again, and it succeeds', async () => {
    let bothLocked!: () => void;
    const barrier = new Promise<void>((resolve) => { bothLocked = resolve; });
    let firstLocks = 0;
    let runs = 0;
    const retriesBefore = store.stats.retries;
    const crossing = (first: number, second: number) => store.runInTransaction(async (sql: SqlRunner) => {
      runs++;
      await sql.run("set local deadlock_timeout = '20ms'");
      await sql.get(`select id from scratch where id = ?${postgresDialect.forUpdate}`, [first]);
      if (++firstLocks === 2) bothLocked();
      await barrier;
      await sql.get(`select id from scratch where id = ?${postgresDialect.forUpdate}`, [second]);
      return sql.run('update scratch set v = v + 1 where id = ?', [first]);
    });
    expect(await Promise.all([crossing(1, 2), crossing(2, 1)])).toEqual([1, 1]);
    expect(runs).toBe(3);
    expect(store.stats.retries - retriesBefore).toBe(1);
    expect(await store.query('select v from scratch order by id')).toEqual([{ v: 2 }, { v: 2 }]);
  });

  it('gives up with StoreUnavailable after persistent serialization failures', async () => {
    let runs = 0;
    const err = await store.runInTransaction(async (sql) => {
      runs++;
      await sql.run('update scratch set v = v + 1000');
      await sql.run("do $$ begin raise exception 'contention' using errcode = 'serialization_failure'; end $$");
    }).catch((e: unknown) => e);
    expect(runs).toBe(MAX_ATTEMPTS);
    expect(isStoreUnavailable(err)).toBe(true);
    expect((err as Error).cause).toMatchObject({ code: '40001' });
    expect(await store.query('select v from scratch order by id')).toEqual([{ v: 2 }, { v: 2 }]);
  });

  it('runs units of work: admin sign-ups are serialised so there is one owner', async () => {
    const signUp = (username: string) => store.transaction(async (tx) => {
      await tx.lockAdminSignup();
      const isOwner = !(await tx.hasOwner());
      return tx.insertAdmin({ username, name: username, mobileNumber: '9', passwordHash: 'h', isOwner, now: Date.now() });
    });
    await store.query('delete from auctions');
    await store.query('delete from admins');
    const admins = await Promise.all([signUp('o1'), signUp('o2'), signUp('o3')]);
    // Without the lock, two would see no owner, and the one-owner index would drop their rows (null).
    expect(admins.every((a) => a !== null)).toBe(true);
    expect(admins.filter((a) => a?.isOwner === true)).toHaveLength(1);
    expect(typeof admins[0]!.createdAt).toBe('number');
  });

  it('turns a connection dropped mid-transaction into StoreUnavailable, and carries on with a new one', async () => {
    const err = await store.runInTransaction(async (sql) => {
      const me = await sql.get<{ pid: number }>('select pg_backend_pid() as pid');
      await store.query('select pg_terminate_backend(?)', [me!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the 'error' event arrives while idle
      return sql.get('select 1 as one');
    }).catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    expect(await store.query('select 1 as one')).toEqual([{ one: 1 }]);
    expect(await store.runInTransaction((sql) => sql.get('select 2 as two'))).toEqual({ two: 2 });
  });

  it('fails to open with StoreUnavailable when the server is not there', async () => {
    const err = await openPostgresStore('postgres://postgres@127.0.0.1:1/test', { poolSize: 1 }).catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    await expect(openPostgresStore(`${BASE_URL.split('?')[0]}?schema=No`, { poolSize: 1 })).rejects.toThrow(/schema/);
  });

  it('pings true, then false after close (which is idempotent); work after close is StoreUnavailable', async () => {
    const s = await openPostgresStore(urlFor(schema), { poolSize: 1 });
    expect(await s.ping()).toBe(true);
    await s.close();
    await s.close();
    expect(await s.ping()).toBe(false);
    const err = await s.transaction(async () => 1).catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    await expect(s.query('select 1')).rejects.toSatisfy(isStoreUnavailable);
  });
});

describe('ConnectionGate (queueing for the pool)', () => {
  it('lets `size` holders in, queues the rest in arrival order, and hands each place straight on', async () => {
    const gate = new ConnectionGate(2, 1000);
    const order: number[] = [];
    const a = await gate.acquire();
    const b = await gate.acquire();
    const waiting = [1, 2, 3].map((i) => gate.acquire().then((leave) => { order.push(i); return leave; }));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    a();
    a(); // giving a place back twice frees it once
    const first = await waiting[0]!;
    expect(order).toEqual([1]);
    b();
    first();
    await Promise.all(waiting.slice(1)).then((leaves) => leaves.forEach((leave) => leave()));
    expect(order).toEqual([1, 2, 3]);
    // Everyone gone: two places free again at once.
    await Promise.all([gate.acquire(), gate.acquire()]);
  });

  it('a wait longer than its limit is StoreUnavailable (503), and the place is not lost', async () => {
    const gate = new ConnectionGate(1, 50);
    const held = await gate.acquire();
    await expect(gate.acquire()).rejects.toBeInstanceOf(StoreUnavailable);
    held();
    const again = await gate.acquire();
    again();
  });
});
