/**
 * The PL/pgSQL functions from their source files (functions.ts): applied at open into the store's
 * schema, over the migrations' versions; once (a second open changes nothing); again when a file
 * changes, in one transaction, dropping and creating when create or replace cannot; and two stores
 * opening one fresh schema together both succeed. Needs PostgreSQL (TEST_POSTGRES_URL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase, postgresMissing, TEST_POSTGRES_URL, type TestDatabase } from '../testing.js';
import { FUNCTIONS_DIR, installFunctions, readFunctionSources } from './functions.js';
import { openPostgresStore, parsePostgresUrl, type PostgresStore } from './store.js';

const missing = await postgresMissing();
if (missing !== null) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${TEST_POSTGRES_URL} is unreachable: ${missing}`);
  console.warn(`Skipping the stored functions tests: ${TEST_POSTGRES_URL} is unreachable (${missing}).`);
}

const FUNCTIONS = ['apply_lot_batch', 'lot_context', 'lot_context_more'];

interface Proc { name: string; sig: string; oid: number; xmin: string; src: string }

/** A connection of its own in `db`'s schema, as the store's are. */
async function connect(db: TestDatabase): Promise<{ client: pg.Client; schema: string }> {
  const { connectionString, schema } = parsePostgresUrl(db.url);
  const client = new pg.Client({ connectionString, options: `-c search_path=${schema}` });
  await client.connect();
  return { client, schema: schema! };
}

const procs = async (client: pg.ClientBase, schema: string): Promise<Proc[]> => (await client.query<Proc>(
  `select p.proname as name, p.oid::regprocedure::text as sig, p.oid::integer as oid, p.xmin::text as xmin, p.prosrc as src
   from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1 order by p.proname, p.oid`, [schema])).rows;
const recorded = async (client: pg.ClientBase) =>
  (await client.query<{ name: string; version: number; sha256: string }>('select name, version, sha256 from stored_functions order by name')).rows;

