/**
 * The admin's catalogue: products and auctions. Only the creating admin changes what they made.
 * Deletions are soft, and every hold they release is refunded through the ledger.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { auctions, bids, products, registrations } from '../db/schema.js';
import { refuse, type Refusal, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';
import { move, WalletChanges } from './ledger.js';

export type ProductRow = typeof products.$inferSelect;
export type AuctionRow = typeof auctions.$inferSelect;

const isUniqueViolation = (err: unknown) => ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE'].includes((err as { code?: string }).code ?? '');

function ownedProduct(tx: Tx, adminId: number, productId: string): Result<{ product: ProductRow }> {
  const product = tx.select().from(products).where(and(eq(products.id, productId), isNull(products.deletedAt))).get();
  if (!product) return refuse('NOT_FOUND', 'Product not found');
  if (product.createdBy !== adminId) return refuse('FORBIDDEN', 'Only the admin who created this product may change it');
  return { ok: true, product };
}

function ownedAuction(tx: Tx, adminId: number, auctionId: string): Result<{ auction: AuctionRow }> {
  const auction = tx.select().from(auctions).where(and(eq(auctions.id, auctionId), isNull(auctions.deletedAt))).get();
  if (!auction) return refuse('NOT_FOUND', 'Auction not found');
  if (auction.createdBy !== adminId) return refuse('FORBIDDEN', 'Only the admin who created this auction may change it');
  return { ok: true, auction };
}

export function createProduct(props: { db: Db; adminId: number; input: { id: string; name: string; description: string }; now: number }): Result<{ product: ProductRow }> {
  const { db, adminId, input, now } = props;
  try {
    const product = db.insert(products).values({
      id: input.id, name: input.name.trim(), description: input.description.trim(), createdBy: adminId, createdAt: now, updatedAt: now,
    }).returning().get();
    return { ok: true, product };
  } catch (err) {
    if (isUniqueViolation(err)) return refuse('ID_TAKEN', `A product with id ${input.id} already exists (ids of deleted products stay reserved)`, 'id');
    throw err;
  }
}

export function updateProduct(props: { db: Db; adminId: number; productId: string; input: { name: string; description: string }; now: number }): Result<{ product: ProductRow; events: DomainEvent[] }> {
  const { db, adminId, productId, input, now } = props;
  return db.transaction((tx): Result<{ product: ProductRow; events: DomainEvent[] }> => {
    const owned = ownedProduct(tx, adminId, productId);
    if (!owned.ok) return owned;
    const product = tx.update(products).set({ name: input.name.trim(), description: input.description.trim(), updatedAt: now })
      .where(eq(products.id, productId)).returning().get();
    const events: DomainEvent[] = product.auctionId ? [{ type: 'auction:updated', auctionId: product.auctionId, ownerId: adminId }] : [];
    return { ok: true, product, events };
  }, { behavior: 'immediate' });
}

/** Refunds the leading bid of each product (if any); returns the released bids' count. */
function releaseHolds(db: Db, productIds: string[], reason: string, notes: (productName: string) => string, now: number, wallets: WalletChanges) {
  if (productIds.length === 0) return 0;
  const leaders = db.select({ id: bids.id, userId: bids.userId, amount: bids.amount, productId: bids.productId, productName: products.name })
    .from(bids).innerJoin(products, eq(products.id, bids.productId))
    .where(and(inArray(bids.productId, productIds), eq(bids.status, 'success'))).all();
  for (const l of leaders) {
    db.update(bids).set({ status: 'rolledback', reason, updatedAt: now }).where(eq(bids.id, l.id)).run();
    const { balance } = move(db, { userId: l.userId, type: 'refund', amount: l.amount, bidId: l.id, productId: l.productId, notes: notes(l.productName), now });
    wallets.record(l.userId, balance);
  }
  return leaders.length;
}

export function deleteProduct(props: { db: Db; adminId: number; productId: string; now: number }): Result<{ events: DomainEvent[] }> {
  const { db, adminId, productId, now } = props;
  return db.transaction((tx): Result<{ events: DomainEvent[] }> => {
    const owned = ownedProduct(tx, adminId, productId);
    if (!owned.ok) return owned;
    const { product } = owned;
    if (product.status === 'sold') return refuse('PRODUCT_SOLD', 'A sold product cannot be deleted');
    const wallets = new WalletChanges();
    releaseHolds(db, [product.id], 'PRODUCT_DELETED', (name) => `Hold released: ${name} was withdrawn from the auction`, now, wallets);
    tx.update(products).set({ deletedAt: now, auctionId: null, updatedAt: now }).where(eq(products.id, product.id)).run();
    const events: DomainEvent[] = product.auctionId ? [{ type: 'auction:updated', auctionId: product.auctionId, ownerId: adminId }] : [];
    return { ok: true, events: [...events, ...wallets.events()] };
  }, { behavior: 'immediate' });
}

