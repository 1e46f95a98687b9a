/**
 * A house's profile (docs/invoices.md): the seller of record on its invoices, its payout
 * account and where its buyers collect. Saved whole; what invoices need (a name, an address and its
 * state) may be left for later and is named by `missingOf`.
 */
import { gstinProblem, type HOUSE_REQUIRED, maskAccountNumber } from '@auction/shared';
import type { HouseFields, HouseRow, PickupLocationDraft, PickupLocationRow, UnitOfWork } from '../db/index.js';
import { refuse, type Result } from '../errors.js';

export interface SaveHouse {
  adminId: number;
  fields: HouseFields;
  /** The account number came back masked (`••1234`): keep the stored one, which must end so. */
  maskedAccount: string | null;
  locations: PickupLocationDraft[];
}

/** What invoices need and the profile lacks (settling a sale with a winner will require them). */
export function missingOf(house: HouseRow | null): (typeof HOUSE_REQUIRED)[number][] {
  const missing: (typeof HOUSE_REQUIRED)[number][] = [];
  if (!house?.legalName) missing.push('legal_name');
  if (!house?.addressLine1 || !house.city || !house.stateCode || !house.pin) missing.push('address');
  return missing;
}

export async function saveHouse(tx: UnitOfWork, cmd: SaveHouse, now: number): Promise<Result<{ house: HouseRow; locations: PickupLocationRow[] }>> {
  const { fields } = cmd;
  if (fields.gstin !== null) {
    if (fields.stateCode === null) return refuse('VALIDATION', 'gstin needs the address it is registered at: please fill in the address too', 'gstin');
    const problem = gstinProblem(fields.gstin, fields.stateCode);
    if (problem) return refuse('VALIDATION', problem, 'gstin');
  }
  if (fields.invoicePrefix !== null && await tx.invoicePrefixTaken(fields.invoicePrefix, cmd.adminId)) {
    return refuse('INVOICE_PREFIX_TAKEN', `Another house's invoices already carry the prefix ${fields.invoicePrefix}: please choose another`, 'invoice_prefix');
  }
  const current = await tx.lockHouse(cmd.adminId);
  let payoutAccount = fields.payoutAccount;
  if (cmd.maskedAccount !== null) {
    if (!current?.payoutAccount || maskAccountNumber(current.payoutAccount) !== cmd.maskedAccount) {
      return refuse('VALIDATION', 'payout.account_number must be 9–18 digits', 'payout.account_number');
    }
    payoutAccount = current.payoutAccount;
  }
  const own = new Set((await tx.pickupLocationsOf(cmd.adminId)).map((l) => l.id));
  const seen = new Set<number>();
  for (const [i, l] of cmd.locations.entries()) {
    if (l.id === null) continue;
    if (!own.has(l.id) || seen.has(l.id)) return refuse('VALIDATION', 'pickup_locations[].id must be the id of one of your pickup locations, each once', `pickup_locations[${i}].id`);
    seen.add(l.id);
  }
  const house = await tx.saveHouse(cmd.adminId, { ...fields, payoutAccount }, now);
  const locations = await tx.replacePickupLocations(cmd.adminId, cmd.locations, now);
  return { ok: true, house, locations };
}
