/**
 * The embedded store: one SQLite file (better-sqlite3, WAL), the default and the simplest way to run.
 *
 * One connection, one writer. Units of work that arrive in one turn of the event loop are run one
 * after another, in arrival order, each in its own savepoint, inside ONE immediate transaction: they
 * share one commit and so one fsync (group commit). Each unit sees every one before it, so the money
 * rules are exactly those of one transaction per command. Every statement is prepared once per SQL
 * text and then only bound and stepped.
 *
 * The driver is synchronous, so a unit of work's awaits are settled promises and a batch normally
 * runs to its commit without the event loop turning. Reads that arrive while a batch is open (from
 * the microtasks of other requests) wait for its commit, so no read ever sees uncommitted data.
 * A unit of work must therefore never await `store.reads` (it would wait for itself): it reads
 * through its `tx`.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { SQLITE_MIGRATIONS_DIR, fromRepoRoot } from '../../paths.js';
import { StoreUnavailable } from '../errors.js';
import { Reads } from '../reads.js';
import type { Dialect, Param, SqlRunner } from '../sql.js';
import type { Election, Store, UnitOfWork } from '../store.js';
import { SqlUnitOfWork } from '../unit-of-work.js';
import { Checkpointer } from './checkpointer.js';
import * as schema from './schema.js';
import { sqliteSearch } from './search.js';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  forUpdate: '',
  claim: () => '',
  insertionOrder: (alias) => `${alias}.rowid`,
  jsonArray: (column, from, orderBy) => `(select coalesce(json_group_array(x.v), '[]') from (select ${column} as v ${from} order by ${orderBy}) x)`,
  adminSignupLock: null,
  productImportLock: null,
  invoicePrefixLock: null,
  afterBulkInsert: null,
  search: sqliteSearch,
};

/** Upper bound on units of work per transaction, so one commit never holds the loop for long. */
const MAX_BATCH = 256;
/**
 * Transactions after which checkpoints move to their own thread (checkpointer.ts). A store that
 * writes little (most tests, a quiet install) never needs the thread; SQLite's own automatic
 * checkpoint serves it until then.
 */
const CHECKPOINTER_AFTER = 256;
/** SQLite's default automatic checkpoint (pages), restored if the checkpoint thread stops. */
const AUTO_CHECKPOINT_PAGES = 1000;

const bind = (params: readonly Param[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** Busy or locked (extended codes included: SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_TIMEOUT, …) → 503. */
function translate(err: unknown): Error {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code)) return new StoreUnavailable('The database is busy', { cause: err });
  return err instanceof Error ? err : new Error(String(err));
}

function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(translate(err));
  }
}

/** Statements prepared once per SQL text on one connection; they join whatever transaction is open on it. */
class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();
  constructor(private readonly db: Database.Database) {}

  statement(text: string): Database.Statement {
    let s = this.statements.get(text);
    if (!s) {
      s = this.db.prepare(text);
      this.statements.set(text, s);
    }
    return s;
  }

  all<T>(text: string, params: readonly Param[] = []): T[] {
    return this.statement(text).all(...bind(params)) as T[];
  }

  get<T>(text: string, params: readonly Param[] = []): T | undefined {
    return this.statement(text).get(...bind(params)) as T | undefined;
  }

  run(text: string, params: readonly Param[] = []): number {
    return this.statement(text).run(...bind(params)).changes;
  }
}

interface Job {
  work: (tx: UnitOfWork) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { value: unknown } | { error: unknown };

export class SqliteStore implements Store {
  /** SQLite's group commit already takes every command that arrives in one turn (see SqliteStore.transaction). */
  readonly lots = null;
  readonly kind = 'sqlite' as const;
  readonly reads: Reads;
  /** The raw connection, for this store's own tests (statement counts, query plans, pragmas). */
  readonly connection: Database.Database;
  private readonly statements: StatementCache;
  private readonly uow: SqlUnitOfWork;
  private readonly readRunner: SqlRunner;
  private queue: Job[] = [];
  private scheduled = false;
  private writing = false;
  private waitingReads: Array<() => void> = [];
  /** Transactions committed (or rolled back) and units of work run, for tests and diagnostics. */
  readonly stats = { transactions: 0, units: 0 };
  /** The checkpoint thread, once started (file databases only). */
  checkpointer: Checkpointer | null = null;
  private checkpointerFailed = false;

  constructor(readonly file: string | null, private readonly maxBatch = MAX_BATCH) {
    if (file) fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file ?? ':memory:');
    db.pragma('journal_mode = WAL');
    // FULL: in WAL mode a commit is fsynced before it is acknowledged, so an accepted bid survives a
    // power cut as well as a killed process (NORMAL keeps it across a process crash only). Group
    // commit makes the fsync per batch, not per bid, so FULL costs nothing measurable.
    db.pragma('synchronous = FULL');
    // A second process (backup, migration) may hold the write lock briefly: wait rather than fail.
    db.pragma('busy_timeout = 5000');
    db.pragma('temp_store = MEMORY');
    db.pragma('cache_size = -32000');
    // Migrations that rebuild a table (to change its CHECKs) drop it while others still refer to it:
    // they run with foreign keys off, and the check below proves they left every reference whole.
    db.pragma('foreign_keys = OFF');
    migrate(drizzle(db, { schema }), { migrationsFolder: SQLITE_MIGRATIONS_DIR });
    const broken = db.pragma('foreign_key_check') as unknown[];
    if (broken.length > 0) throw new Error(`store: ${broken.length} rows refer to missing rows after migrating`);
    db.pragma('foreign_keys = ON');
    this.connection = db;
    this.statements = new StatementCache(db);

