/**
 * The PostgreSQL store: a node-postgres pool, one READ COMMITTED transaction per unit of work on a
 * client of its own, rows locked with `SELECT … FOR UPDATE` in one global order (see UnitOfWork).
 * Should two transactions still deadlock, or fail to serialise, the whole unit of work runs again
 * (a few times, after a short random pause); then the caller gets StoreUnavailable.
 *
 * `DATABASE_URL` may end in `?schema=<name>`: every connection then works in that schema (created if
 * missing), drizzle's migrations table included, so several stores (tests, tenants) share one database.
 * Migrations are applied at open under a session advisory lock, so processes starting together
 * migrate one after the other.
 */
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { POSTGRES_MIGRATIONS_DIR } from '../../paths.js';
import { StoreUnavailable } from '../errors.js';
import { Reads } from '../reads.js';
import type { Param, SqlRunner } from '../sql.js';
import type { Election, Store, UnitOfWork } from '../store.js';
import { AdvisoryElection } from './election.js';
import { installFunctions } from './functions.js';
import { PostgresLotLanes } from './lot-lanes.js';
import { SqlUnitOfWork } from '../unit-of-work.js';
import { BEGIN, isConnectionLost, isRetryable, pgTypes, postgresDialect, runnerOn, translate } from './runner.js';

/** Runs of a unit of work before a deadlock or serialization failure becomes StoreUnavailable. */
export const MAX_ATTEMPTS = 5;
const CONNECT_TIMEOUT_MS = 5000;
const PING_TIMEOUT_MS = 2000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * How long a command or read may queue for one of the pool's connections before the client is told
 * the service is busy. Queueing is the normal back-pressure of a storm (a thousand bids on three lots
 * wait on each other's row locks, and so on each other's connections); only a wait this long is not.
 * Opening a connection has its own, short limit (CONNECT_TIMEOUT_MS), so an unreachable database is
 * still reported at once.
 */
const QUEUE_TIMEOUT_MS = 30_000;
/**
 * The longest one statement outside a transaction may run unless the options say otherwise
 * (PG_STATEMENT_TIMEOUT_MS): far above what any read of the store takes with a good plan, and short
 * enough that a read gone wrong gives its connection back within seconds instead of holding it.
 */
export const STATEMENT_TIMEOUT_MS = 5000;

/** At most `size` holders at a time; the rest wait in arrival order, each for at most `timeoutMs`. */
export class ConnectionGate {
  private active = 0;
  private readonly waiting: Array<{ grant: () => void; timer: NodeJS.Timeout }> = [];

  constructor(readonly size: number, private readonly timeoutMs: number) {}

  /** Places taken, and callers waiting for one. */
  get inUse() { return this.active; }
  get queued() { return this.waiting.length; }

  /** Resolves with the function that gives the place back. */
  acquire(): Promise<() => void> {
    if (this.active < this.size) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        grant: () => { clearTimeout(entry.timer); resolve(this.releaser()); },
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i !== -1) this.waiting.splice(i, 1);
          reject(new StoreUnavailable(`The database is busy: no connection free within ${this.timeoutMs / 1000} s`));
        }, this.timeoutMs),
      };
      this.waiting.push(entry);
    });
  }

  private releaser() {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      // The place passes straight to the next in line (active stays the same), or is freed.
      if (next) next.grant();
      else this.active--;
    };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** 2–20 ms, times the attempt that just failed. */
const backoff = (attempt: number) => (2 + Math.random() * 18) * attempt;

export interface PostgresStoreOptions {
  poolSize: number;
  /**
   * Each statement outside a transaction (every read) is cancelled by the database past this many ms:
   * the caller gets StoreUnavailable (503 UNAVAILABLE) and the connection goes back to the pool. 0: no
   * limit; left out: STATEMENT_TIMEOUT_MS. Transactions are not bounded (runner.ts, BEGIN).
   */
  statementTimeoutMs?: number;
  /** An idle pooled connection failed (the server restarted, the network dropped); the pool has already discarded it. */
  onPoolError?: (err: Error) => void;
}

