/**
 * The PostgreSQL store's locking promises (docs/architecture.md#the-store-serversrcdb), proved against a second, independent
 * connection that takes row locks by hand:
 * - a bid locks its product first and reads everything else after the lock: a change committed by
 *   whoever held the product meanwhile is what the bid is decided on;
 * - a bid locks the wallets it moves in ascending id order: a transaction that also takes wallets in
 *   ascending order never deadlocks with it;
 * - a photo's delete and an upload of the same bytes both lock the renditions first: the delete never
 *   drops what the upload is about to name;
 * - row locks do not block the foreign-key checks of other transactions (FOR NO KEY UPDATE): a
 *   settlement holding its auction never waits for a bid that is inserting a row of that auction while
 *   the bid waits for the settlement's products (a deadlock seen under load with FOR UPDATE);
 * - a settlement reads its time once it holds the lots, so nothing that held a lot before it commits
 *   with a later time than the settlement's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeBid } from '../../domain/bidding.js';
import { settleAuction } from '../../domain/catalogue.js';
import { openStore } from '../index.js';
import { freshTestDatabase, TEST_POSTGRES_URL } from '../testing.js';
import { sessionIn } from './sessions.testing.js';
import type { PostgresStore } from './store.js';

const database = freshTestDatabase('postgres');
let store: PostgresStore;
let reachable = true;
const T0 = Date.parse('2026-11-24T00:00:00.000Z');
const ids = { low: 0, high: 0, admin: 0 };

beforeAll(async () => {
  try {
    store = (await openStore(database.url, { pgPool: 4 })) as PostgresStore;
  } catch (err) {
    if (process.env.REQUIRE_POSTGRES === '1') throw err;
    reachable = false;
    console.warn(`PostgreSQL locking tests skipped: ${TEST_POSTGRES_URL} is not reachable (${(err as Error).message})`);
    return;
  }
  await store.transaction(async (tx) => {
    ids.admin = (await tx.insertAdmin({ username: 'admin', name: 'A', mobileNumber: '9876543210', passwordHash: 'x', isOwner: true, now: T0 }))!.id;
    // Two wallets: the bidder has the LOWER id, the leader it outbids the HIGHER one.
    ids.low = (await tx.insertUser({ username: 'low', name: 'Low', mobileNumber: '9876543210', passwordHash: 'x', now: T0 }))!.id;
    ids.high = (await tx.insertUser({ username: 'high', name: 'High', mobileNumber: '9876543210', passwordHash: 'x', now: T0 }))!.id;
    await tx.apply({ moves: [{ userId: ids.low, type: 'topup', amount: 1_000_000 }, { userId: ids.high, type: 'topup', amount: 1_000_000 }] }, T0);
  });
});

afterAll(async () => {
  if (!reachable) return;
  await store.close();
  await database.drop();
});

/** A connection of its own in the test's schema, for taking locks by hand. */
const otherConnection = () => sessionIn(database.url);

