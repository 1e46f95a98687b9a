/**
 * Houses (docs/invoices.md): an admin's profile as seller of record, and its pickup locations.
 * Its reads, one slice of Reads (reads.ts).
 */
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { HOUSE_COLUMNS, PICKUP_COLUMNS } from './columns.js';
import type { HouseRow, PickupLocationRow } from './types.js';

export class HousesReads extends SqlSlice {
  /** A house's profile (null: never filled in) and its pickup locations in their order. */
  async house(adminId: number): Promise<{ house: HouseRow | null; locations: PickupLocationRow[] }> {
    if (!isStorableId(adminId)) return { house: null, locations: [] };
    const house = (await this.sql.get<HouseRow>(`select ${HOUSE_COLUMNS} from houses where admin_id = ?`, [adminId])) ?? null;
    const locations = await this.sql.all<PickupLocationRow>(
      `select ${PICKUP_COLUMNS} from pickup_locations where admin_id = ? and deleted_at is null order by position, id`, [adminId],
    );
    return { house, locations };
  }
}
