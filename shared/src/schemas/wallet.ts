import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import { formatRupees } from '../money.js';
import { CallerRef, Rupees } from './common.js';

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

export const TransactionType = Type.Union([Type.Literal('topup'), Type.Literal('bid'), Type.Literal('refund')]);

export const Transaction = Type.Object({
  _id: Type.String(),
  type: TransactionType,
  amount: Type.Number({ description: 'Positive rupees; `type` gives the sign' }),
  timestamp: Type.String(),
  meta: Type.Object({
    notes: Type.Union([Type.String(), Type.Null()]),
    product_id: Type.Union([Type.String(), Type.Null()]),
    product_name: Type.Union([Type.String(), Type.Null()], { description: 'The name of `product_id` as the product is named now; null without a product' }),
  }),
});
export type Transaction = Static<typeof Transaction>;

export const ToppedUp = Type.Object({ message: Type.String(), wallet_balance: Type.Number(), transaction: Transaction });
export type ToppedUp = Static<typeof ToppedUp>;
export const Transactions = Type.Object({ transactions: Type.Array(Transaction) });
export type Transactions = Static<typeof Transactions>;
