/** The houses' columns as the rows name them (work.ts and reads.ts read the same). */
export const HOUSE_COLUMNS = `admin_id as "adminId", legal_name as "legalName", display_name as "displayName", address_line1 as "addressLine1",
  address_line2 as "addressLine2", city, state_code as "stateCode", pin, gstin, invoice_prefix as "invoicePrefix", phone, email,
  payout_holder as "payoutHolder", payout_ifsc as "payoutIfsc", payout_account as "payoutAccount", updated_at as "updatedAt"`;

export const PICKUP_COLUMNS = `id, admin_id as "adminId", name, address_line1 as "addressLine1", address_line2 as "addressLine2", city,
  state_code as "stateCode", pin, instructions, hours, position`;
