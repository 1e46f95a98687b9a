/**
 * Houses (docs/invoices.md): an admin's profile as seller of record, and its pickup locations.
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { SqlSlice } from '../slice.js';
import { HOUSE_COLUMNS, PICKUP_COLUMNS } from './columns.js';
import type { HouseFields, HouseRow, HousesWork, PickupLocationDraft, PickupLocationRow } from './types.js';

export class HousesSql extends SqlSlice implements HousesWork {
  async lockHouse(adminId: number): Promise<HouseRow | null> {
    // The admin's row, locked: a house's saves run one after the other, its first too (before it there is
    // no house row to lock), so each checks its location ids against what the one before it committed.
    await this.sql.get(`select id from admins where id = ?${this.dialect.forUpdate}`, [adminId]);
    return (await this.sql.get<HouseRow>(`select ${HOUSE_COLUMNS} from houses where admin_id = ?`, [adminId])) ?? null;
  }

  async invoicePrefixTaken(prefix: string, adminId: number): Promise<boolean> {
    if (this.dialect.invoicePrefixLock) await this.sql.get(this.dialect.invoicePrefixLock);
    return (await this.sql.get('select 1 as one from houses where invoice_prefix = ? and admin_id <> ?', [prefix, adminId])) !== undefined;
  }

  async saveHouse(adminId: number, f: HouseFields, now: number): Promise<HouseRow> {
    const values = [f.legalName, f.displayName, f.addressLine1, f.addressLine2, f.city, f.stateCode, f.pin, f.gstin, f.invoicePrefix, f.phone, f.email, f.payoutHolder, f.payoutIfsc, f.payoutAccount, now];
    const row = await this.sql.get<HouseRow>(
      `insert into houses (admin_id, legal_name, display_name, address_line1, address_line2, city, state_code, pin, gstin, invoice_prefix, phone, email,
         payout_holder, payout_ifsc, payout_account, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (admin_id) do update set legal_name = excluded.legal_name, display_name = excluded.display_name,
         address_line1 = excluded.address_line1, address_line2 = excluded.address_line2, city = excluded.city, state_code = excluded.state_code,
         pin = excluded.pin, gstin = excluded.gstin, invoice_prefix = excluded.invoice_prefix, phone = excluded.phone, email = excluded.email,
         payout_holder = excluded.payout_holder, payout_ifsc = excluded.payout_ifsc, payout_account = excluded.payout_account, updated_at = excluded.updated_at
       returning ${HOUSE_COLUMNS}`,
      [adminId, ...values],
    );
    if (!row) throw new Error('store: saving a house returned no row');
    return row;
  }

  async pickupLocationsOf(adminId: number): Promise<PickupLocationRow[]> {
    return this.sql.all<PickupLocationRow>(`select ${PICKUP_COLUMNS} from pickup_locations where admin_id = ? and deleted_at is null order by position, id`, [adminId]);
  }

  async replacePickupLocations(adminId: number, drafts: readonly PickupLocationDraft[], now: number): Promise<PickupLocationRow[]> {
    const kept = drafts.flatMap((d) => (d.id === null ? [] : [d.id]));
    await this.sql.run(
      `update pickup_locations set deleted_at = ? where admin_id = ? and deleted_at is null${kept.length > 0 ? ` and id not in (${kept.map(() => '?').join(', ')})` : ''}`,
      [now, adminId, ...kept],
    );
    for (const [position, d] of drafts.entries()) {
      const fields = [d.name, d.addressLine1, d.addressLine2, d.city, d.stateCode, d.pin, d.instructions, d.hours, position];
      if (d.id === null) {
        await this.sql.run(
          `insert into pickup_locations (admin_id, name, address_line1, address_line2, city, state_code, pin, instructions, hours, position, created_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [adminId, ...fields, now],
        );
      } else {
        await this.sql.run(
          `update pickup_locations set name = ?, address_line1 = ?, address_line2 = ?, city = ?, state_code = ?, pin = ?, instructions = ?, hours = ?, position = ?
           where id = ? and admin_id = ?`,
          [...fields, d.id, adminId],
        );
      }
    }
    return this.pickupLocationsOf(adminId);
  }
}
