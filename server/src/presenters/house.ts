/** A house's profile as its admin reads it (docs/invoices.md): the account number masked, what invoices need named; a buyer's billing details. */
import { maskAccountNumber, type Address, type Billing, type House, type PickupLocation, type PutBillingBody, type PutHouseBody } from '@auction/shared';
import type { BillingRow, HouseFields, HouseRow, PickupLocationDraft, PickupLocationRow } from '../db/index.js';
import { missingOf } from '../domain/house.js';
import { iso } from './format.js';

type StoredAddress = Pick<PickupLocationRow, 'addressLine1' | 'addressLine2' | 'city' | 'stateCode' | 'pin'>;

const addressOf = (a: StoredAddress): Address => ({ line1: a.addressLine1, line2: a.addressLine2, city: a.city, state_code: a.stateCode, pin: a.pin });

export function presentHouse(house: HouseRow | null, locations: readonly PickupLocationRow[]): House {
  const h = house;
  const address = h?.addressLine1 && h.city && h.stateCode && h.pin
    ? addressOf({ addressLine1: h.addressLine1, addressLine2: h.addressLine2, city: h.city, stateCode: h.stateCode, pin: h.pin })
    : null;
  return {
    legal_name: h?.legalName ?? null,
    display_name: h?.displayName ?? null,
    address,
    gstin: h?.gstin ?? null,
    invoice_prefix: h?.invoicePrefix ?? null,
    phone: h?.phone ?? null,
    email: h?.email ?? null,
    payout: h?.payoutHolder && h.payoutIfsc && h.payoutAccount ? { holder: h.payoutHolder, ifsc: h.payoutIfsc, account_number: maskAccountNumber(h.payoutAccount) } : null,
    pickup_locations: locations.map((l): PickupLocation => ({ id: l.id, name: l.name, address: addressOf(l), instructions: l.instructions, hours: l.hours })),
    missing: missingOf(house),
    updated_at: h ? iso(h.updatedAt) : null,
  };
}

const storedAddress = (a: Address | null): StoredAddress | Record<keyof StoredAddress, null> => (a === null
  ? { addressLine1: null, addressLine2: null, city: null, stateCode: null, pin: null }
  : { addressLine1: a.line1, addressLine2: a.line2 ?? null, city: a.city, stateCode: a.state_code, pin: a.pin });

/** The body of PUT /admin/house as the store keeps it; a masked account number is handed back as such. */
export function houseInput(body: PutHouseBody): { fields: HouseFields; maskedAccount: string | null; locations: PickupLocationDraft[] } {
  const account = body.payout?.account_number ?? null;
  const masked = account !== null && account.startsWith('••') ? account : null;
  return {
    fields: {
      legalName: body.legal_name, displayName: body.display_name, ...storedAddress(body.address), gstin: body.gstin, invoicePrefix: body.invoice_prefix,
      phone: body.phone, email: body.email?.toLowerCase() ?? null,
      payoutHolder: body.payout?.holder ?? null, payoutIfsc: body.payout?.ifsc ?? null, payoutAccount: masked === null ? account : null,
    },
    maskedAccount: masked,
    locations: body.pickup_locations.map((l) => ({
      id: l.id ?? null, name: l.name, ...(storedAddress(l.address) as StoredAddress), instructions: l.instructions ?? null, hours: l.hours ?? null,
    })),
  };
}

export function presentBilling(b: BillingRow | null): Billing {
  return {
    name: b?.name ?? null,
    address: b === null ? null : addressOf(b),
    gstin: b?.gstin ?? null,
    updated_at: b === null ? null : iso(b.updatedAt),
  };
}

/** The body of PUT /me/billing as the store keeps it. */
export const billingInput = (userId: number, body: PutBillingBody): Omit<BillingRow, 'updatedAt'> => ({
  userId, name: body.name, ...(storedAddress(body.address) as StoredAddress), gstin: body.gstin,
});