/** Splits `?schema=` off a PostgreSQL URL. Throws on a schema name that is not a plain lower-case identifier. */
export function parsePostgresUrl(url: string): { connectionString: string; schema: string | null; options: string | null } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema');
  // pg reads `options` from the URL over the config, so fold it into ours rather than lose search_path.
  const options = u.searchParams.get('options');
  u.searchParams.delete('schema');
  u.searchParams.delete('options');
  if (schema !== null && !SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name in DATABASE_URL: ${JSON.stringify(schema)} (expected ${SCHEMA_NAME.source})`);
  return { connectionString: u.toString(), schema, options };
}

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly file = null;
  readonly reads: Reads;
  /** Transactions begun (attempts included) and runs again after a deadlock or serialization failure, for tests and diagnostics. */
  readonly stats = { transactions: 0, retries: 0 };
  /** Bids and buys on one lot decided together (lot-batch.ts). */
  readonly lots: PostgresLotLanes;
  private readonly runner: SqlRunner;
  private readonly gate: ConnectionGate;
  private closing: Promise<void> | null = null;

  /** Use openPostgresStore, which migrates first. */
  constructor(
    /** The pool, for this store's own tests and diagnostics. */
    readonly pool: pg.Pool,
    /** The schema every connection works in (`?schema=`), or null for the server's default search_path. */
    readonly schema: string | null,
    poolSize: number,
    /** How to open a connection of its own (the election's), as the pool does. */
    private readonly clientConfig: pg.ClientConfig = {},
  ) {
    this.gate = new ConnectionGate(poolSize, QUEUE_TIMEOUT_MS);
    // Reads queue at the gate like transactions do, so neither starves the other of connections.
    this.runner = runnerOn({
      query: async (config: pg.QueryConfig) => {
        const leave = await this.gate.acquire();
        try {
          return await this.statement(config);
        } finally {
          leave();
        }
      },
    });
    this.reads = new Reads(this.runner, postgresDialect);
    this.lots = new PostgresLotLanes((work) => this.retrying(() => this.lend(work)));
  }

  connections() {
    return { size: this.gate.size, inUse: this.gate.inUse, waiting: this.gate.queued };
  }

  /**
   * One statement outside a transaction, on a pooled connection that goes back to the pool after it
   * whether it succeeded or failed (a read cancelled at its statement timeout, say); only a connection
   * that is gone is closed. (`pool.query` would close the connection after any error, and a storm of
   * cancelled reads would become a storm of new connections.)
   */
  private async statement(config: pg.QueryConfig): Promise<pg.QueryResult> {
    const client = await this.pool.connect();
    let lost = false;
    const onError = () => { lost = true; };
    client.on('error', onError);
    try {
      return await client.query(config);
    } catch (err) {
      lost ||= isConnectionLost(err);
      throw err;
    } finally {
      client.off('error', onError);
      client.release(lost ? true : undefined);
    }
  }

  transaction<T>(work: (tx: UnitOfWork) => Promise<T>): Promise<T> {
    return this.runInTransaction((sql) => work(new SqlUnitOfWork(sql, postgresDialect)));
  }

  /**
   * What `transaction` does, around a bare SqlRunner on the transaction's client: BEGIN, `work`,
   * COMMIT; ROLLBACK if it throws; the whole again on a deadlock or serialization failure.
   */
  runInTransaction<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T> {
    return this.retrying(() => this.lend(async (client) => {
      await client.query(BEGIN);
      const value = await work(runnerOn(client));
      const done = await client.query('commit');
      // A transaction that hit an error which `work` caught is aborted: COMMIT then rolls it back
      // and says so (command ROLLBACK) instead of failing. Nothing was written: do not report success.
      if (done.command === 'ROLLBACK') throw new Error('The transaction was aborted by an earlier error and rolled back');
      return value;
    }));
  }

  /** Runs `attempt` again after a deadlock or serialization failure, at most MAX_ATTEMPTS times in all. */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (err) {
        if (!isRetryable(err)) throw err;
        if (n >= MAX_ATTEMPTS) {
          throw new StoreUnavailable(`The database is busy: the transaction failed ${n} times (${(err as { code?: string }).code})`, { cause: err });
        }
        this.stats.retries++;
        await sleep(backoff(n));
      }
    }
  }

  /**
   * A pooled connection of its own for `work`, which begins and commits a transaction on it: a place
   * at the gate first, the reads' caches dropped as it begins and once it has ended. Should `work`
   * throw, its transaction is rolled back (a connection that failed is destroyed, not reused).
   */
  private async lend<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const leave = await this.gate.acquire();
    this.reads.writing(true);
    try {
      return await this.onClient(work);
    } finally {
      this.reads.writing(false);
      leave();
    }
  }

  private async onClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw translate(err);
    }
    this.stats.transactions++;
    // Between statements the client has no query to fail: a dropped connection is reported as an
    // 'error' event, which would crash the process unheard. The next statement then fails.
    let lost = false;
    const onError = () => { lost = true; };
    client.on('error', onError);
    const release = (destroy: boolean) => {
      client.off('error', onError);
      client.release(destroy ? true : undefined);
    };
    try {
      const value = await work(client);
      release(false);
      return value;
    } catch (err) {
      let broken = lost || isConnectionLost(err) || isConnectionLost((err as { cause?: unknown } | null)?.cause);
      if (!broken) {
        try {
          await client.query('rollback');
        } catch {
          broken = true;
        }
      }
      // A connection that failed (or could not roll back) is destroyed, not handed to the next caller.
      release(broken);
      throw translate(err);
    }
  }

  query<T>(text: string, params: readonly Param[] = []): Promise<T[]> {
    return this.runner.all<T>(text, params);
  }

  /**
   * PostgreSQL enforces every constraint on every write and checks its pages as it reads them; what
   * is left to ask is whether any constraint of the store was ever added unchecked (NOT VALID).
   */
  async integrityCheck(): Promise<string> {
    const [row] = await this.query<{ n: number }>(
      'select count(*) as n from pg_constraint where not convalidated and connamespace = current_schema()::regnamespace',
    );
    return row?.n === 0 ? 'ok' : `${row?.n} constraints were never validated`;
  }

  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
    });
    const probe = this.pool.query<{ ok: number }>('select 1 as ok').then((r) => r.rows[0]?.ok === 1, () => false);
    try {
      return await Promise.race([probe, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async elect(name: string, onChange: (leading: boolean) => void | Promise<void>, onError: (err: unknown) => void): Promise<Election> {
    // Keyed on the schema: stores in other schemas of the same database (tests, tenants) elect their own.
    const election = new AdvisoryElection(this.clientConfig, `auction:${name}:${this.schema ?? 'public'}`, onChange, onError);
    await election.start();
    return election;
  }

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }
}

/**
 * Connects, creates the `?schema=` schema if missing, applies the migrations (one process at a time)
 * and returns the store. Connection failures reject with StoreUnavailable.
 */
export async function openPostgresStore(url: string, opts: PostgresStoreOptions): Promise<PostgresStore> {
  const { connectionString, schema, options } = parsePostgresUrl(url);
  const searchPath = schema === null ? null : `-c search_path=${schema}`;
  const clientConfig: pg.ClientConfig = {
    connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: pgTypes,
    ...(options !== null || searchPath !== null ? { options: [options, searchPath].filter(Boolean).join(' ') } : {}),
  };
  // Only the pool's connections bound their statements: the election's own connection waits on its lock.
  const statementTimeoutMs = opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({ ...clientConfig, max: opts.poolSize, ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}) });
  // Without a listener, an idle client's error (server restart, dropped network) crashes the process.
  pool.on('error', opts.onPoolError ?? ((err) => console.warn(`PostgreSQL: an idle connection failed and was discarded: ${err.message}`)));
  try {
    await migrateOnce(pool, schema);
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw translate(err);
  }
  return new PostgresStore(pool, schema, opts.poolSize, clientConfig);
}

/**
 * Creates the schema, applies pending migrations, then the functions whose source files changed
 * (functions.ts), under a session advisory lock keyed on the schema.
 */
async function migrateOnce(pool: pg.Pool, schema: string | null): Promise<void> {
  const client = await pool.connect();
  const onError = () => undefined; // a dropped connection fails the statement running on it
  client.on('error', onError);
  const key = `auction:migrate:${schema ?? 'public'}`;
  let failure: { error: unknown } | null = null;
  let locked = false;
  try {
    // A migration may take longer than a read may (an index built over a big table).
    await client.query('set statement_timeout = 0');
    await client.query('select pg_advisory_lock(hashtext($1))', [key]);
    locked = true;
    if (schema !== null) await client.query(`create schema if not exists ${pg.escapeIdentifier(schema)}`);
    await migrate(drizzle({ client }), { migrationsFolder: POSTGRES_MIGRATIONS_DIR, ...(schema !== null ? { migrationsSchema: schema } : {}) });
    // The PL/pgSQL functions from their source files (functions.ts), over what the migrations made.
    await installFunctions(client);
  } catch (error) {
    failure = { error };
  }
  if (locked) {
    try {
      await client.query('select pg_advisory_unlock(hashtext($1))', [key]);
    } catch (error) {
      failure ??= { error };
    }
  }
  // Closed, never handed to a read: its statements are unbounded. Closing also frees a lock still held.
  client.off('error', onError);
  client.release(true);
  if (failure) throw failure.error;
}
