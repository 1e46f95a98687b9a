/**
 * The auction clock with more auctions ending soon than it reads at a time:
 * every auction gets its notices, its end and its settlement, however many end at once, while it holds
 * a bounded window in memory. The batch is 3 here (200 in production).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import type { DomainEvent } from '../domain/events.js';
import { call, createAuction, makeApp, signUpAdmin } from '../test/helpers.js';
import { eventually } from '../test/live-helpers.js';

const apps: App[] = [];
afterEach(async () => { for (const a of apps.splice(0)) await a.close(); });

async function appWithSmallBatch(autoSettle = true) {
  const app = await makeApp({ autoSettle }, { schedulerBatch: 3 });
  apps.push(app);
  const seen: DomainEvent[] = [];
  app.ctx.events.subscribe((events) => { seen.push(...events); });
  return { app, seen };
}

const of = <T extends DomainEvent['type']>(seen: DomainEvent[], type: T) => seen.filter((e): e is Extract<DomainEvent, { type: T }> => e.type === type);

describe('the auction clock beyond one batch', () => {
  it('sends every auction its "1 minute left" notice, however many end soon', async () => {
    const { app, seen } = await appWithSmallBatch();
    const admin = await signUpAdmin(app);
    // Eight auctions whose last-minute notices fall 1.5–2.2 s from now: more than two batches.
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await createAuction(app, admin.token, { endsIn: 61_500 + i * 100 })).auctionId);
    await eventually(() => {
      const noticed = of(seen, 'auction:ending').filter((e) => e.secondsLeft === 60).map((e) => e.auctionId);
      expect(noticed.sort()).toEqual([...ids].sort());
    }, 6000, 50);
    // Each once.
    expect(of(seen, 'auction:ending').filter((e) => e.secondsLeft === 60)).toHaveLength(8);
    // What the clock holds stays a bounded window: at most a batch per level read ahead.
    expect(app.ctx.scheduler.pending().length).toBeLessThanOrEqual(4 * 3 + 8);
  }, 15_000);

  it('ends and settles every one of many auctions ending at the same moment', async () => {
    const { app, seen } = await appWithSmallBatch();
    const admin = await signUpAdmin(app);
    const now = Date.now();
    const ids: string[] = [];
    // The same end, to the millisecond, for eight auctions (ties are read page by page).
    for (let i = 0; i < 8; i++) ids.push((await createAuction(app, admin.token, { endsIn: 2500, now })).auctionId);
    await eventually(async () => {
      const list = (await call(app, 'GET', '/api/admin/auctions/my', undefined, admin.token)).json<{ id: string; status: string }[]>();
      expect(list.filter((a) => ids.includes(a.id)).map((a) => a.status)).toEqual(Array<string>(8).fill('settled'));
    }, 8000, 100);
    expect(of(seen, 'auction:ended').map((e) => e.auctionId).sort()).toEqual([...ids].sort());
  }, 15_000);

  it('without automatic settlement, announces each end once and does not spin on auctions that stay unsettled', async () => {
    const { app, seen } = await appWithSmallBatch(false);
    const admin = await signUpAdmin(app);
    const reads = app.ctx.reads;
    const original = reads.auctionsEndingBy.bind(reads);
    let queries = 0;
    reads.auctionsEndingBy = (...args) => { queries++; return original(...args); };
    const now = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createAuction(app, admin.token, { endsIn: 2000, now })).auctionId);
    await eventually(() => expect(of(seen, 'auction:ended').map((e) => e.auctionId).sort()).toEqual([...ids].sort()), 6000, 50);
    const after = queries;
    await new Promise((r) => setTimeout(r, 1500));
    // Nothing more to read until the horizon: no reloading in a loop.
    expect(queries - after).toBeLessThanOrEqual(4);
    expect(of(seen, 'auction:ended')).toHaveLength(7);
    const list = (await call(app, 'GET', '/api/admin/auctions/my', undefined, admin.token)).json<{ id: string; status: string }[]>();
    expect(list.filter((a) => ids.includes(a.id)).every((a) => a.status === 'ended')).toBe(true);
  }, 15_000);
});
