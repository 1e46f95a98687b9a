/**
 * Every enumeration the store keeps in a column, written once: the drizzle schemas of both stores
 * (the column's `enum` and its CHECK constraint), the server's row types and the TypeBox schemas of
 * the API are all built from these arrays, so a value added here is added everywhere (a new value
 * still needs a migration: `npm run db:generate`).
 */
import { Type, type TLiteral, type TSchemaOptions, type TUnion } from 'typebox';

/** `users.status`, `admins.status`. */
export const ACCOUNT_STATUSES = ['active', 'inactive'] as const;
/** Who a token names. */
export const ROLES = ['user', 'admin'] as const;
/** `bids.status` (docs/money.md). */
export const BID_STATUSES = ['success', 'outbid', 'failed', 'rolledback', 'won', 'unsold'] as const;
/**
 * A bid's `status` on the wire: the spec's three, which its clients know (they read anything else as
 * failed). The full status above travels beside it as `state` (docs/money.md#bid-statuses-on-the-wire).
 */
export const WIRE_BID_STATUSES = ['success', 'failed', 'rolledback'] as const;
/** `auto_bids.status`: an automatic raise of a maximum bid, `rolledback` once cancelled with the bid it answered. */
export const AUTO_BID_STATUSES = ['accepted', 'rolledback'] as const;
/** `products.status`. */
export const PRODUCT_STATUSES = ['available', 'sold'] as const;
/** `wallet_transactions.type`: topup (+), bid (− funds held or paid), refund (+ a hold released). */
export const LEDGER_TYPES = ['topup', 'bid', 'refund'] as const;
/** `auctions.increment_rule` (docs/bidding.md#increments). */
export const INCREMENT_RULES = ['flat', 'ladder', 'custom'] as const;
/** `auctions.cancel_policy` (docs/bidding.md#cancelling-a-bid). */
export const CANCEL_POLICIES = ['until_end', 'strict'] as const;
/** `notifications.kind` (docs/notifications.md). */
export const NOTIFICATION_KINDS = ['outbid', 'won', 'lost', 'reinstated', 'ending_soon', 'extended', 'unsold', 'bought_now'] as const;

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/** A TypeBox union of the literals of `values`, in order (what `Type.Union([Type.Literal(…), …])` spells out). */
export function literalUnion<const T extends readonly string[]>(values: T, options?: TSchemaOptions): TUnion<Literals<T>> {
  return Type.Union(values.map((v) => Type.Literal(v)), options) as unknown as TUnion<Literals<T>>;
}
