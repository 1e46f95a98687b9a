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
 *
 * On PostgreSQL (DATABASE_URL=postgres://…) this says to use pg_dump, which is the right tool there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { copySqliteDatabase, isPostgresUrl, sqliteFile, verifySqliteCopy } from './db/index.js';

class Refusal extends Error {}

/** The database file the server uses: DATABASE_URL as server/src/db/index.ts reads it. */
function sourceFile(): string {
  const url = process.env.DATABASE_URL?.trim() || './data/auction.db';
  if (isPostgresUrl(url)) {
    throw new Refusal([
      'DATABASE_URL is a PostgreSQL database: back it up with PostgreSQL\'s own tools, e.g.',
      '  pg_dump --format=custom --file=auction.dump "$DATABASE_URL"',
      'and restore into an empty database with',
      '  pg_restore --dbname="$DATABASE_URL" auction.dump',
      '(continuous archiving / point-in-time recovery for production: see README "Operations").',
    ].join('\n'));
  }
  const file = sqliteFile(url);
  if (file === null) throw new Refusal('DATABASE_URL is :memory:; there is no file to back up');
  return file;
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
  try {
    await copySqliteDatabase(source, partial);
  } catch (err) {
    removeWithSidecars(partial);
    throw err;
  }
  try {
    const { audit, rows } = await verifySqliteCopy(partial);
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
