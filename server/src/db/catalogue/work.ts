/**
 * The catalogue: auctions, products and categories as they are created and listed.
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { type AuctionRow, type CategoryRow, columns, isStorableId, type ProductRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { marks, type Param } from '../sql.js';
import type { CatalogueWork, NewProduct } from './types.js';

const INSERT_PRODUCTS = 'insert into products (id, name, description, created_by, starting_price, reserve_price, buy_now_price, gst_pct, category_id, created_at, updated_at) values';

const PRODUCT_VALUES = 11;

const productValues = (row: NewProduct): Param[] => [
  row.id, row.name, row.description, row.createdBy, row.startingPrice ?? 0, row.reservePrice ?? null, row.buyNowPrice ?? null, row.gstPct ?? 0, row.categoryId ?? null, row.now, row.now,
];

/**
 * Products per statement in a bulk insert: 10,000 parameters, well under both stores' limits
 * (SQLite 32,766, PostgreSQL 65,535), few enough round trips that a 10,000-row import is ten.
 */
const BULK_ROWS = 1000;

export class CatalogueSql extends SqlSlice implements CatalogueWork {
  async auctionIdTaken(id: string): Promise<boolean> {
    return (await this.sql.get('select 1 as one from auctions where id = ?', [id])) !== undefined;
  }

  async insertProduct(row: NewProduct) {
    const product = (await this.sql.get<ProductRow>(
      `${INSERT_PRODUCTS} (${marks(PRODUCT_VALUES)}) on conflict do nothing returning ${columns.product('products')}`,
      productValues(row),
    )) ?? null;
    // The search index follows in the same transaction (docs/catalogue.md#search).
    if (product) await this.dialect.search.refreshProducts(this.sql, [product.id]);
    return product;
  }

  async insertProducts(rows: readonly NewProduct[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    const row = `(${marks(PRODUCT_VALUES)})`;
    for (let start = 0; start < rows.length; start += BULK_ROWS) {
      const chunk = rows.slice(start, start + BULK_ROWS);
      const made = await this.sql.all<{ id: string }>(
        `${INSERT_PRODUCTS} ${chunk.map(() => row).join(', ')} on conflict do nothing returning id`,
        chunk.flatMap(productValues),
      );
      const ids = made.map((p) => p.id);
      for (const id of ids) inserted.add(id);
      await this.dialect.search.indexNewProducts(this.sql, ids);
    }
    if (this.dialect.afterBulkInsert !== null && inserted.size >= BULK_ROWS) await this.sql.run(this.dialect.afterBulkInsert);
    return inserted;
  }

  async lockProductImports(): Promise<void> {
    if (this.dialect.productImportLock) await this.sql.get(this.dialect.productImportLock);
  }

  async numberLots(auctionId: string): Promise<void> {
    const lots = await this.sql.all<{ id: string; lotNumber: number | null }>(
      `select p.id, p.lot_number as "lotNumber" from products p where p.auction_id = ? and p.deleted_at is null
       order by p.created_at, ${this.dialect.insertionOrder('p')}`,
      [auctionId],
    );
    const bid = await this.sql.get("select 1 as one from bids b where b.auction_id = ? and b.status <> 'failed' limit 1", [auctionId]);
    let next = bid ? Math.max(0, ...lots.map((l) => l.lotNumber ?? 0)) : 0;
    for (const lot of lots) {
      if (bid && lot.lotNumber !== null) continue;
      next += 1;
      if (lot.lotNumber !== next) await this.sql.run('update products set lot_number = ? where id = ?', [next, lot.id]);
    }
  }

  async lockCategory(id: number): Promise<CategoryRow | null> {
    if (!isStorableId(id)) return null;
    return (await this.sql.get<CategoryRow>(`select ${columns.category('c')} from categories c where c.id = ?${this.dialect.forUpdate}`, [id])) ?? null;
  }

  async categorySlugTaken(slug: string, exceptId?: number): Promise<boolean> {
    return (await this.sql.get('select 1 as one from categories where slug = ? and id <> ?', [slug, exceptId ?? 0])) !== undefined;
  }

  async categoryInUse(id: number): Promise<{ children: boolean; products: boolean }> {
    const row = await this.sql.get<{ children: number | boolean; products: number | boolean }>(
      `select exists (select 1 from categories c where c.parent_id = ?) as children,
        exists (select 1 from products p where p.category_id = ? and p.deleted_at is null) as products`,
      [id, id],
    );
    return { children: Boolean(row?.children), products: Boolean(row?.products) };
  }

  async insertCategory(row: { name: string; slug: string; parentId: number | null; now: number }): Promise<CategoryRow | null> {
    return (await this.sql.get<CategoryRow>(
      `insert into categories (name, slug, parent_id, created_at) values (?, ?, ?, ?) on conflict do nothing returning ${columns.category('categories')}`,
      [row.name, row.slug, row.parentId, row.now],
    )) ?? null;
  }

  async updateCategory(id: number, set: { name: string; slug: string; parentId: number | null }): Promise<CategoryRow | null> {
    return (await this.sql.get<CategoryRow>(
      `update categories set name = ?, slug = ?, parent_id = ? where id = ? returning ${columns.category('categories')}`,
      [set.name, set.slug, set.parentId, id],
    )) ?? null;
  }

  async deleteCategory(id: number): Promise<void> {
    await this.sql.run('update products set category_id = null where category_id = ? and deleted_at is not null', [id]);
    await this.sql.run('delete from categories where id = ?', [id]);
  }

  async insertAuction(row: { id: string; name: string; validUntil: number; createdBy: number; now: number } & Partial<Pick<AuctionRow, 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS' | 'buyerPremiumBp' | 'premiumGstPct'>>) {
    return (await this.sql.get<AuctionRow>(
      `insert into auctions (id, name, valid_until, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, buyer_premium_bp, premium_gst_pct, created_by, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict do nothing returning ${columns.auction('auctions')}`,
      [
        row.id, row.name, row.validUntil, row.validUntil, row.incrementRule ?? 'flat', row.incrementAmount ?? 100, row.incrementTiers ?? null,
        row.cancelPolicy ?? 'until_end', row.softCloseS ?? 0, row.maxExtensionS ?? 3600, row.buyerPremiumBp ?? 0, row.premiumGstPct ?? 18, row.createdBy, row.now, row.now,
      ],
    )) ?? null;
  }
}
