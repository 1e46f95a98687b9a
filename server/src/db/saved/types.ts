/** Saved lots (docs/notifications.md#saved-lots): the types. */

/** What a unit of work reads and writes of saved lots (docs/notifications.md#saved-lots); part of UnitOfWork (store.ts). */
export interface SavedWork {
  /** Whether a live (not deleted) product has this id. */
  /** Whether the product exists (not deleted) and is in an auction: a draft is its admin's alone. */
  productListed(id: string): Promise<boolean>;
  /** Resolves false when it was saved already. */
  saveLot(userId: number, productId: string, now: number): Promise<boolean>;
  /** Whether a saved lot was forgotten. */
  unsaveLot(userId: number, productId: string): Promise<boolean>;
}