    const inTransaction: SqlRunner = {
      all: (text, params) => settle(() => this.statements.all(text, params)),
      get: (text, params) => settle(() => this.statements.get(text, params)),
      run: (text, params) => settle(() => this.statements.run(text, params)),
    };
    this.uow = new SqlUnitOfWork(inTransaction, sqliteDialect);
    this.readRunner = {
      all: (text, params) => this.whenIdle(() => this.statements.all(text, params)),
      get: (text, params) => this.whenIdle(() => this.statements.get(text, params)),
      run: (text, params) => this.whenIdle(() => this.statements.run(text, params)),
    };
    this.reads = new Reads(this.readRunner, sqliteDialect);
  }

  connections() {
    return null;
  }

  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  query<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return this.readRunner.all<T>(text, params);
  }

  integrityCheck(): Promise<string> {
    return this.whenIdle(() => {
      const integrity = String(this.connection.pragma('integrity_check', { simple: true }));
      if (integrity !== 'ok') return integrity;
      const orphans = this.connection.pragma('foreign_key_check') as unknown[];
      return orphans.length === 0 ? 'ok' : `${orphans.length} rows break a foreign key`;
    });
  }

  ping(): Promise<boolean> {
    try {
      return Promise.resolve(this.statements.get<{ ok: number }>('select 1 as ok')?.ok === 1);
    } catch {
      return Promise.resolve(false);
    }
  }

  /** A SQLite file serves one process, which always does every job. */
  async elect(_name: string, onChange: (leading: boolean) => void | Promise<void>): Promise<Election> {
    await onChange(true);
    return { isLeader: true, stop: () => Promise.resolve() };
  }

  async close(): Promise<void> {
    await this.checkpointer?.stop();
    if (this.connection.open) this.connection.close();
  }

  /** Moves checkpoints to their own thread (done after CHECKPOINTER_AFTER transactions; tests call it). */
  startCheckpointer(intervalMs?: number): Checkpointer | null {
    if (!this.file || this.checkpointer || this.checkpointerFailed || !this.connection.open) return this.checkpointer;
    this.checkpointer = new Checkpointer(this.file, {
      onReady: () => { if (this.connection.open && this.checkpointer) this.connection.pragma('wal_autocheckpoint = 0'); },
      onLost: () => {
        // Back to checkpointing in the commit, as SQLite does by default; no second thread is tried.
        this.checkpointerFailed = true;
        this.checkpointer = null;
        if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
      },
    }, intervalMs);
    return this.checkpointer;
  }

  /** Runs a read now, or right after the open batch commits. */
  private whenIdle<T>(fn: () => T): Promise<T> {
    if (!this.writing) return settle(fn);
    return new Promise<T>((resolve, reject) => {
      this.waitingReads.push(() => settle(fn).then(resolve, reject));
    });
  }

  private schedule() {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    // setImmediate runs after the poll phase: every request read in this turn joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private exec(text: string) {
    this.statements.run(text);
  }

  private async flush() {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.writing = true;
    this.reads.writing(true);
    this.stats.transactions++;
    this.stats.units += batch.length;
    const outcomes: Outcome[] = [];
    let failed: { error: unknown } | null = null;
    try {
      this.exec('begin immediate');
    } catch (error) {
      failed = { error: translate(error) };
    }
    if (!failed) {
      // A lone unit of work needs no savepoint: if it throws, the whole transaction rolls back.
      const savepoints = batch.length > 1;
      for (const job of batch) {
        if (savepoints) this.exec('savepoint uow');
        try {
          const value = await job.work(this.uow);
          if (savepoints) this.exec('release uow');
          outcomes.push({ value });
        } catch (error) {
          // Undo only this unit of work; the others in the batch stand.
          if (savepoints) {
            this.exec('rollback to uow');
            this.exec('release uow');
          }
          outcomes.push({ error: translate(error) });
        }
      }
      if (!savepoints && 'error' in outcomes[0]!) {
        this.rollback();
      } else {
        try {
          this.exec('commit');
        } catch (error) {
          // The commit itself failed (disk full, I/O error): nothing of the batch was applied.
          failed = { error: translate(error) };
          this.rollback();
        }
      }
    }
    this.writing = false;
    this.reads.writing(false);
    // Callers learn their outcome in commit order; then the reads that waited for the commit run.
    batch.forEach((job, i) => {
      if (failed) return job.reject(failed.error);
      const o = outcomes[i]!;
      if ('value' in o) job.resolve(o.value);
      else job.reject(o.error);
    });
    const reads = this.waitingReads;
    this.waitingReads = [];
    for (const read of reads) read();
    if (this.queue.length > 0) this.schedule();
    if (this.stats.transactions === CHECKPOINTER_AFTER) this.startCheckpointer();
  }

  private rollback() {
    try {
      if (this.connection.inTransaction) this.exec('rollback');
    } catch {
      // Already rolled back by SQLite itself (e.g. after an I/O error).
    }
  }
}

/** `DATABASE_URL` for SQLite: a file path (relative to the repository root), `sqlite:`/`file:` URL, or `:memory:`. */
export function sqliteFile(databaseUrl: string): string | null {
  return databaseUrl === ':memory:' ? null : fromRepoRoot(databaseUrl.replace(/^(sqlite|file):(\/\/)?/, ''));
}

export function openSqliteStore(databaseUrl: string): SqliteStore {
  return new SqliteStore(sqliteFile(databaseUrl));
}
