import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { formatRupees } from '../money.js';
import { BeforeId, CallerRef, PAGE_DEFAULT, PageLimit, Rupees } from './common.js';
import { LEDGER_TYPES, literalUnion } from './enums.js';

export const TOPUP_MESSAGE = `Enter an amount between ${formatRupees(LIMITS.topupMinRupees)} and ${formatRupees(LIMITS.topupMaxRupees)}`;

export const TopUpBody = Type.Object({
  amount: Rupees({ minimum: LIMITS.topupMinRupees, maximum: LIMITS.topupMaxRupees, message: TOPUP_MESSAGE, missing: TOPUP_MESSAGE }),
});
export type TopUpBody = Static<typeof TopUpBody>;

export const WalletBody = Type.Object({
  username: Type.Optional(CallerRef),
  user_id: Type.Optional(CallerRef),
});

export const WalletBalance = Type.Object({
  wallet_balance: Type.Number({ description: 'Available: what can be bid or spent now' }),
  on_hold: Type.Number({ description: 'Held by the caller’s leading bids (a maximum bid holds all of itself); back in the wallet when outbid' }),
});
export type WalletBalance = Static<typeof WalletBalance>;

export const TransactionType = literalUnion(LEDGER_TYPES);

/**
 * What a ledger row means to the bidder, derived by the server (docs/money.md#ledger-kinds): `topup`
 * (money added), `hold` (a leading bid's amount set aside), `release` (a hold given back), `payment`
 * (a win or a buy-now: money spent), `unused_refund` (rows written before payments had rows of their
 * own: the unused part of a winning maximum).
 */
export const TransactionKind = Type.Union([
  Type.Literal('topup'), Type.Literal('hold'), Type.Literal('release'), Type.Literal('payment'), Type.Literal('unused_refund'),
]);
export type TransactionKind = Static<typeof TransactionKind>;

export const Transaction = Type.Object({
  _id: Type.String(),
  type: TransactionType,
  kind: TransactionKind,
  amount: Type.Number({ description: 'Positive rupees; `type` gives the sign' }),
  timestamp: Type.String(),
  meta: Type.Object({
    notes: Type.Union([Type.String(), Type.Null()]),
    product_id: Type.Union([Type.String(), Type.Null()]),
    product_name: Type.Union([Type.String(), Type.Null()], { description: 'The name of `product_id` as the product is named now; null without a product' }),
    buy_now: Type.Boolean({ description: 'The row belongs to a purchase at the buy-now price' }),
  }),
});
export type Transaction = Static<typeof Transaction>;

export const ToppedUp = Type.Object({ message: Type.String(), wallet_balance: Type.Number(), transaction: Transaction });
export type ToppedUp = Static<typeof ToppedUp>;
/** Rows per page of `GET /wallet/transactions` unless `limit` says otherwise. */
export const TRANSACTIONS_PAGE_DEFAULT = PAGE_DEFAULT;

export const TransactionsQuery = Type.Object({
  before: Type.Optional(BeforeId('a transaction id')),
  limit: Type.Optional(PageLimit(TRANSACTIONS_PAGE_DEFAULT)),
});
export type TransactionsQuery = Static<typeof TransactionsQuery>;

/** The whole ledger's sums, in rupees, whatever page is read: the wallet's figures stay exact (docs/money.md). */
export const LedgerTotals = Type.Object({
  topup: Type.Number({ description: 'Σ topup: Total Added' }),
  bid: Type.Number({ description: 'Σ bid (holds taken, payments)' }),
  refund: Type.Number({ description: 'Σ refund (holds released)' }),
  count: Type.Integer({ description: 'How many rows the ledger has' }),
  spent: Type.Number({ description: 'Σ payment − Σ unused_refund: money paid for wins and buy-nows, holds not counted (Total Spent)' }),
}, { description: 'Total Spent = spent; the balance = topup + refund − bid; bid − refund = what is held now plus what was paid' });
export type LedgerTotals = Static<typeof LedgerTotals>;

export const Transactions = Type.Object({
  transactions: Type.Array(Transaction, { description: 'Newest first: one page' }),
  next_before: Type.Union([Type.String(), Type.Null()], { description: 'The `before` of the next (older) page; null on the last page' }),
  totals: LedgerTotals,
});
export type Transactions = Static<typeof Transactions>;
