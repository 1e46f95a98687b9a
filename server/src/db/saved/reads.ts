/**
 * Saved lots (docs/notifications.md#saved-lots).
 * Its reads, one slice of Reads (reads.ts).
 */
import { readProducts } from '../catalogue/product-views.js';
import type { ProductView } from '../catalogue/types.js';
import type { MyStanding } from '../lots/types.js';
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';

export class SavedReads extends SqlSlice {
  /**
   * The products a bidder saved (not deleted), the most recently saved first; a lot that went back
   * to its seller unsold (in no auction: a draft, which only its admin may read) shows again once listed.
   */
  async savedProducts(userId: number, now = Date.now()): Promise<ProductView[]> {
    if (!isStorableId(userId)) return [];
    return readProducts(this.sql, this.dialect, 
      'p.id in (select s.product_id from saved_lots s where s.user_id = ?) and p.deleted_at is null and p.auction_id is not null',
      '(select s.created_at from saved_lots s where s.user_id = ? and s.product_id = p.id) desc, p.id',
      [userId, userId], now,
    );
  }

  /** The bidder's standing on each lot they saved, in the lot's current auction (see myStandings). */
  async savedStandings(userId: number): Promise<MyStanding[]> {
    if (!isStorableId(userId)) return [];
    return this.sql.all<MyStanding>(
      `select b.product_id as "productId",
        case max(case b.status when 'won' then 3 when 'success' then 2 else 1 end) when 3 then 'won' when 2 then 'success' else 'outbid' end as status,
        max(case when b.status = 'success' then b.max_amount end) as "maxAmount"
      from saved_lots s join products p on p.id = s.product_id
        join bids b on b.product_id = s.product_id and b.user_id = s.user_id and b.auction_id = p.auction_id
      where s.user_id = ? and b.status in ('success', 'won', 'outbid', 'unsold')
      group by b.product_id`,
      [userId],
    );
  }

  /** Ids of the lots of an auction the bidder saved. */
  async savedIn(userId: number, auctionId: string): Promise<string[]> {
    if (!isStorableId(userId)) return [];
    const rows = await this.sql.all<{ id: string }>(
      'select s.product_id as id from saved_lots s join products p on p.id = s.product_id where s.user_id = ? and p.auction_id = ?',
      [userId, auctionId],
    );
    return rows.map((r) => r.id);
  }

  /** Whether the bidder saved this product. */
  async isSaved(userId: number, productId: string): Promise<boolean> {
    if (!isStorableId(userId)) return false;
    return (await this.sql.get('select 1 as one from saved_lots where user_id = ? and product_id = ?', [userId, productId])) !== undefined;
  }
}
