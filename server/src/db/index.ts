/**
 * Storage: `DATABASE_URL` picks the store. `postgres://…` (or `postgresql://…`) is PostgreSQL;
 * anything else is a SQLite file (or `:memory:`). Nothing outside this folder knows which.
 */
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/store.js';

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url);

/** `pgStatementTimeoutMs`: how long a read outside a transaction may run on PostgreSQL (0: no limit; left out: 5 s). */
export async function openStore(databaseUrl: string, options: { pgPool: number; pgStatementTimeoutMs?: number } = { pgPool: 10 }): Promise<Store> {
  if (isPostgresUrl(databaseUrl)) {
    // Loaded only when asked for: a SQLite install never loads the PostgreSQL driver.
    const { openPostgresStore } = await import('./postgres/store.js');
    return openPostgresStore(databaseUrl, { poolSize: options.pgPool, statementTimeoutMs: options.pgStatementTimeoutMs });
  }
  return openSqliteStore(databaseUrl);
}

/** `npm run backup` for SQLite (PostgreSQL is backed up with pg_dump). */
export { copySqliteDatabase, verifySqliteCopy } from './sqlite/backup.js';
/** Where a SQLite `DATABASE_URL` points: null for `:memory:`. */
export { sqliteFile } from './sqlite/store.js';

export type { Election, Store, StoreKind, UnitOfWork, LotUnitOfWork, PreparedChange, LotWork, LotLanes } from './store.js';
export type * from './rows.js';
// The aggregates' types (each folder's types.ts), the views among them re-exported by reads.ts.
export type * from './reads.js';
export type * from './change-set/types.js';
export type * from './saved/types.js';
export { StoreUnavailable, isStoreUnavailable } from './errors.js';
