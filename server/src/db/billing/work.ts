/**
 * A buyer's billing details (docs/invoices.md).
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { SqlSlice } from '../slice.js';
import { BILLING_COLUMNS } from './columns.js';
import type { BillingRow, BillingWork } from './types.js';

export class BillingSql extends SqlSlice implements BillingWork {
  async saveBilling(b: Omit<BillingRow, 'updatedAt'>, now: number): Promise<BillingRow> {
    const row = await this.sql.get<BillingRow>(
      `insert into billing_details (user_id, name, address_line1, address_line2, city, state_code, pin, gstin, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (user_id) do update set name = excluded.name, address_line1 = excluded.address_line1, address_line2 = excluded.address_line2,
         city = excluded.city, state_code = excluded.state_code, pin = excluded.pin, gstin = excluded.gstin, updated_at = excluded.updated_at
       returning ${BILLING_COLUMNS}`,
      [b.userId, b.name, b.addressLine1, b.addressLine2, b.city, b.stateCode, b.pin, b.gstin, now],
    );
    if (!row) throw new Error('store: saving billing details returned no row');
    return row;
  }
}
