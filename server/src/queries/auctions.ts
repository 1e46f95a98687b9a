/** Read side for auctions and products: one query per answer, never one per row. */
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { auctions, bids, products, registrations } from '../db/schema.js';

export interface AuctionView {
  id: string;
  name: string;
  validUntil: number;
  createdBy: number;
  createdAt: number;
  settledAt: number | null;
  productIds: string[];
  registrations: number[];
}

/** Auctions (not deleted), newest first, each with its products and registrations. */
export function listAuctions(db: Db, filter: { createdBy?: number; ids?: string[] } = {}): AuctionView[] {
  const where = and(
    isNull(auctions.deletedAt),
    filter.createdBy === undefined ? undefined : eq(auctions.createdBy, filter.createdBy),
    filter.ids === undefined ? undefined : inArray(auctions.id, filter.ids),
  );
  const rows = db.select({
    id: auctions.id, name: auctions.name, validUntil: auctions.validUntil, createdBy: auctions.createdBy,
    createdAt: auctions.createdAt, settledAt: auctions.settledAt,
    // Correlated subqueries name the outer table literally: drizzle renders a column of a
    // single-table select unqualified, which the inner scope would capture.
    productIds: sql<string>`(select coalesce(json_group_array(p.id), '[]') from (select id from products p where p.auction_id = auctions.id and p.deleted_at is null order by p.created_at, p.rowid) p)`,
    registrations: sql<string>`(select coalesce(json_group_array(r.user_id), '[]') from registrations r where r.auction_id = auctions.id)`,
  }).from(auctions).where(where).orderBy(desc(auctions.createdAt), desc(sql`${auctions}.rowid`)).all();
  return rows.map((r) => ({ ...r, productIds: JSON.parse(r.productIds) as string[], registrations: JSON.parse(r.registrations) as number[] }));
}

export function getAuction(db: Db, id: string): AuctionView | null {
  return listAuctions(db, { ids: [id] })[0] ?? null;
}

export type AuctionStatus = 'active' | 'ended' | 'settled';

export function auctionStatus(a: { validUntil: number; settledAt: number | null }, now: number): AuctionStatus {
  if (a.settledAt !== null) return 'settled';
  return now >= a.validUntil ? 'ended' : 'active';
}

export interface ProductView {
  id: string;
  name: string;
  description: string;
  status: 'available' | 'sold';
  auctionId: string | null;
  /** Paise: the leading (or winning) bid, 0 when none. */
  highest: number;
  bidCount: number;
}

function selectProducts(db: Db) {
  return db.select({
    id: products.id, name: products.name, description: products.description, status: products.status,
    auctionId: products.auctionId, bidCount: products.bidCount,
    highest: sql<number>`coalesce(${bids.amount}, 0)`,
  }).from(products)
    // At most one success-or-won bid per product exists at any time (settlement turns the one into the other).
    .leftJoin(bids, and(eq(bids.productId, products.id), inArray(bids.status, ['success', 'won'])));
}

export function productsOfAuction(db: Db, auctionId: string): ProductView[] {
  return selectProducts(db).where(and(eq(products.auctionId, auctionId), isNull(products.deletedAt)))
    .orderBy(products.createdAt, sql`${products}.rowid`).all();
}

export function unassignedProducts(db: Db, adminId: number): ProductView[] {
  return selectProducts(db).where(and(eq(products.createdBy, adminId), isNull(products.auctionId), isNull(products.deletedAt)))
    .orderBy(desc(products.createdAt), desc(sql`${products}.rowid`)).all();
}

export function getProduct(db: Db, id: string): ProductView | null {
  return selectProducts(db).where(and(eq(products.id, id), isNull(products.deletedAt))).get() ?? null;
}

/** Whether an auction exists; `includeDeleted` for history (bids stay readable after a delete). */
export function auctionExists(db: Db, id: string, includeDeleted = false): boolean {
  const where = includeDeleted ? eq(auctions.id, id) : and(eq(auctions.id, id), isNull(auctions.deletedAt));
  return db.select({ id: auctions.id }).from(auctions).where(where).get() !== undefined;
}

/** A product with its auction's end, for `GET /time-left`. */
export function productTiming(db: Db, productId: string) {
  return db.select({ productId: products.id, auctionId: auctions.id, validUntil: auctions.validUntil, settledAt: auctions.settledAt })
    .from(products).leftJoin(auctions, eq(auctions.id, products.auctionId))
    .where(and(eq(products.id, productId), isNull(products.deletedAt))).get() ?? null;
}

/** Ids of the (not deleted) auctions a bidder registered for, newest first. */
export function registeredAuctionIds(db: Db, userId: number): string[] {
  return db.select({ id: auctions.id }).from(registrations)
    .innerJoin(auctions, eq(auctions.id, registrations.auctionId))
    .where(and(eq(registrations.userId, userId), isNull(auctions.deletedAt)))
    .orderBy(desc(auctions.createdAt), desc(sql`${auctions}.rowid`)).all().map((r) => r.id);
}
