/**
 * The catalogue: auctions, products and categories as they are created and listed.
 * Its reads, one slice of Reads (reads.ts).
 */
import { isStorableId } from '../rows.js';
import type { LotSearchKey } from '../search/lot-search.js';
import { SqlSlice } from '../slice.js';
import { type Dialect, likePattern, type Param } from '../sql.js';
import { coverOf, parseList, readProducts } from './product-views.js';
import type { AdminProductHit, AdminProductPageFilter, AuctionView, CategoryView, ProductView } from './types.js';

/** The order an auction lists its lots in: by lot number (docs/catalogue.md#lot-numbers), then as created. */
const LOT_ORDER = (d: Dialect) => `p.lot_number, p.created_at, ${d.insertionOrder('p')}`;

export class CatalogueReads extends SqlSlice {
  /** Auctions (not deleted), newest first, each with its products and registrations. */
  async auctions(filter: { createdBy?: number; id?: string; ids?: readonly string[] } = {}): Promise<AuctionView[]> {
    const where = ['a.deleted_at is null'];
    const params: Param[] = [];
    if (filter.ids !== undefined) {
      if (filter.ids.length === 0) return [];
      where.push(`a.id in (${filter.ids.map(() => '?').join(', ')})`);
      params.push(...filter.ids);
    }
    if (filter.createdBy !== undefined) { where.push('a.created_by = ?'); params.push(filter.createdBy); }
    if (filter.id !== undefined) { where.push('a.id = ?'); params.push(filter.id); }
    const d = this.dialect;
    const lots = 'p.auction_id = a.id and p.deleted_at is null';
    const productOrder = LOT_ORDER(d);
    const rows = await this.sql.all<Omit<AuctionView, 'productIds' | 'registrations' | 'cover'> & { productIds: string; registrations: string; cover: string | null }>(
      `select a.id, a.name, a.valid_until as "validUntil", a.original_valid_until as "originalValidUntil", a.increment_rule as "incrementRule",
        a.increment_amount as "incrementAmount", a.increment_tiers as "incrementTiers", a.cancel_policy as "cancelPolicy",
        a.soft_close_s as "softCloseS", a.max_extension_s as "maxExtensionS", a.buyer_premium_bp as "buyerPremiumBp", a.premium_gst_pct as "premiumGstPct", a.created_by as "createdBy", a.created_at as "createdAt", a.settled_at as "settledAt",
        ${d.jsonArray('p.id', `from products p where ${lots}`, productOrder)} as "productIds",
        ${d.jsonArray('r.user_id', 'from registrations r where r.auction_id = a.id', 'r.user_id')} as "registrations",
        (select i.image_name || ':' || i.thumb_name from products p join product_images i on i.product_id = p.id
          where ${lots} order by ${productOrder}, i.position, i.id limit 1) as cover,
        (select coalesce(max(b.amount), 0) from bids b join products p on p.id = b.product_id
          where b.auction_id = a.id and b.status in ('success', 'won') and ${lots}) as highest,
        (select coalesce(sum(p.bid_count), 0) from products p where ${lots}) as "bidCount"
      from auctions a where ${where.join(' and ')}
      order by a.created_at desc, ${d.insertionOrder('a')} desc`,
      params,
    );
    return rows.map((r) => ({
      ...r, productIds: parseList<string>(r.productIds), registrations: parseList<number>(r.registrations),
      cover: r.cover === null ? null : coverOf(r.cover),
      // PostgreSQL's sum of integers is a bigint: a number here, whatever the driver's parsers.
      highest: Number(r.highest), bidCount: Number(r.bidCount),
    }));
  }

  /**
   * What Browse's cards of these auctions show (deleted ones left out), in one statement: the same
   * read as a page of `GET /api/catalogue/auctions`, for the live channel's `catalogue:card`.
   */
  async auctionCards(ids: readonly string[]): Promise<AuctionView[]> {
    return this.auctions({ ids });
  }

  async auction(id: string): Promise<AuctionView | null> {
    return (await this.auctions({ id }))[0] ?? null;
  }

  /** Whether an auction exists; `includeDeleted` for history (bids stay readable after a delete). */
  async auctionExists(id: string, includeDeleted = false): Promise<boolean> {
    const row = await this.sql.get(`select 1 as one from auctions where id = ?${includeDeleted ? '' : ' and deleted_at is null'}`, [id]);
    return row !== undefined;
  }

  /** An auction's end as stored now, deleted or not (the scheduler checks before it acts). */
  async auctionEnd(id: string): Promise<{ validUntil: number; settledAt: number | null; deletedAt: number | null } | null> {
    return (await this.sql.get<{ validUntil: number; settledAt: number | null; deletedAt: number | null }>(
      'select valid_until as "validUntil", settled_at as "settledAt", deleted_at as "deletedAt" from auctions where id = ?',
      [id],
    )) ?? null;
  }

