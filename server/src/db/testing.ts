/**
 * Fresh databases for tests, on the store the run asks for: `TEST_STORE=postgres` gives each app its
 * own PostgreSQL schema (in TEST_POSTGRES_URL's database), dropped when the test is done; otherwise an
 * in-memory SQLite database.
 */
import { randomBytes } from 'node:crypto';
// Types only: vitest.config.ts imports this file, and its bundler cannot load the stores (the drizzle
// schemas import @auction/shared, which the config's bundler resolves to shared's build).
import type { SqliteStore } from './sqlite/store.js';
import type { Store, StoreKind } from './store.js';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const testStoreKind: StoreKind = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/** The URL of a PostgreSQL database with `?schema=` set to a fresh schema name. */
export function postgresUrlWithSchema(base: string, schema: string): string {
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  return url.toString();
}

export interface TestDatabase {
  url: string;
  /** Drops what the test made (a PostgreSQL schema); nothing for SQLite in memory. */
  drop(): Promise<void>;
}

/**
 * A fresh database of `kind`. On PostgreSQL, unless `durable`, its connections commit without
 * waiting for the WAL flush (`synchronous_commit=off`): a test's data need not survive a crash of
 * the database server, and the suites run several times faster. Durability tests and the benchmark
 * ask for `durable`.
 */
export function freshTestDatabase(kind: StoreKind = testStoreKind, postgresUrl = TEST_POSTGRES_URL, opts: { durable?: boolean } = {}): TestDatabase {
  if (kind === 'sqlite') return { url: ':memory:', drop: async () => {} };
  const schema = `t_${process.pid}_${randomBytes(5).toString('hex')}`;
  const url = new URL(postgresUrlWithSchema(postgresUrl, schema));
  if (!opts.durable) url.searchParams.set('options', '-c synchronous_commit=off');
  return {
    url: url.toString(),
    drop: async () => {
      const { default: pg } = await import('pg');
      const base = new URL(postgresUrl);
      base.searchParams.delete('schema');
      base.searchParams.delete('options');
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The raw connection of an app's SQLite store, for that store's own tests (statement counts, pragmas). */
export function sqliteConnection(app: { ctx: { store: Store } }): SqliteStore['connection'] {
  const store = app.ctx.store;
  if (store.kind !== 'sqlite') throw new Error('this test needs the SQLite store');
  return (store as SqliteStore).connection;
}

/** Null when the PostgreSQL at `url` answers a query; otherwise why not (for skipping its suites with a reason). */
export async function postgresMissing(url = TEST_POSTGRES_URL): Promise<string | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Null when the Redis at `url` answers PING; otherwise why not (for skipping its suites with a reason). */
export async function redisMissing(url = TEST_REDIS_URL): Promise<string | null> {
  const { default: net } = await import('node:net');
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (why: string | null) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(3000, () => done('no answer within 3 s'));
    socket.once('error', (err) => done(err.message));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG') ? null : `unexpected answer ${JSON.stringify(d.toString().slice(0, 40))}`));
  });
}

/** Whether this run has Redis (vitest.config.ts checks once and tells every project). */
export const redisAvailable = process.env.TEST_REDIS === 'available';
