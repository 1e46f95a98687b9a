/** A buyer's billing details (docs/invoices.md), frozen onto each invoice at issue: the types. */

export interface BillingRow {
  userId: number;
  name: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  stateCode: string;
  pin: string;
  gstin: string | null;
  updatedAt: number;
}

/** What a unit of work writes of billing details; part of UnitOfWork (store.ts). */
export interface BillingWork {
  /** Writes a bidder's billing details (the first time, their row). */
  saveBilling(row: Omit<BillingRow, 'updatedAt'>, now: number): Promise<BillingRow>;
}
