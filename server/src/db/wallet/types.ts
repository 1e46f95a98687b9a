/** Wallets and the ledger (docs/money.md): the types. */
import type { AccountStatus, LedgerType, TransactionRow } from '../rows.js';

/** A bidder's wallet as a command sees it, locked until commit. */
export interface Wallet {
  id: number;
  username: string;
  status: AccountStatus;
  balance: number;
}

export interface LedgerMove {
  userId: number;
  type: LedgerType;
  /** Positive paise; `type` gives the sign. */
  amount: number;
  /** The bid this move belongs to; `'new'` is the change set's new bid. */
  bidId?: number | 'new' | null;
  productId?: string | null;
  notes?: string | null;
}

/** A ledger row with the name of its product (null without one, or when the product row is gone) and what it means to the bidder. */
export interface TransactionView extends TransactionRow {
  productName: string | null;
  kind: LedgerKind;
  buyNow: boolean | number | null;
}

export type LedgerKind = 'topup' | 'hold' | 'release' | 'payment' | 'unused_refund';

export interface MoneyAudit {
  topups: number;
  balances: number;
  held: number;
  paid: number;
  /** Users whose cached balance differs from the sum of their ledger. */
  ledgerMismatches: number;
  negativeBalances: number;
  /** Products with more than one leading bid. */
  multipleLeaders: number;
  ok: boolean;
}

/** What a unit of work reads and writes of wallets and the ledger (docs/money.md); part of UnitOfWork (store.ts). */
export interface WalletWork {
  /** These wallets (bidders), locked in ascending id order; unknown ids are left out. */
  lockWallets(userIds: readonly number[]): Promise<Map<number, Wallet>>;
}
