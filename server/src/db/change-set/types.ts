/** A decision's change set: the types. */
import type { AppliedNotice, NoticeDraft } from '../notices/types.js';
import type { AuctionRow, BidRow, BidStatus, ProductRow, TransactionRow } from '../rows.js';
import type { LedgerMove } from '../wallet/types.js';

export type ProductChanges = Partial<Pick<ProductRow, 'name' | 'description' | 'auctionId' | 'status' | 'soldPrice' | 'winnerId' | 'bidCount' | 'version' | 'deletedAt' | 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'gstPct' | 'categoryId' | 'lotNumber'>>;
export type AuctionChanges = Partial<Pick<AuctionRow, 'name' | 'validUntil' | 'originalValidUntil' | 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'softCloseS' | 'maxExtensionS' | 'buyerPremiumBp' | 'premiumGstPct' | 'settledAt' | 'deletedAt'>>;

/**
 * What a decision writes, applied in this order by `UnitOfWork.apply`: bid status changes (a leader
 * steps down before another leads), the new bid, the ledger moves in their order (a released hold
 * before a new one, so a raise never passes through a negative balance), then products and auctions.
 * Every changed product and auction gets `updated_at` = the command's time.
 */
export interface ChangeSet {
  /** Status changes; `amount` and `maxAmount` when a price moves (an automatic raise, a leader priced again after a cancel). */
  bids?: { id: number; status: BidStatus; reason?: string | null; amount?: number; maxAmount?: number | null; held?: number }[];
  /** `extendedFrom`/`extendedTo`: the end the bid moved its auction from by soft close, and the end it set. */
  newBid?: { userId: number; productId: string; auctionId: string; amount: number; maxAmount?: number | null; held?: number; buyNow?: boolean; status: BidStatus; reason: string | null; extendedFrom?: number | null; extendedTo?: number | null };
  /** Automatic raises of leading proxies (history only: no money moves), written after the bids. */
  autoBids?: { bidId: number; productId: string; amount: number }[];
  /** Ids of automatic raises cancelled with the bid they answered (status `rolledback`), written after the bids. */
  autoBidsRolledBack?: number[];
  moves?: LedgerMove[];
  products?: { id: string; set: ProductChanges }[];
  auctions?: { id: string; set: AuctionChanges }[];
  /** Notices to write last, in this transaction (docs/notifications.md); one with a `dedupe` key already written is skipped (or, with `replace`, replaces it). */
  notices?: NoticeDraft[];
}

export interface Applied {
  newBid: BidRow | null;
  /** The ledger rows written, in order. */
  transactions: TransactionRow[];
  /** The last balance of every wallet that moved. */
  balances: Map<number, number>;
  /** The notices written, in order of id; those a `dedupe` key skipped are left out, those replaced are in with their own id. */
  notices: AppliedNotice[];
}
