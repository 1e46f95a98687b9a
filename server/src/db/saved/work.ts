/**
 * Saved lots (docs/notifications.md#saved-lots).
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { SqlSlice } from '../slice.js';
import type { SavedWork } from './types.js';

export class SavedSql extends SqlSlice implements SavedWork {
  async productListed(id: string): Promise<boolean> {
    return (await this.sql.get('select 1 as one from products where id = ? and deleted_at is null and auction_id is not null', [id])) !== undefined;
  }

  async saveLot(userId: number, productId: string, now: number): Promise<boolean> {
    return (await this.sql.run('insert into saved_lots (user_id, product_id, created_at) values (?, ?, ?) on conflict do nothing', [userId, productId, now])) > 0;
  }

  async unsaveLot(userId: number, productId: string): Promise<boolean> {
    return (await this.sql.run('delete from saved_lots where user_id = ? and product_id = ?', [userId, productId])) > 0;
  }
}
