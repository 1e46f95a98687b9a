/**
 * A product as the catalogue shows it (ProductView): one statement for any set of products, with its
 * highest bid, its auction's terms, its photos and its category. Catalogue, saved-lot and search reads
 * all read products through `readProducts`.
 */
import type { Dialect, Param, SqlRunner } from '../sql.js';
import type { AuctionView, ProductImageView, ProductView } from './types.js';

/** A JSON list as the dialect returns it: text on SQLite, parsed already on PostgreSQL. */
export const parseList = <T>(json: string | T[]): T[] => (typeof json === 'string' ? (JSON.parse(json) as T[]) : json);

// ---- photos (docs/photos.md): a product's photos travel in its row as `id:image:thumb` texts
// (one portable JSON array of strings; media names are hex hashes, so `:` cannot occur in them).
const IMAGE_ENTRY = "cast(i.id as text) || ':' || i.image_name || ':' || i.thumb_name";
const imageOf = (entry: string): ProductImageView => {
  const [id, imageName, thumbName] = entry.split(':') as [string, string, string];
  return { id: Number(id), imageName, thumbName };
};

/** An auction's cover, read as `image:thumb` (one scalar subquery; the names are hex, so `:` cannot occur in them). */
export const coverOf = (entry: string): AuctionView['cover'] => {
  const [imageName, thumbName] = entry.split(':') as [string, string];
  return { imageName, thumbName };
};

function productSelect(dialect: Dialect, where: string, order: string) {
  // At most one success-or-won bid per product exists at any time (settlement turns the one into the other).
  return `select p.id, p.name, p.description, p.status, p.auction_id as "auctionId", p.bid_count as "bidCount", p.version, p.created_by as "createdBy",
      coalesce(b.amount, 0) as highest, case when b.id is null then 0 else 1 end as "hasBid",
      p.starting_price as "startingPrice", p.reserve_price as "reservePrice", p.buy_now_price as "buyNowPrice",
      p.gst_pct as "gstPct", coalesce(a.buyer_premium_bp, 0) as "buyerPremiumBp", coalesce(a.premium_gst_pct, 18) as "premiumGstPct",
      coalesce(a.increment_rule, 'flat') as "incrementRule", coalesce(a.increment_amount, 100) as "incrementAmount", a.increment_tiers as "incrementTiers", w.username as winner,
      case when a.settled_at is not null or a.valid_until <= ? then 1 else 0 end as "auctionOver",
      a.name as "auctionName", a.valid_until as "auctionValidUntil", a.settled_at as "auctionSettledAt",
      ${dialect.jsonArray(IMAGE_ENTRY, 'from product_images i where i.product_id = p.id', 'i.position, i.id')} as images,
      c.id as "categoryId", c.name as "categoryName", c.slug as "categorySlug", p.lot_number as "lotNumber"
    from products p left join bids b on b.product_id = p.id and b.status in ('success', 'won')
      left join auctions a on a.id = p.auction_id left join users w on w.id = p.winner_id left join categories c on c.id = p.category_id
    where ${where} order by ${order}`;
}

/** The products `where` selects (from `products p`), in `order`; `now` decides whether each one's auction is over. */
export async function readProducts(sql: SqlRunner, dialect: Dialect, where: string, order: string, params: Param[], now: number): Promise<ProductView[]> {
  type Row = Omit<ProductView, 'images' | 'category'> & { images: string | string[]; categoryId: number | null; categoryName: string | null; categorySlug: string | null };
  const rows = await sql.all<Row>(productSelect(dialect, where, order), [now, ...params]);
  return rows.map(({ categoryId, categoryName, categorySlug, ...r }) => ({
    ...r, hasBid: Boolean(r.hasBid), auctionOver: Boolean(r.auctionOver), images: parseList<string>(r.images).map(imageOf),
    category: categoryId === null ? null : { id: categoryId, name: categoryName ?? '', slug: categorySlug ?? '' },
  }));
}
