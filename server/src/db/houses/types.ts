/** Houses (docs/invoices.md): an admin's profile as seller of record, and its pickup locations: the types. */

/** A house's profile as stored; every field but the admin is null until filled in. */
export interface HouseRow {
  adminId: number;
  legalName: string | null;
  displayName: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  stateCode: string | null;
  pin: string | null;
  gstin: string | null;
  invoicePrefix: string | null;
  phone: string | null;
  email: string | null;
  payoutHolder: string | null;
  payoutIfsc: string | null;
  /** The whole account number; it leaves the server masked. */
  payoutAccount: string | null;
  updatedAt: number;
}

/** What a house writes of its profile. */
export type HouseFields = Omit<HouseRow, 'adminId' | 'updatedAt'>;

export interface PickupLocationRow {
  id: number;
  adminId: number;
  name: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  stateCode: string;
  pin: string;
  instructions: string | null;
  hours: string | null;
  position: number;
}

/** A pickup location to keep (its id) or to add (id null), as the house lists them. */
export type PickupLocationDraft = Omit<PickupLocationRow, 'id' | 'adminId' | 'position'> & { id: number | null };

/** What a unit of work reads and writes of houses; part of UnitOfWork (store.ts). */
export interface HousesWork {
  /** The house's profile, its saves serialised until commit on PostgreSQL (the admin's row is locked); null when it was never filled in. */
  lockHouse(adminId: number): Promise<HouseRow | null>;
  /** Whether another house than `adminId` has this invoice prefix; houses choosing one wait for each other until commit. */
  invoicePrefixTaken(prefix: string, adminId: number): Promise<boolean>;
  /** Writes the whole profile (the first time, its row). */
  saveHouse(adminId: number, fields: HouseFields, now: number): Promise<HouseRow>;
  /** The house's pickup locations in their order, those taken out left out. */
  pickupLocationsOf(adminId: number): Promise<PickupLocationRow[]>;
  /**
   * Makes the house's pickup locations `drafts`, in that order: one with an id (of this house) is
   * updated, one without is added, and those not listed are taken out (kept, with deleted_at).
   */
  replacePickupLocations(adminId: number, drafts: readonly PickupLocationDraft[], now: number): Promise<PickupLocationRow[]>;
}
