/**
 * Every read outside a transaction is bounded on PostgreSQL (PG_STATEMENT_TIMEOUT_MS; docs/catalogue.md
 * #what-a-search-costs): a read that runs past it is cancelled by the database and answered 503
 * UNAVAILABLE with Retry-After, and its connection goes back to the pool, so that public searches,
 * however many and however slow, never hold the whole pool: /api/health answers ok all along. Writes
 * (transactions) are not bounded. A second connection holds a lock the searches wait on, which makes
 * a search as slow as the test needs.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { App } from '../../context.js';
import { HOUR, call, expectError, makeApp, signUpAdmin } from '../../test/helpers.js';
import { sessionIn } from './sessions.testing.js';
import type { PostgresStore } from './store.js';

const TIMEOUT_MS = 300;
const POOL = 4;
let app: App;
let admin: { token: string };
let other: pg.Client;

beforeAll(async () => {
  app = await makeApp({ pgStatementTimeoutMs: TIMEOUT_MS, pgPool: POOL });
  admin = await signUpAdmin(app);
  for (const [id, name] of [['st-lamp', 'Brass lamp'], ['st-clock', 'Mantel clock']]) {
    const res = await call(app, 'POST', '/api/admin/product', { id, name, description: 'Old and fine' }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
  }
  const res = await call(app, 'POST', '/api/admin/auction', {
    id: 'st-sale', name: 'Weekly sale', valid_until: new Date(Date.now() + 2 * HOUR).toISOString(), product_ids: ['st-lamp', 'st-clock'],
  }, admin.token);
  expect(res.statusCode, res.body).toBe(201);
  other = await sessionIn(app.ctx.config.databaseUrl);
});
afterAll(async () => {
  await other?.query('rollback').catch(() => undefined);
  await other?.end();
  await app?.close();
});

const store = () => app.ctx.store as PostgresStore;
const search = () => call(app, 'GET', '/api/catalogue/lots?q=lamp');

/** Resolves with `work`'s value, or fails the test once `ms` have passed without one. */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the statement timeout of reads (PostgreSQL)', () => {
  it('reads PG_STATEMENT_TIMEOUT_MS: 5 s unless set, 0 for none', () => {
    expect(loadConfig({}).pgStatementTimeoutMs).toBe(5000);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '250' }).pgStatementTimeoutMs).toBe(250);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '0' }).pgStatementTimeoutMs).toBe(0);
    for (const bad of ['-1', 'soon', '1.5']) expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: bad })).toThrow(/PG_STATEMENT_TIMEOUT_MS/);
  });

  it('a search past the timeout is a 503 with Retry-After; the pool keeps its connections and /api/health stays ok', async () => {
    expect((await search()).statusCode).toBe(200);
    // Every search now waits on the lock: three times as many as the pool has connections, at once.
    await other.query('begin');
    await other.query('lock table lot_search in access exclusive mode');
    const storm = Promise.all(Array.from({ length: 3 * POOL }, () => search()));
    // Once they hold every connection (the rest queued), the health check needs one too.
    await within(5000, 'the pool taken', (async () => { while (store().connections().inUse < POOL) await new Promise((r) => setTimeout(r, 5)); })());
    const health = await within(5000, 'health during the storm', call(app, 'GET', '/api/health'));
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', db: 'ok' });
    const answers = await within(10_000, 'the storm', storm);
    for (const res of answers) {
      expectError(res, 503, 'UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
    }
    // The cancelled reads' connections are back in the pool (not closed and opened anew). The app's own
    // clock and mail sender may hold one for a moment, so idle is waited for, briefly.
    await within(2000, 'the pool idle again', (async () => { while (store().connections().inUse > 0 || store().connections().waiting > 0) await new Promise((r) => setTimeout(r, 5)); })());
    expect(store().pool.totalCount).toBe(POOL);
    await other.query('rollback');
    expect((await search()).json<{ total: number }>().total).toBe(1);
    expect((await call(app, 'GET', '/api/health')).statusCode).toBe(200);
  });

  it('a write is not bounded: it waits for the lock as long as it takes', async () => {
    await other.query('begin');
    await other.query('lock table lot_search in access exclusive mode');
    // The edit rewrites the lot's search entry, so it waits on the lock, past the reads' timeout.
    const edit = call(app, 'PUT', '/api/admin/product/st-clock', { name: 'Mantel clock, French', description: 'Old and fine' }, admin.token);
    await new Promise((resolve) => setTimeout(resolve, 3 * TIMEOUT_MS));
    await other.query('rollback');
    const res = await within(5000, 'the edit', edit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ product: { name: string } }>().product.name).toBe('Mantel clock, French');
  });
});
