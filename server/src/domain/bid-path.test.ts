import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../context.js';
import { bid, createAuction, makeApp, richBidder, signUpAdmin, signUpUser } from '../test/helpers.js';

let app: App;
beforeEach(async () => { app = await makeApp(); });
afterEach(async () => { await app.close(); });

/** Runs `fn` and returns every SQL statement it prepared. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const client = app.ctx.db.$client;
  const original = client.prepare.bind(client);
  const seen: string[] = [];
  client.prepare = ((sql: string) => { seen.push(sql); return original(sql); });
  try {
    await fn();
  } finally {
    client.prepare = original;
  }
  return seen;
}

it('a bid runs a constant number of statements, each an index search, however many bids exist', async () => {
  const admin = await signUpAdmin(app);
  const { auctionId, productIds: [p] } = await createAuction(app, admin.token);
  const [a, b] = [await richBidder(app, 100_000, [auctionId]), await richBidder(app, 100_000, [auctionId])];
  await signUpUser(app);
  let amount = 100;
  const next = () => (amount += 10);
  const first = await statementsOf(() => bid(app, a.token, p!, next()));
  for (let i = 0; i < 200; i++) await bid(app, i % 2 ? a.token : b.token, p!, next());
  const later = await statementsOf(() => bid(app, b.token, p!, next()));
  // Same work whether the product has 1 bid or 200 (outbid release included in the later one).
  const bidPath = later.filter((s) => !/token_version/.test(s));
  expect(bidPath.length).toBeLessThanOrEqual(first.length + 3);
  expect(bidPath.length).toBeLessThan(15);
  const plans = bidPath.map((sql) => ({ sql, plan: app.ctx.db.$client.prepare(`explain query plan ${sql}`).all(...sql.split('?').slice(1).map(() => null)) as { detail: string }[] }));
  for (const { sql, plan } of plans) {
    for (const step of plan) expect(step.detail, sql).not.toMatch(/^SCAN /);
  }
});
