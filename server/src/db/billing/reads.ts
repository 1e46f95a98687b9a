/**
 * A buyer's billing details (docs/invoices.md).
 * Its reads, one slice of Reads (reads.ts).
 */
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { BILLING_COLUMNS } from './columns.js';
import type { BillingRow } from './types.js';

export class BillingReads extends SqlSlice {
  /** A bidder's billing details; null until given. */
  async billing(userId: number): Promise<BillingRow | null> {
    if (!isStorableId(userId)) return null;
    return (await this.sql.get<BillingRow>(`select ${BILLING_COLUMNS} from billing_details where user_id = ?`, [userId])) ?? null;
  }
}
