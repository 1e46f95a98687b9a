/**
 * node-postgres under the store's SqlRunner: portable `?` SQL turned into `$1, $2, …` once per text,
 * run as a named prepared statement (parsed once per connection, then only bound and executed),
 * int8 and numeric read back as JS numbers, and driver failures that mean "the database is not
 * there right now" turned into StoreUnavailable. SQL errors (constraints, syntax) pass through as
 * node-postgres raised them, with their SQLSTATE `code`.
 */
import pg from 'pg';
import { StoreUnavailable } from '../errors.js';
import type { Dialect, Param, SqlRunner } from '../sql.js';
import { postgresSearch } from './search.js';

/** Any advisory-lock key outside the int4 range of `hashtext` (which the migration lock uses). */
const ADMIN_SIGNUP_LOCK_KEY = 7_213_447_201;
const PRODUCT_IMPORT_LOCK_KEY = 7_213_447_202;
const INVOICE_PREFIX_LOCK_KEY = 7_213_447_203;

export const postgresDialect: Dialect = {
  name: 'postgres',
  // NO KEY UPDATE: exclusive among lockers, but no key of a locked row ever changes, so other
  // transactions' foreign-key checks (KEY SHARE) on it never wait (FOR UPDATE made them deadlock).
  forUpdate: ' for no key update',
  claim: (alias) => ` for update of ${alias} skip locked`,
  insertionOrder: (alias) => `${alias}.seq`,
  jsonArray: (column, from, orderBy) => `(select coalesce(json_agg(${column} order by ${orderBy})::text, '[]') ${from})`,
  adminSignupLock: `select pg_advisory_xact_lock(${ADMIN_SIGNUP_LOCK_KEY})`,
  productImportLock: `select pg_advisory_xact_lock(${PRODUCT_IMPORT_LOCK_KEY})`,
  invoicePrefixLock: `select pg_advisory_xact_lock(${INVOICE_PREFIX_LOCK_KEY})`,
  afterBulkInsert: 'analyze products, lot_search',
  search: postgresSearch,
};

/**
 * How every transaction begins. A pooled connection bounds each statement (`statement_timeout`, set
 * as it connects: PG_STATEMENT_TIMEOUT_MS), which is what keeps a read from holding it for long; a
 * transaction lifts that for itself in the same round trip, so a write runs to its end as it always did.
 */
export const BEGIN = 'begin; set local statement_timeout = 0';

// ---------------------------------------------------------------------------------------------
// Placeholders and statement names

interface Prepared {
  /** The text with `$n` placeholders. */
  text: string;
  /** The prepared statement's name, the same on every connection; undefined past MAX_NAMED. */
  name: string | undefined;
}

/**
 * Distinct texts given a name (and kept converted). The store's own statements are a few hundred at
 * most; past this, texts built on the fly (ad-hoc `query` calls) run unnamed, so neither this map
 * nor each connection's set of prepared statements grows without bound.
 */
const MAX_NAMED = 2000;
const prepared = new Map<string, Prepared>();

/**
 * `?` → `$1, $2, …` in order, leaving alone anything inside '…' strings (with '' escapes),
 * "…" identifiers and -- comments.
 */
export function toPositional(text: string): string {
  let out = '';
  let n = 0;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '?') {
      out += `${text.slice(from, i)}$${++n}`;
      from = i + 1;
    } else if (c === "'" || c === '"') {
      // The closing quote; a doubled quote is an escaped one and simply reopens the literal.
      const end = text.indexOf(c, i + 1);
      i = end === -1 ? text.length : end;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i + 2);
      i = end === -1 ? text.length : end;
    }
  }
  return n === 0 ? text : out + text.slice(from);
}

/** The converted text and stable statement name of a portable SQL text. */
export function prepare(text: string): Prepared {
  let p = prepared.get(text);
  if (!p) {
    const positional = toPositional(text);
    if (prepared.size >= MAX_NAMED) return { text: positional, name: undefined };
    p = { text: positional, name: `q${prepared.size + 1}` };
    prepared.set(text, p);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Types

const asNumber = (value: string) => Number(value);

/**
 * Per-pool type parsers (never the global `pg.types`): int8 (counts, sums, bigint money and ms) and
 * numeric (sums of bigints) as JS numbers, everything else node-postgres's default. Money in paise and
 * times in ms stay far below 2^53.
 */
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if ((oid === 20 || oid === 1700) && format !== 'binary') return asNumber;
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  }) as typeof pg.types.getTypeParser,
};

// ---------------------------------------------------------------------------------------------
// Errors

/** Node socket errors: the server is not reachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);

/**
 * SQLSTATEs of a connection that is gone: 08 connection exception, 57P01–57P05 (admin or crash
 * shutdown, cannot connect now, database dropped, idle session timeout).
 */
const isLostState = (code: string) => code.startsWith('08') || /^57P0[1-5]$/.test(code);
/**
 * SQLSTATEs of a server refusing work for now, the connection intact or never made: 53 insufficient
 * resources (53300 too_many_connections, disk full, out of memory), 57014 query_canceled
 * (statement_timeout), 55P03 lock_not_available (lock_timeout).
 */
const isBusyState = (code: string) => code.startsWith('53') || code === '57014' || code === '55P03';

/** node-postgres's own errors (no code) for a connection that failed, dropped or was never had. */
const DRIVER_MESSAGES = /^(timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|Connection timeout)/i;

const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
};

/** Whether the connection an error came from is unusable (unreachable, dropped, shut down, pool ended). */
export function isConnectionLost(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = codeOf(err);
  if (code !== null && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isLostState(code)))) return true;
  // AggregateError of every address tried (ECONNREFUSED on ::1 and 127.0.0.1).
  if (err instanceof AggregateError) return err.errors.some(isConnectionLost);
  const message = (err as { message?: unknown }).message;
  return code === null && typeof message === 'string' && DRIVER_MESSAGES.test(message);
}

/** Whether an error means the database is unreachable or refusing work for now (→ StoreUnavailable). */
export function isUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  return isConnectionLost(err) || (code !== null && /^[0-9A-Z]{5}$/.test(code) && isBusyState(code));
}

/** Unavailability becomes StoreUnavailable (with the driver's error as `cause`); anything else is returned as is. */
export function translate(err: unknown): unknown {
  if (err instanceof StoreUnavailable) return err;
  if (isUnavailable(err)) return new StoreUnavailable('The database is unavailable', { cause: err });
  return err;
}

/** 40001 serialization_failure and 40P01 deadlock_detected: running the transaction again may succeed. */
export function isRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

// ---------------------------------------------------------------------------------------------
// The runner

/** A pool (each statement on whichever connection is free), one checked-out client (a transaction), or a gate before a pool. */
export interface Queryable {
  query(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

async function execute(on: Queryable, text: string, params: readonly Param[] | undefined): Promise<pg.QueryResult> {
  const p = prepare(text);
  try {
    return await on.query({ text: p.text, name: p.name, values: params ? [...params] : [] });
  } catch (err) {
    throw translate(err);
  }
}

/** A SqlRunner over a pool or a client; `run` resolves with the command's row count. */
export function runnerOn(on: Queryable): SqlRunner {
  return {
    all: async <T>(text: string, params?: readonly Param[]) => (await execute(on, text, params)).rows as T[],
    get: async <T>(text: string, params?: readonly Param[]) => (await execute(on, text, params)).rows[0] as T | undefined,
    run: async (text: string, params?: readonly Param[]) => (await execute(on, text, params)).rowCount ?? 0,
  };
}
