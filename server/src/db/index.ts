import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_DIR, fromRepoRoot } from '../paths.js';
import * as schema from './schema.js';

/** The drizzle handle; `$client` (the raw driver) is for the store itself and tests only. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** A transaction handle, as drizzle passes it to `db.transaction(cb)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The store: the drizzle handle for queries, and what the server needs to run and close it. */
export interface Store {
  db: Db;
  /** Absolute path of the database file, or null for `:memory:`. */
  file: string | null;
  /** Cheap liveness probe for /api/health. */
  ping(): boolean;
  close(): void;
}

export function openStore(databaseUrl: string): Store {
  const file = databaseUrl === ':memory:' ? null : fromRepoRoot(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, ''));
  if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file ?? ':memory:');
  sqlite.pragma('journal_mode = WAL');
  // FULL: in WAL mode a commit is fsynced before it is acknowledged, so an accepted bid survives a
  // power cut as well as a killed process (NORMAL keeps it across a process crash only). Money first:
  // if the fsync ever dominates the bid path, batching commits is the remedy, not a weaker level.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // A second process (backup, migration) may hold the write lock briefly: wait rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('cache_size = -32000');

  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  const probe = sqlite.prepare('select 1 as ok');
  return {
    db,
    file,
    ping: () => {
      try {
        return (probe.get() as { ok: number } | undefined)?.ok === 1;
      } catch {
        return false;
      }
    },
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * A per-database cache of prepared statements for the hot paths: `make` builds the queries once per
 * handle (SQL text and sqlite `prepare` once), and every call after that only binds and steps.
 * Prepared on the connection, they join whatever transaction is open on it.
 */
export function prepareOnce<T>(make: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let made = cache.get(db);
    if (made === undefined) {
      made = make(db);
      cache.set(db, made);
    }
    return made;
  };
}

export { schema };