/** A copy of functions/ to change. */
function copyOfFunctions(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-functions-'));
  for (const f of fs.readdirSync(FUNCTIONS_DIR)) fs.copyFileSync(path.join(FUNCTIONS_DIR, f), path.join(dir, f));
  return dir;
}
const edit = (dir: string, file: string, change: (sql: string) => string) => {
  const p = path.join(dir, file);
  const before = fs.readFileSync(p, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  fs.writeFileSync(p, after);
};

describe('the function sources (no database)', () => {
  it('has one file per function, each with its version, and what it creates', () => {
    const sources = readFunctionSources();
    expect(sources.map((s) => [s.name, s.creates])).toEqual(FUNCTIONS.map((f) => [f, [f]]));
    expect(Object.fromEntries(sources.map((s) => [s.name, s.version]))).toEqual({ apply_lot_batch: 3, lot_context: 2, lot_context_more: 1 });
    for (const s of sources) expect(s.sql.split('\n')[0]).toBe(`-- version: ${s.version}`);
  });

  it('no migration after the files began redefines one of their functions (it would win over the file until the file changes)', () => {
    const names = readFunctionSources().flatMap((s) => s.creates);
    const dir = path.join(FUNCTIONS_DIR, '..', '..', '..', '..', '..', 'drizzle', 'postgres');
    const later = fs.readdirSync(dir).filter((f) => /^\d{4}_.*\.sql$/.test(f) && Number(f.slice(0, 4)) > 18);
    for (const f of later) {
      const sql = fs.readFileSync(path.join(dir, f), 'utf8');
      for (const n of names) expect(new RegExp(`create\\s+(or\\s+replace\\s+)?function\\s+(\\w+\\.)?${n}\\b`, 'i').test(sql), `${f} defines ${n}`).toBe(false);
    }
    expect(later.length).toBeGreaterThan(0);
  });

  it('refuses a file whose header gives no version, or that creates no function', () => {
    const dir = copyOfFunctions();
    try {
      edit(dir, 'lot_context.sql', (sql) => sql.replace(/^-- version: 2\n/, ''));
      expect(() => readFunctionSources(dir)).toThrow(/lot_context\.sql: its header gives no version/);
      fs.writeFileSync(path.join(dir, 'lot_context.sql'), '-- version: 1\nselect 1;\n');
      expect(() => readFunctionSources(dir)).toThrow(/lot_context\.sql: creates no function/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(missing !== null)('functions applied at open', () => {
  const databases: TestDatabase[] = [];
  const clients: pg.Client[] = [];
  const stores: PostgresStore[] = [];
  const dirs: string[] = [];
  const fresh = () => {
    const db = freshTestDatabase('postgres');
    databases.push(db);
    return db;
  };
  const open = async (db: TestDatabase) => {
    const store = await openPostgresStore(db.url, { poolSize: 1 });
    stores.push(store);
    return store;
  };
  const client = async (db: TestDatabase) => {
    const c = await connect(db);
    clients.push(c.client);
    return c;
  };

  let db: TestDatabase;
  let first: { client: pg.Client; schema: string };

  beforeAll(async () => {
    db = fresh();
    await open(db);
    first = await client(db);
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(clients.map((c) => c.end()));
    for (const d of databases) await d.drop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it("installs the files' definitions into the store's schema, over the migrations' versions, and records them", async () => {
    const { client: c, schema } = first;
    const sources = readFunctionSources();
    expect(await recorded(c)).toEqual(sources.map((s) => ({ name: s.name, version: s.version, sha256: s.sha256 })));
    const installed = await procs(c, schema);
    expect(installed.map((p) => p.sig)).toEqual(['apply_lot_batch(jsonb)', 'lot_context(text,integer[],integer)', 'lot_context_more(text,text,integer[],integer)']);
    // Each body is the file's, byte for byte.
    for (const s of sources) expect(installed.find((p) => p.name === s.name)!.src).toBe(/ AS \$\$([\s\S]*)\$\$;\n$/.exec(s.sql)![1]);
    // apply_lot_batch is 0017's (a replaced notice is mailed again), not 0013's.
    expect(installed.find((p) => p.name === 'apply_lot_batch')!.src).toContain('mailed_at = NULL');
    // Nothing went to public.
    const inPublic = await c.query("select p.proname from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = any($1)", [FUNCTIONS]);
    expect(inPublic.rows).toEqual([]);
    // And they run: no such lot.
    expect((await c.query<{ ctx: unknown }>("select lot_context('nope', '{}', 0) as ctx")).rows[0]!.ctx).toBeNull();
  });

  it('opens again without applying anything: the rows and the functions (oid, xmin) stay as they were', async () => {
    const { client: c, schema } = first;
    const rows = await recorded(c);
    const before = await procs(c, schema);
    await (await open(db)).close();
    expect(await recorded(c)).toEqual(rows);
    expect(await procs(c, schema)).toEqual(before);
    expect(await installFunctions(c)).toEqual([]);
    expect(await procs(c, schema)).toEqual(before);
  });

  it('two stores opening one fresh schema at once both succeed, and the functions are there once', async () => {
    const other = fresh();
    const both = await Promise.all([open(other), open(other)]);
    expect(both).toHaveLength(2);
    const { client: c, schema } = await client(other);
    expect((await recorded(c)).map((r) => r.name)).toEqual(FUNCTIONS);
    expect((await procs(c, schema)).map((p) => p.name)).toEqual(FUNCTIONS);
    for (const s of both) expect(await s.ping()).toBe(true);
  });

  describe('a changed file', () => {
    let changing: TestDatabase;
    let c: pg.Client;
    let schema: string;
    const named = async (name: string) => (await procs(c, schema)).filter((p) => p.name === name);

    beforeAll(async () => {
      changing = fresh();
      await open(changing);
      ({ client: c, schema } = await client(changing));
    });

    it('is applied again with create or replace: same oid, new body, new row; the others stay', async () => {
      const dir = copyOfFunctions();
      dirs.push(dir);
      edit(dir, 'lot_context_more.sql', (sql) => sql.replace('-- version: 1\n', '-- version: 2\n').replace('DECLARE\n', '-- the second version\nDECLARE\n'));
      const before = await procs(c, schema);
      const rows = await recorded(c);
      expect(await installFunctions(c, dir)).toEqual(['lot_context_more']);
      const after = await procs(c, schema);
      const [was, now] = [before.find((p) => p.name === 'lot_context_more')!, after.find((p) => p.name === 'lot_context_more')!];
      expect(now.oid).toBe(was.oid);
      expect(now.xmin).not.toBe(was.xmin);
      expect(now.src).toContain('-- the second version');
      expect(after.filter((p) => p.name !== 'lot_context_more')).toEqual(before.filter((p) => p.name !== 'lot_context_more'));
      const changed = (await recorded(c)).find((r) => r.name === 'lot_context_more')!;
      expect(changed.version).toBe(2);
      expect(changed.sha256).not.toBe(rows.find((r) => r.name === 'lot_context_more')!.sha256);
      expect(await installFunctions(c, dir)).toEqual([]);
      // Back to the real folder (the store's next open does this): version 1 again.
      expect(await installFunctions(c)).toEqual(['lot_context_more']);
      expect((await named('lot_context_more'))[0]!.src).not.toContain('-- the second version');
      expect((await recorded(c)).find((r) => r.name === 'lot_context_more')!.version).toBe(1);
    });

    it('whose return type changed is dropped and created; one whose arguments changed loses its old signature', async () => {
      const dir = copyOfFunctions();
      dirs.push(dir);
      const was = (await named('lot_context_more'))[0]!;
      edit(dir, 'lot_context_more.sql', (sql) => sql.replace('-- version: 1\n', '-- version: 3\n').replace('p_ids integer) RETURNS json', 'p_ids integer) RETURNS jsonb').replace('RETURN json_build_object(', 'RETURN jsonb_build_object('));
      expect(await installFunctions(c, dir)).toEqual(['lot_context_more']);
      const retyped = await named('lot_context_more');
      expect(retyped.map((p) => p.sig)).toEqual([was.sig]);
      expect(retyped[0]!.oid).not.toBe(was.oid);
      expect((await c.query<{ t: string }>("select pg_typeof(lot_context_more('x', 'x', '{}', 0))::text as t")).rows[0]!.t).toBe('jsonb');

      edit(dir, 'lot_context_more.sql', (sql) => sql.replace('-- version: 3\n', '-- version: 4\n').replace('p_users integer[], p_ids integer)', 'p_users bigint[], p_ids integer)'));
      expect(await installFunctions(c, dir)).toEqual(['lot_context_more']);
      expect((await named('lot_context_more')).map((p) => p.sig)).toEqual(['lot_context_more(text,text,bigint[],integer)']);

      // The real file again, over both changes.
      expect(await installFunctions(c)).toEqual(['lot_context_more']);
      const back = await named('lot_context_more');
      expect(back.map((p) => [p.sig, p.src])).toEqual([[was.sig, was.src]]);
    });

    it('changes nothing when one of the files fails: all of them apply in one transaction', async () => {
      const dir = copyOfFunctions();
      dirs.push(dir);
      edit(dir, 'lot_context.sql', (sql) => sql.replace('-- version: 2\n', '-- version: 5\n').replace('DECLARE\n', '-- changed\nDECLARE\n'));
      edit(dir, 'lot_context_more.sql', (sql) => sql.replace('-- version: 1\n', '-- version: 5\n').replace('LANGUAGE plpgsql', 'LANGUAGE no_such_language'));
      const before = await procs(c, schema);
      const rows = await recorded(c);
      await expect(installFunctions(c, dir)).rejects.toThrow(/no_such_language/);
      expect(await procs(c, schema)).toEqual(before);
      expect(await recorded(c)).toEqual(rows);
      // The connection is usable afterwards (no transaction left open).
      expect((await c.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    });
  });

  it('a function dropped behind its back is installed again at the next open', async () => {
    const { client: c, schema } = first;
    for (const p of (await procs(c, schema)).filter((x) => x.name === 'lot_context_more')) await c.query(`drop function ${p.sig}`);
    expect((await procs(c, schema)).map((p) => p.name)).not.toContain('lot_context_more');
    expect(await installFunctions(c)).toEqual(['lot_context_more']);
    expect((await procs(c, schema)).map((p) => p.name)).toContain('lot_context_more');
    expect(await installFunctions(c)).toEqual([]);
  });
});