/** Refuses unless every id is one of the admin's own unassigned products. */
function checkAssignable(tx: Tx, adminId: number, productIds: string[]): Refusal | null {
  if (productIds.length === 0) return null;
  const rows = tx.select({ id: products.id }).from(products).where(and(
    inArray(products.id, productIds), eq(products.createdBy, adminId), isNull(products.auctionId), isNull(products.deletedAt), eq(products.status, 'available'),
  )).all();
  const ok = new Set(rows.map((r) => r.id));
  const bad = productIds.find((id) => !ok.has(id));
  return bad === undefined ? null : refuse('PRODUCT_NOT_AVAILABLE', `Product ${bad} is not one of your unassigned products`, 'product_ids');
}

function assign(tx: Tx, productIds: string[], auctionId: string | null, now: number) {
  if (productIds.length === 0) return;
  tx.update(products).set({ auctionId, bidCount: 0, updatedAt: now }).where(inArray(products.id, productIds)).run();
}

export interface AuctionInput {
  id: string;
  name: string;
  /** Epoch ms. */
  validUntil: number;
  productIds: string[];
}

const mustBeFuture = () => refuse('VALIDATION', 'valid_until must be in the future', 'valid_until');

export function createAuction(props: { db: Db; adminId: number; input: AuctionInput; now: number }): Result<{ auction: AuctionRow; events: DomainEvent[] }> {
  const { db, adminId, input, now } = props;
  if (input.validUntil <= now) return mustBeFuture();
  const productIds = [...new Set(input.productIds)];
  return db.transaction((tx): Result<{ auction: AuctionRow; events: DomainEvent[] }> => {
    if (tx.select({ id: auctions.id }).from(auctions).where(eq(auctions.id, input.id)).get()) {
      return refuse('ID_TAKEN', `An auction with id ${input.id} already exists (ids of deleted auctions stay reserved)`, 'id');
    }
    const refusal = checkAssignable(tx, adminId, productIds);
    if (refusal) return refusal;
    const auction = tx.insert(auctions).values({
      id: input.id, name: input.name.trim(), validUntil: input.validUntil, createdBy: adminId, createdAt: now, updatedAt: now,
    }).returning().get();
    assign(tx, productIds, auction.id, now);
    return { ok: true, auction, events: [{ type: 'auction:created', auctionId: auction.id, ownerId: adminId }] };
  }, { behavior: 'immediate' });
}

export function updateAuction(props: { db: Db; adminId: number; auctionId: string; input: Omit<AuctionInput, 'id' | 'productIds'> & { productIds?: string[] }; now: number }): Result<{ auction: AuctionRow; events: DomainEvent[] }> {
  const { db, adminId, auctionId, input, now } = props;
  return db.transaction((tx): Result<{ auction: AuctionRow; events: DomainEvent[] }> => {
    const owned = ownedAuction(tx, adminId, auctionId);
    if (!owned.ok) return owned;
    const current = owned.auction;
    if (current.settledAt !== null) return refuse('AUCTION_SETTLED', 'A settled auction cannot be edited');
    // Moving the end is allowed, to a future time only (which reopens an ended, unsettled auction).
    if (input.validUntil !== current.validUntil && input.validUntil <= now) return mustBeFuture();

    if (input.productIds) {
      const wanted = new Set(input.productIds);
      const present = tx.select({ id: products.id }).from(products)
        .where(and(eq(products.auctionId, auctionId), isNull(products.deletedAt))).all().map((r) => r.id);
      const removed = present.filter((id) => !wanted.has(id));
      const added = [...wanted].filter((id) => !present.includes(id));
      if (removed.length > 0) {
        const withBids = tx.select({ productId: bids.productId }).from(bids)
          .where(and(inArray(bids.productId, removed), eq(bids.status, 'success'))).get();
        if (withBids) return refuse('PRODUCT_HAS_BIDS', `Product ${withBids.productId} has bids and cannot be removed`, 'product_ids');
      }
      const refusal = checkAssignable(tx, adminId, added);
      if (refusal) return refusal;
      assign(tx, removed, null, now);
      assign(tx, added, auctionId, now);
    }
    const auction = tx.update(auctions).set({ name: input.name.trim(), validUntil: input.validUntil, updatedAt: now })
      .where(eq(auctions.id, auctionId)).returning().get();
    return { ok: true, auction, events: [{ type: 'auction:updated', auctionId, ownerId: adminId }] };
  }, { behavior: 'immediate' });
}

