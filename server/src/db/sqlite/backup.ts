/**
 * The SQLite online backup (`npm run backup`): SQLite's backup API copies every page in ONE step, so
 * the copy is a single consistent snapshot (a WAL read transaction that never blocks the server's
 * writers and is never restarted by their commits). The copy is then opened on its own and checked.
 */
import Database from 'better-sqlite3';
import { openSqliteStore } from './store.js';

/** Copies the live database at `source` to `target` in one step. */
export async function copySqliteDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // After the first (empty) step, ask for every remaining page at once: one consistent snapshot.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/**
 * Opens a copy on its own and checks it (integrity, foreign keys, the money audit); leaves it a
 * single self-contained file (no -wal beside it). Returns what it holds.
 */
export async function verifySqliteCopy(file: string) {
  const store = openSqliteStore(file);
  try {
    const integrity = await store.integrityCheck();
    if (integrity !== 'ok') throw new Error(`the copy fails its integrity check: ${integrity}`);
    const audit = await store.reads.auditMoney();
    const count = async (table: string) => (await store.query<{ n: number }>(`select count(*) as n from ${table}`))[0]!.n;
    const rows: Record<string, number> = {};
    for (const t of ['users', 'admins', 'auctions', 'products', 'bids', 'wallet_transactions']) rows[t] = await count(t);
    store.connection.pragma('journal_mode = DELETE');
    return { audit, rows };
  } finally {
    await store.close();
  }
}