  /**
   * Every category, each top-level one followed by its subcategories (by name), with its count of open
   * lots: live products in an auction that is neither settled nor past its end, and not yet sold; a
   * top-level category counts its subcategories' lots too.
   */
  async categories(now: number): Promise<CategoryView[]> {
    const rows = await this.sql.all<Omit<CategoryView, 'openLots'> & { own: number }>(
      `select c.id, c.name, c.slug, c.parent_id as "parentId",
        (select count(*) from products p join auctions a on a.id = p.auction_id
          where p.category_id = c.id and p.deleted_at is null and p.status = 'available'
            and a.deleted_at is null and a.settled_at is null and a.valid_until > ?) as own
      from categories c order by c.name, c.id`,
      [now],
    );
    const total = new Map<number, number>();
    for (const r of rows) total.set(r.id, (total.get(r.id) ?? 0) + Number(r.own));
    for (const r of rows) if (r.parentId !== null) total.set(r.parentId, (total.get(r.parentId) ?? 0) + Number(r.own));
    const view = (r: (typeof rows)[number]): CategoryView => ({ id: r.id, name: r.name, slug: r.slug, parentId: r.parentId, openLots: total.get(r.id) ?? 0 });
    return rows.filter((r) => r.parentId === null).flatMap((top) => [view(top), ...rows.filter((r) => r.parentId === top.id).map(view)]);
  }

  /** A category with its subcategories' ids (none for a subcategory): what a filter by it covers. */
  async categoryScope(idOrSlug: number | string): Promise<{ id: number; ids: number[] } | null> {
    const byId = typeof idOrSlug === 'number';
    if (byId && !isStorableId(idOrSlug)) return null;
    const rows = await this.sql.all<{ id: number; parentId: number | null }>(
      `select c.id, c.parent_id as "parentId" from categories c where c.${byId ? 'id' : 'slug'} = ?
       union all select k.id, k.parent_id as "parentId" from categories k join categories c on c.id = k.parent_id where c.${byId ? 'id' : 'slug'} = ?`,
      [idOrSlug, idOrSlug],
    );
    const self = rows.find((r) => !rows.some((o) => o.id === r.parentId));
    if (!self) return null;
    return { id: self.id, ids: rows.map((r) => r.id) };
  }

  /** `now` decides whether the auction is over (for the callers' `my_status`). */
  async productsOfAuction(auctionId: string, now = Date.now()): Promise<ProductView[]> {
    return readProducts(this.sql, this.dialect, 'p.auction_id = ? and p.deleted_at is null', LOT_ORDER(this.dialect), [auctionId], now);
  }

  async unassignedProducts(adminId: number, now = Date.now()): Promise<ProductView[]> {
    return readProducts(this.sql, this.dialect, 'p.created_by = ? and p.auction_id is null and p.deleted_at is null', `p.created_at desc, ${this.dialect.insertionOrder('p')} desc`, [adminId], now);
  }

  /** Every live product an admin created, oldest first (the products export). */
  async productsBy(adminId: number, now = Date.now()): Promise<ProductView[]> {
    return readProducts(this.sql, this.dialect, 'p.created_by = ? and p.deleted_at is null', `p.created_at, ${this.dialect.insertionOrder('p')}`, [adminId], now);
  }

  /**
   * A page of an admin's own live products, newest first (created, then id, both descending; keyset
   * after `after`), each with its auction's name while it is in one, and how many match in all.
   * `nameLike`: text the name contains, any case. `categoryIds`: a category and its subcategories.
   */
  async adminProductPage(f: AdminProductPageFilter, now: number): Promise<{ hits: AdminProductHit[]; total: number; next: LotSearchKey | null }> {
    const where = ['p.created_by = ?', 'p.deleted_at is null'];
    const params: Param[] = [f.adminId];
    if (f.nameLike !== null) { where.push("lower(p.name) like ? escape '\\'"); params.push(likePattern(f.nameLike)); }
    if (f.status === 'unassigned') where.push('p.auction_id is null');
    else if (f.status === 'assigned') where.push("p.auction_id is not null and p.status <> 'sold'");
    else if (f.status === 'sold') where.push("p.status = 'sold'");
    if (f.categoryIds !== null) {
      if (f.categoryIds.length === 0) return { hits: [], total: 0, next: null };
      where.push(`p.category_id in (${f.categoryIds.map(() => '?').join(', ')})`);
      params.push(...f.categoryIds);
    }
    const from = `from products p where ${where.join(' and ')}`;
    const after = f.after === null ? '' : 'and (p.created_at < ? or (p.created_at = ? and p.id < ?))';
    const afterParams: Param[] = f.after === null ? [] : [f.after.key, f.after.key, f.after.id];
    // One row more than the page: whether there is a next page.
    const rows = await this.sql.all<{ id: string; k: number; auctionName: string | null }>(
      `select p.id, p.created_at as k, a.name as "auctionName"
       from products p left join auctions a on a.id = p.auction_id
       where ${where.join(' and ')} ${after} order by p.created_at desc, p.id desc limit ?`,
      [...params, ...afterParams, f.limit + 1],
    );
    const page = rows.slice(0, f.limit);
    const last = page.at(-1);
    const counted = await this.sql.get<{ n: number }>(`select count(*) as n ${from}`, params);
    const views = page.length === 0 ? [] : await readProducts(this.sql, this.dialect, `p.id in (${page.map(() => '?').join(', ')})`, 'p.id', page.map((r) => r.id), now);
    const byId = new Map(views.map((v) => [v.id, v]));
    const hits = page.flatMap((r) => {
      const product = byId.get(r.id);
      return product ? [{ product, auctionName: r.auctionName, key: { key: Number(r.k), id: r.id } }] : [];
    });
    // A product deleted between the two reads leaves a shorter page, never an early end.
    return { hits, total: Number(counted?.n ?? 0), next: rows.length > f.limit && last ? { key: Number(last.k), id: last.id } : null };
  }

  async product(id: string, now = Date.now()): Promise<ProductView | null> {
    return (await readProducts(this.sql, this.dialect, 'p.id = ? and p.deleted_at is null', 'p.id', [id], now))[0] ?? null;
  }
}
