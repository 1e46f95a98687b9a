/** The billing details' columns as BillingRow names them (work.ts and reads.ts read the same). */
export const BILLING_COLUMNS = `user_id as "userId", name, address_line1 as "addressLine1", address_line2 as "addressLine2", city,
  state_code as "stateCode", pin, gstin, updated_at as "updatedAt"`;