export function deleteAuction(props: { db: Db; adminId: number; auctionId: string; now: number }): Result<{ refunded: number; events: DomainEvent[] }> {
  const { db, adminId, auctionId, now } = props;
  return db.transaction((tx): Result<{ refunded: number; events: DomainEvent[] }> => {
    const owned = ownedAuction(tx, adminId, auctionId);
    if (!owned.ok) return owned;
    const { auction } = owned;
    if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'A settled auction cannot be deleted');
    const productIds = tx.select({ id: products.id }).from(products)
      .where(and(eq(products.auctionId, auctionId), isNull(products.deletedAt))).all().map((r) => r.id);
    const wallets = new WalletChanges();
    const refunded = releaseHolds(db, productIds, 'AUCTION_DELETED', (name) => `Hold released on ${name}: auction ${auction.name} was deleted`, now, wallets);
    assign(tx, productIds, null, now);
    tx.update(auctions).set({ deletedAt: now, updatedAt: now }).where(eq(auctions.id, auctionId)).run();
    return { ok: true, refunded, events: [{ type: 'auction:deleted', auctionId, ownerId: adminId }, ...wallets.events()] };
  }, { behavior: 'immediate' });
}

/**
 * Settles an auction: every leading bid wins and its product is sold; products without one go back
 * to unassigned. `adminId` (the button) must be the creator; the scheduler passes none.
 */
export function settleAuction(props: { db: Db; auctionId: string; now: number; adminId?: number }): Result<{ sold: { productId: string; amount: number }[]; unsold: string[]; events: DomainEvent[] }> {
  const { db, auctionId, now, adminId } = props;
  return db.transaction((tx) => {
    const auction = tx.select().from(auctions).where(and(eq(auctions.id, auctionId), isNull(auctions.deletedAt))).get();
    if (!auction) return refuse('NOT_FOUND', 'Auction not found');
    if (adminId !== undefined && auction.createdBy !== adminId) return refuse('FORBIDDEN', 'Only the admin who created this auction may settle it');
    if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has already been settled');

    const items = tx.select({ productId: products.id, bidId: bids.id, userId: bids.userId, amount: bids.amount })
      .from(products)
      .leftJoin(bids, and(eq(bids.productId, products.id), eq(bids.status, 'success')))
      .where(and(eq(products.auctionId, auctionId), isNull(products.deletedAt)))
      .all();
    const events: DomainEvent[] = [];
    const sold: { productId: string; amount: number }[] = [];
    const unsold: string[] = [];
    for (const item of items) {
      if (item.bidId === null || item.userId === null || item.amount === null) {
        unsold.push(item.productId);
        continue;
      }
      // The hold becomes the payment: no ledger row, the money simply stays taken.
      tx.update(bids).set({ status: 'won', updatedAt: now }).where(eq(bids.id, item.bidId)).run();
      tx.update(products).set({ status: 'sold', soldPrice: item.amount, winnerId: item.userId, updatedAt: now })
        .where(eq(products.id, item.productId)).run();
      sold.push({ productId: item.productId, amount: item.amount });
      events.push({ type: 'product:sold', auctionId, ownerId: auction.createdBy, productId: item.productId, amount: item.amount });
      events.push({ type: 'bid:won', userId: item.userId, auctionId, productId: item.productId, amount: item.amount });
    }
    assign(tx, unsold, null, now);
    tx.update(auctions).set({ settledAt: now, validUntil: Math.min(auction.validUntil, now), updatedAt: now })
      .where(eq(auctions.id, auctionId)).run();
    events.push({ type: 'auction:settled', auctionId, ownerId: auction.createdBy });
    return { ok: true as const, sold, unsold, events };
  }, { behavior: 'immediate' });
}

/** A bidder registers for an auction; idempotent; refused once it has ended. */
export function registerForAuction(props: { db: Db; userId: number; auctionId: string; now: number }): Result<{ already: boolean }> {
  const { db, userId, auctionId, now } = props;
  return db.transaction((tx): Result<{ already: boolean }> => {
    const auction = tx.select().from(auctions).where(and(eq(auctions.id, auctionId), isNull(auctions.deletedAt))).get();
    if (!auction) return refuse('NOT_FOUND', 'Auction not found');
    if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
    if (now >= auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended');
    const inserted = tx.insert(registrations).values({ auctionId, userId, createdAt: now }).onConflictDoNothing().run();
    return { ok: true, already: inserted.changes === 0 };
  }, { behavior: 'immediate' });
}

