/**
 * The read side of both stores: one statement per answer, never one per row, in SQL that SQLite and
 * PostgreSQL both accept. Reads see committed data only. The statements live with their aggregate
 * (`<aggregate>/reads.ts`); `Reads` is their composition, and counts the store's writes for the caches
 * of reads (`writeState`).
 */
import { AccountsReads } from './accounts/reads.js';
import { BillingReads } from './billing/reads.js';
import { CatalogueReads } from './catalogue/reads.js';
import { HousesReads } from './houses/reads.js';
import { LotsReads } from './lots/reads.js';
import { MailReads } from './mail/reads.js';
import { NoticesReads } from './notices/reads.js';
import { PhotosReads } from './photos/reads.js';
import { ReportsReads } from './reports/reads.js';
import { SavedReads } from './saved/reads.js';
import { SearchReads } from './search/reads.js';
import { compose, SqlSlice } from './slice.js';
import { WalletReads } from './wallet/reads.js';

export type { LotSearch, LotSearchKey } from './search/lot-search.js';
export type * from './accounts/types.js';
export type * from './billing/types.js';
export type * from './catalogue/types.js';
export type * from './houses/types.js';
export type * from './lots/types.js';
export type * from './mail/types.js';
export type * from './notices/types.js';
export type * from './photos/types.js';
export type * from './reports/types.js';
export type * from './search/types.js';
export type * from './wallet/types.js';

/**
 * How far the store's writes have got: `generation` moves as each transaction begins and once it has
 * ended, `open` counts those under way. What is read while it stays the same, with none open, is
 * what the store holds (a cache of reads keeps it until the generation moves: cache/auction-counts.ts).
 */
export interface WriteState {
  generation: number;
  open: number;
}

// Safe: compose() below puts every method the interface names on the prototype, and throws at load if two collide.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Reads extends SqlSlice {
  private generation = 0;
  private writes = 0;

  /**
   * The store calls this as a transaction begins (`true`) and once it has ended (`false`): see
   * `writeState`.
   */
  writing(begins: boolean): void {
    this.writes += begins ? 1 : -1;
    this.generation++;
  }

  /** How far the store's writes have got (for caches of reads, which keep nothing read across a write). */
  writeState(): WriteState {
    return { generation: this.generation, open: this.writes };
  }
}
// The slices' methods, on Reads's prototype (slice.ts).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Reads extends AccountsReads, CatalogueReads, LotsReads, SavedReads, SearchReads, WalletReads, ReportsReads, NoticesReads, MailReads, PhotosReads, HousesReads, BillingReads {}
compose(Reads, [AccountsReads, CatalogueReads, LotsReads, SavedReads, SearchReads, WalletReads, ReportsReads, NoticesReads, MailReads, PhotosReads, HousesReads, BillingReads]);
