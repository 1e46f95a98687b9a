import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { bid, createAuction, makeApp, richBidder, signUpAdmin, signUpUser, sqliteConnection } from '../../test/helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp({ databaseUrl: ':memory:' }); });
afterEach(async () => { await app.close(); });

/**
 * Watches the connection from now on: every statement prepared (its SQL) and every execution of a
 * statement (run/get/all/iterate), so a test can count both for one request.
 */
function watchStatements() {
  const client = sqliteConnection(app);
  const original = client.prepare.bind(client);
  const log = { prepared: [] as string[], executed: [] as string[] };
  const counting = (stmt: object, sql: string): object => new Proxy(stmt, {
    get(target, prop, receiver: unknown) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'run' || prop === 'get' || prop === 'all' || prop === 'iterate') {
        return (...args: unknown[]) => { log.executed.push(sql); return (value as (...a: unknown[]) => unknown).apply(target, args); };
      }
      // raw(), pluck() and friends return the statement itself: keep counting through them.
      return (...args: unknown[]) => {
        const out = (value as (...a: unknown[]) => unknown).apply(target, args);
        return out === target ? receiver : out;
      };
    },
  });
  client.prepare = ((sql: string) => { log.prepared.push(sql); return counting(original(sql), sql); }) as typeof client.prepare;
  const during = async (fn: () => Promise<unknown>) => {
    const from = { prepared: log.prepared.length, executed: log.executed.length };
    await fn();
    return { prepared: log.prepared.slice(from.prepared), executed: log.executed.slice(from.executed) };
  };
  return { log, during };
}

const sessionCheck = (sql: string) => /token_version/.test(sql) || /^(begin|commit|savepoint|release)/i.test(sql);

it('a bid runs a constant number of prepared statements, each an index search, however many bids exist', async () => {
  const watch = watchStatements();
  const admin = await signUpAdmin(app);
  const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
  const [a, b] = [await richBidder(app, 100_000, [auctionId]), await richBidder(app, 100_000, [auctionId])];
  await signUpUser(app);
  let amount = 100;
  const next = () => (amount += 10);
  const first = await watch.during(() => bid(app, a.token, p!, next()));
  for (let i = 0; i < 200; i++) await bid(app, i % 2 ? a.token : b.token, p!, next());
  const later = await watch.during(() => bid(app, b.token, p!, next()));


  // Prepared once: the 202nd bid builds and prepares no SQL at all.
  expect(later.prepared.filter((s) => !sessionCheck(s))).toEqual([]);
  // Same work whether the product has 1 bid or 200 (the outbid release adds three writes, and the
  // outbid bidder's notice two: its insert and their unread count; docs/notifications.md).
  const firstRun = first.executed.filter((s) => !sessionCheck(s));
  const laterRun = later.executed.filter((s) => !sessionCheck(s));
  expect(firstRun.length).toBeGreaterThan(4);
  expect(laterRun.length).toBeLessThanOrEqual(firstRun.length + 5);
  expect(laterRun.length).toBeLessThan(17);
  // And each of them is an index search, never a table scan.
  for (const sql of new Set([...firstRun, ...laterRun])) {
    const plan = sqliteConnection(app).prepare(`explain query plan ${sql}`).all(...sql.split('?').slice(1).map(() => null)) as { detail: string }[];
    for (const step of plan) expect(step.detail, sql).not.toMatch(/^SCAN /);
  }
});

it('POST /wallet finds what the caller holds among their leading bids only, not every bid they ever placed', async () => {
  const watch = watchStatements();
  const admin = await signUpAdmin(app);
  const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
  const [a, b] = [await richBidder(app, 100_000, [auctionId]), await richBidder(app, 100_000, [auctionId])];
  let amount = 100;
  for (let i = 0; i < 40; i++) await bid(app, i % 2 ? a.token : b.token, p!, (amount += 10));
  const read = await watch.during(async () => {
    const res = await app.inject({ method: 'POST', url: '/api/wallet', headers: { authorization: `Bearer ${a.token}` }, payload: {} });
    expect(res.json()).toMatchObject({ on_hold: amount });
  });
  const sums = read.executed.filter((s) => /from bids/.test(s));
  expect(sums).toHaveLength(1);
  const plan = sqliteConnection(app).prepare(`explain query plan ${sums[0]!}`).all(null) as { detail: string }[];
  // The bids are searched through the partial index of leading bids (a bidder has a few), never through
  // all of the bidder's bids (after a bid storm, hundreds each: the wallet read fell tenfold).
  const bidsStep = plan.find((s) => / b USING /.test(s.detail));
  expect(bidsStep?.detail).toMatch(/USING (COVERING )?INDEX bids_user_leading_idx/);
});
