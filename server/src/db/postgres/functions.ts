/**
 * The store's PL/pgSQL functions: each lives in a versioned source file of its own under
 * functions/ (`<name>.sql`, or one file for a closely tied group), holding its current definition and
 * beginning with a header comment that gives its version (`-- version: 3`) and what it does. They are
 * not copied into migrations: the store applies them at open, right after the migrations and under the
 * same advisory lock (store.ts, migrateOnce), into the store's schema (search_path).
 *
 * `stored_functions` (created if missing, in that schema) records each file's version and SHA-256.
 * A file whose version or hash differs from its row is run again (its `create or replace function`
 * statements), and its row written, all changed files in one transaction; when nothing changed, the
 * open costs one select. A definition that `create or replace` cannot take (a changed return type or
 * parameter names) drops what the file's functions were and creates them anew; an overload the file no
 * longer creates (a changed argument list) is dropped. A function's name belongs to one file.
 *
 * Old migrations still create old versions of these functions on a fresh schema (a migration is never
 * edited once applied); the files replace them straight after, which `create or replace` makes harmless.
 * A file taken out of the folder leaves its function and row as they are: drop it in a migration.
 *
 * The files are read from the source folder (server/src/db/postgres/functions), whether this runs from
 * server/src (tsx, vitest) or server/dist (node): like drizzle/, the folder ships with every install, and
 * there is no copy in dist/ to go stale.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { REPO_ROOT } from '../../paths.js';

export const FUNCTIONS_DIR = path.join(REPO_ROOT, 'server', 'src', 'db', 'postgres', 'functions');

/** One file of functions/. */
export interface FunctionSource {
  /** The file's name without `.sql`: its key in stored_functions. */
  name: string;
  version: number;
  sha256: string;
  /** The whole file, header included: PostgreSQL runs it as it is. */
  sql: string;
  /** The names of the functions (and procedures) it creates. */
  creates: string[];
}

const VERSION = /^-- version: (\d+)[ \t]*$/m;
const CREATES = /\bcreate\s+(?:or\s+replace\s+)?(?:function|procedure)\s+(?:"?[a-z_][\w$]*"?\s*\.\s*)?"?([a-z_][\w$]*)"?\s*\(/gi;

/** Reads every `.sql` file of `dir`, in name order. Throws on a file without a version in its header or without a function. */
export function readFunctionSources(dir = FUNCTIONS_DIR): FunctionSource[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort().map((file) => {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    // The header: the comment lines the file begins with.
    const header = /^(?:--[^\n]*(?:\n|$))*/.exec(sql)![0];
    const version = VERSION.exec(header);
    if (version === null) throw new Error(`${path.join(dir, file)}: its header gives no version (a first line \`-- version: <n>\`)`);
    const body = sql.slice(header.length).replace(/--[^\n]*/g, '');
    const creates = [...new Set([...body.matchAll(CREATES)].map((m) => m[1]!.toLowerCase()))];
    if (creates.length === 0) throw new Error(`${path.join(dir, file)}: creates no function`);
    return { name: file.slice(0, -'.sql'.length), version: Number(version[1]), sha256: createHash('sha256').update(sql).digest('hex'), sql, creates };
  });
}

interface Installed { name: string; version: number; sha256: string }

/**
 * Brings the functions of `dir` up to date in the connection's schema (its search_path). The caller
 * serialises concurrent calls on one schema (migrateOnce's advisory lock). Returns the names of the
 * files it (re)applied, none when everything was current.
 */
export async function installFunctions(client: pg.ClientBase, dir = FUNCTIONS_DIR): Promise<string[]> {
  const sources = readFunctionSources(dir);
  let installed: Installed[];
  try {
    installed = (await client.query<Installed>('select name, version, sha256 from stored_functions')).rows;
  } catch (err) {
    if ((err as { code?: string }).code !== '42P01') throw err; // undefined_table: the first open since this began
    await client.query('create table if not exists stored_functions (name text primary key, version integer not null, sha256 text not null)');
    installed = [];
  }
  const rows = new Map(installed.map((r) => [r.name, r]));
  // A function recorded but gone (dropped by hand, a partial restore) is installed again too.
  const names = [...new Set(sources.flatMap((s) => s.creates))];
  const present = new Set((await client.query<{ proname: string }>(
    'select distinct proname from pg_proc where pronamespace = current_schema()::regnamespace and proname = any($1::text[])', [names])).rows.map((r) => r.proname));
  const changed = sources.filter((s) => rows.get(s.name)?.version !== s.version || rows.get(s.name)?.sha256 !== s.sha256 || s.creates.some((n) => !present.has(n)));
  if (changed.length === 0) return [];
  // One transaction for all of them. A definition that create or replace refuses (invalid_function_definition:
  // a changed return type or parameter names) aborts it: it runs again, that file dropping its functions first.
  const dropFirst = new Set<string>();
  for (;;) {
    let running: FunctionSource | null = null;
    await client.query('begin');
    try {
      for (const source of changed) {
        running = source;
        await apply(client, source, dropFirst.has(source.name));
      }
      await client.query('commit');
      return changed.map((s) => s.name);
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      if ((err as { code?: string }).code !== '42P13' || running === null || dropFirst.has(running.name)) throw err;
      dropFirst.add(running.name);
    }
  }
}

/** The signatures (`name(argtypes)`) of the functions named `names` in the current schema; with `untouched`, only those this transaction did not write. */
async function signatures(client: pg.ClientBase, names: string[], untouched = false): Promise<string[]> {
  const { rows } = await client.query<{ sig: string }>(
    `select p.oid::regprocedure::text as sig from pg_proc p
     where p.pronamespace = current_schema()::regnamespace and p.proname = any($1::text[])
       ${untouched ? 'and p.xmin::text::bigint <> txid_current() % 4294967296' : ''}
     order by 1`, [names]);
  return rows.map((r) => r.sig);
}

async function apply(client: pg.ClientBase, source: FunctionSource, dropFirst: boolean): Promise<void> {
  if (dropFirst) for (const sig of await signatures(client, source.creates)) await client.query(`drop function ${sig}`);
  await client.query(source.sql);
  // What the file created was written by this transaction (no savepoint: its xid is the top one): any
  // other function of those names is an old signature of theirs.
  const stale = await signatures(client, source.creates, true);
  if (stale.length === (await signatures(client, source.creates)).length) throw new Error(`functions/${source.name}.sql wrote none of ${source.creates.join(', ')}`);
  for (const sig of stale) await client.query(`drop function ${sig}`);
  await client.query(
    'insert into stored_functions (name, version, sha256) values ($1, $2, $3) on conflict (name) do update set version = excluded.version, sha256 = excluded.sha256',
    [source.name, source.version, source.sha256]);
}