let n = 0;
/** A fresh product in a fresh open auction, both bidders registered, `high` leading at ₹100. */
async function lot() {
  const id = `L${++n}`;
  const now = Date.now();
  await store.transaction(async (tx) => {
    await tx.insertProduct({ id: `${id}-P`, name: `Lot ${id}`, description: '', createdBy: ids.admin, now });
    await tx.insertAuction({ id: `${id}-A`, name: `Auction ${id}`, validUntil: now + 3_600_000, createdBy: ids.admin, now });
    await tx.apply({ products: [{ id: `${id}-P`, set: { auctionId: `${id}-A`, bidCount: 0 } }] }, now);
    await tx.register(`${id}-A`, ids.low, now);
    await tx.register(`${id}-A`, ids.high, now);
  });
  const first = await store.transaction((tx) => placeBid(tx, { userId: ids.high, productRef: `${id}-P`, amount: 10_000 }, Date.now()));
  expect(first.ok).toBe(true);
  return { productId: `${id}-P`, auctionId: `${id}-A` };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL locking', () => {
  it('a bid decides on the product as it is once it holds the lock: a sale committed meanwhile refuses it', async () => {
    if (!reachable) return;
    const { productId } = await lot();
    const other = await otherConnection();
    try {
      await other.query('begin');
      // Someone (a settlement) holds the product and marks it sold, not yet committed.
      await other.query(`update products set status = 'sold', sold_price = 10000, winner_id = $1 where id = $2`, [ids.high, productId]);
      const bid = store.transaction((tx) => placeBid(tx, { userId: ids.low, productRef: productId, amount: 20_000 }, Date.now()));
      let settled = false;
      void bid.then(() => { settled = true; }, () => { settled = true; });
      await pause(300);
      // The bid waits for the product's lock …
      expect(settled).toBe(false);
      await other.query('commit');
      // … and then sees the sale.
      const r = await bid;
      expect(r.ok ? 'accepted' : r.code).toBe('PRODUCT_SOLD');
    } finally {
      await other.end();
    }
  });

  it('a bid takes the wallets it moves in ascending id order: a transaction that does the same never deadlocks with it', async () => {
    if (!reachable) return;
    const { productId } = await lot();
    const retriesBefore = store.stats.retries;
    const other = await otherConnection();
    try {
      await other.query('begin');
      // The other transaction takes the lower wallet first …
      await other.query('select id from users where id = $1 for update', [ids.low]);
      // … while the bid by `low` (outbidding `high`) needs both wallets.
      const bid = store.transaction((tx) => placeBid(tx, { userId: ids.low, productRef: productId, amount: 20_000 }, Date.now()));
      await pause(300);
      // Then the higher one. Had the bid taken `high` first, this would close a circle: a deadlock
      // that PostgreSQL breaks by aborting one of the two (after deadlock_timeout, 1 s).
      await other.query('select id from users where id = $1 for update', [ids.high]);
      await other.query('commit');
      const r = await bid;
      expect(r.ok).toBe(true);
      expect(store.stats.retries, 'the bid was retried: it deadlocked').toBe(retriesBefore);
    } finally {
      await other.end().catch(() => undefined);
    }
  });

  it('a command holding an auction does not block a bid inserting a row of that auction (its foreign-key check)', async () => {
    if (!reachable) return;
    const { productId, auctionId } = await lot();
    const retriesBefore = store.stats.retries;
    const other = await otherConnection();
    try {
      // The other connection holds the product (as a bid in flight does) …
      await other.query('begin');
      await other.query('select id from products where id = $1 for no key update', [productId]);
      // … while a settlement locks the auction and then waits for the product.
      // The admin's button (the clock would wait for the end).
      const settle = store.transaction((tx) => settleAuction(tx, { auctionId, adminId: ids.admin }, Date.now));
      await pause(300);
      // The bid in flight now inserts its row: the foreign key to the auction takes a KEY SHARE lock
      // on it. Under the settlement's FOR UPDATE that would wait for the settlement: a deadlock.
      await other.query('set local statement_timeout = 2000');
      await other.query(
        `insert into bids (user_id, product_id, auction_id, amount, status, reason, created_at, updated_at) values ($1, $2, $3, 1, 'failed', 'TEST', 0, 0)`,
        [ids.low, productId, auctionId],
      );
      await other.query('commit');
      const r = await settle;
      expect(r.ok).toBe(true);
      expect(store.stats.retries, 'the settlement was retried: it deadlocked').toBe(retriesBefore);
    } finally {
      await other.end().catch(() => undefined);
    }
  });

  it('a settlement takes its time once it holds the lots: a buy-now that held a lot meanwhile is never later than the settled time', async () => {
    if (!reachable) return;
    const { productId, auctionId } = await lot();
    let t = Date.now();
    const clock = () => t;
    const other = await otherConnection();
    try {
      // A buy-now holds the lot (as its command does) …
      await other.query('begin');
      await other.query('select id from products where id = $1 for no key update', [productId]);
      // … while the admin's Settle locks the auction and waits for the lot.
      const settle = store.transaction((tx) => settleAuction(tx, { auctionId, adminId: ids.admin }, clock));
      await pause(300);
      // The buy-now commits a millisecond later than the moment Settle was pressed.
      t += 1;
      await other.query(
        `insert into bids (user_id, product_id, auction_id, amount, status, reason, buy_now, created_at, updated_at) values ($1, $2, $3, 1, 'failed', 'TEST', true, $4, $4)`,
        [ids.low, productId, auctionId, t],
      );
      await other.query('commit');
      expect((await settle).ok).toBe(true);
      const settled = await other.query<{ settled_at: string; valid_until: string }>('select settled_at, valid_until from auctions where id = $1', [auctionId]);
      expect(Number(settled.rows[0]!.settled_at)).toBeGreaterThanOrEqual(t);
      expect(Number(settled.rows[0]!.valid_until)).toBeGreaterThanOrEqual(t);
    } finally {
      await other.end().catch(() => undefined);
    }
  });

  it('a photo’s delete never drops renditions an upload of the same bytes is naming (both lock them)', async () => {
    const now = Date.now();
    const media = (name: string) => ({ name, contentType: 'image/webp', bytes: Buffer.from(name), width: 4, height: 3, now });
    const [image, thumb] = [`img-${++n}`, `thumb-${n}`];
    const photo = { imageName: image, thumbName: thumb, width: 4, height: 3, now };
    let old = 0;
    await store.transaction(async (tx) => {
      await tx.insertProduct({ id: `PH${n}-P`, name: 'Old photo', description: '', createdBy: ids.admin, now });
      await tx.insertProduct({ id: `PH${n}-Q`, name: 'New photo', description: '', createdBy: ids.admin, now });
      for (const name of [image, thumb]) await tx.insertMedia(media(name));
      old = (await tx.insertProductImage({ productId: `PH${n}-P`, ...photo })).id;
    });
    // The upload has stored its (identical) renditions and waits before naming them; the delete runs meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let stored!: () => void;
    const storedYet = new Promise<void>((r) => { stored = r; });
    const upload = store.transaction(async (tx) => {
      for (const name of [image, thumb]) await tx.insertMedia(media(name));
      stored();
      await gate;
      return tx.insertProductImage({ productId: `PH${n}-Q`, ...photo });
    });
    await storedYet;
    let deleted = false;
    const removal = store.transaction((tx) => tx.deleteProductImage(`PH${n}-P`, old)).then((ok) => { deleted = ok; });
    await pause(300);
    // The delete waits for the upload's renditions…
    expect(deleted).toBe(false);
    release();
    await upload;
    await removal;
    // …and, once the upload has named them, keeps them.
    expect(deleted).toBe(true);
    for (const name of [image, thumb]) expect(await store.reads.media(name)).not.toBeNull();
  });
});
