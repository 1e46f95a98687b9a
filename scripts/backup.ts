/**
 * `npm run backup -- <file> [--force]`: an online backup of the live SQLite database (DATABASE_URL,
 * default ./data/auction.db, resolved as the server resolves it), safe while the server runs.
 *
 * SQLite's backup API (better-sqlite3 `db.backup()`) copies every page in ONE step, so the copy is a
 * single consistent snapshot: a WAL read transaction, which never blocks the server's writers and is
 * never restarted by their commits (a step-by-step copy restarts whenever another connection writes,
 * and under steady bidding might never finish). The copy is written beside the target as
 * `<file>.partial-<pid>`, checked (integrity_check and the money audit), fsynced, then renamed into
 * place, so `<file>` is either the complete, verified backup or untouched.
 *
 * Restore (README "Operations"): stop the server, copy the backup over the database file, delete the
 * database's `-wal` and `-shm` files, start the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import * as schema from '../server/src/db/schema.js';
import { fromRepoRoot } from '../server/src/paths.js';
import { auditMoney } from '../server/src/queries/audit.js';

class Refusal extends Error {}

/** The database file the server uses: DATABASE_URL as server/src/db/index.ts reads it. */
function sourceFile(): string {
  const url = process.env.DATABASE_URL?.trim() || './data/auction.db';
  if (url === ':memory:') throw new Refusal('DATABASE_URL is :memory:; there is no file to back up');
  return fromRepoRoot(url.replace(/^(sqlite|file):(\/\/)?/, ''));
}

function fsyncPath(p: string) {
  const fd = fs.openSync(p, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function removeWithSidecars(file: string) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}

/** Opens the copy on its own and checks it; returns what it holds. */
function verify(file: string) {
  const sqlite = new Database(file, { fileMustExist: true });
  try {
    const integrity = sqlite.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the copy fails integrity_check: ${String(integrity)}`);
    const audit = auditMoney(drizzle(sqlite, { schema }));
    const count = (table: string) => (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    const rows = Object.fromEntries(['users', 'admins', 'auctions', 'products', 'bids', 'wallet_transactions'].map((t) => [t, count(t)]));
    // A single self-contained file: no -wal beside the backup (the server sets WAL again when it opens it).
    sqlite.pragma('journal_mode = DELETE');
    return { audit, rows };
  } finally {
    sqlite.close();
  }
}

async function main() {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
  if (positionals.length !== 1) throw new Refusal('usage: npm run backup -- <file> [--force]');
  // npm runs scripts from the repository root; a relative target means the caller's folder.
  const target = path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  const source = sourceFile();
  if (!fs.existsSync(source)) throw new Refusal(`no database at ${source} (set DATABASE_URL)`);
  if (path.resolve(source) === target) throw new Refusal('the backup cannot replace the database itself');
  if (fs.existsSync(target) && !values.force) throw new Refusal(`${target} exists; pass --force to replace it`);
  fs.mkdirSync(path.dirname(target), { recursive: true });

  const partial = `${target}.partial-${process.pid}`;
  removeWithSidecars(partial);
  const started = performance.now();
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // After the first (empty) step, ask for every remaining page at once: one consistent snapshot.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  } finally {
    db.close();
  }
  try {
    const { audit, rows } = verify(partial);
    // It holds password hashes and the whole ledger: readable by the owner only.
    fs.chmodSync(partial, 0o600);
    fsyncPath(partial);
    fs.renameSync(partial, target);
    fsyncPath(path.dirname(target));
    const bytes = fs.statSync(target).size;
    const ms = Math.round(performance.now() - started);
    console.log(`Backed up ${source}`);
    console.log(`       to ${target} (${(bytes / 1024).toFixed(0)} KiB in ${ms} ms): integrity ok, money invariant ${audit.ok ? 'ok' : 'VIOLATED'}`);
    console.log(`  ${Object.entries(rows).map(([t, n]) => `${t} ${n}`).join(', ')}`);
    if (!audit.ok) {
      console.error(`The live database itself fails the money audit: ${JSON.stringify(audit)}`);
      process.exitCode = 3;
    }
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Refusal ? `backup: ${err.message}` : err);
  process.exitCode = err instanceof Refusal ? 2 : 1;
});
