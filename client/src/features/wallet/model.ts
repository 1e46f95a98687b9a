/** The pure rules of the wallet: its numbers (docs/money.md, "The numbers the screens show"), how a row reads, and the top-up bounds. */
import { LIMITS, TOPUP_MESSAGE, toPaise, toRupees, type Transaction } from '@auction/shared';
import { statusBadge, type BadgeLook } from '../../components/ui/StatusBadge';

export { TOPUP_MESSAGE };

export interface WalletStats {
  /** Σ topup. */
  totalAdded: number;
  /** Σ bid − Σ refund: the money now held by leading bids or paid for won ones. */
  totalSpent: number;
  count: number;
}

type Movement = Pick<Transaction, 'type' | 'amount'>;

// The ledger's types are topup, bid and refund; a type this client does not know reads as a bid
// everywhere (label, sign, sums), so a row never says one thing and counts as another.
function kindOf(type: string): Transaction['type'] {
  return type === 'topup' || type === 'refund' ? type : 'bid';
}

function sums(transactions: readonly Movement[]) {
  const paise = { topup: 0, bid: 0, refund: 0 };
  for (const t of transactions) paise[kindOf(t.type)] += toPaise(t.amount);
  return paise;
}

export function walletStats(transactions: readonly Movement[]): WalletStats {
  const p = sums(transactions);
  return { totalAdded: toRupees(p.topup), totalSpent: toRupees(p.bid - p.refund), count: transactions.length };
}

/** The balance when the balance call fails: Σ topup + Σ refund − Σ bid (docs/money.md). */
export function balanceFromLedger(transactions: readonly Movement[]): number {
  const p = sums(transactions);
  return toRupees(p.topup + p.refund - p.bid);
}

/** Money in (+, green) for top-ups and refunds, out (−, red) for bids. */
export function isCredit(type: Transaction['type']): boolean {
  return kindOf(type) !== 'bid';
}

/** The amount with its sign in rupees: + for top-ups and refunds, − for bids; over the whole ledger they sum to the balance. */
export function signedAmount(t: Movement): number {
  return toRupees((isCredit(t.type) ? 1 : -1) * toPaise(t.amount));
}

export function signedAmountText(t: Pick<Transaction, 'type' | 'amount'>, format: (n: number) => string): string {
  return `${isCredit(t.type) ? '+' : '−'}${format(t.amount)}`;
}

/** The type's badge (components/ui/StatusBadge.tsx): Top-up, Bid or Refund; an unknown type reads as a bid. */
export function transactionTypeLabel(type: Transaction['type']): BadgeLook {
  return statusBadge('transaction', kindOf(type));
}

const FALLBACK_TEXT: Record<Transaction['type'], string> = { bid: 'Bid placed', topup: 'Wallet top-up', refund: 'Bid refund' };

/** What a row says, with the product it is about (its name when the server sent it). */
export interface TransactionText {
  text: string;
  productId: string | null;
  productName: string | null;
  /** `Brass Lamp (P-1)`, or the id alone when the name is unknown; null without a product. */
  product: string | null;
}

type Described = Pick<Transaction, 'type'> & { meta?: Partial<Transaction['meta']> | null };

/** The notes, otherwise Bid placed / Wallet top-up (Bid refund for refunds); plus the product when present. */
export function transactionDescription(t: Described): TransactionText {
  // `meta` is read defensively: a row without it (or from a server without product names) still reads as its type.
  const notes = t.meta?.notes?.trim();
  const productId = t.meta?.product_id?.trim() || null;
  const productName = (productId && t.meta?.product_name?.trim()) || null;
  return {
    text: notes || FALLBACK_TEXT[kindOf(t.type)],
    productId,
    productName,
    product: productId && productName ? `${productName} (${productId})` : productId,
  };
}

/** The description as one line (screen readers, exports, tests). */
export function describeTransaction(t: Described): string {
  const { text, product } = transactionDescription(t);
  return product ? `${text} · Product: ${product}` : text;
}

const AMOUNT_PATTERN = /^\d{1,9}(\.\d{1,2})?$/;

export type TopUpCheck = { ok: true; amount: number } | { ok: false; error: string };

/** A plain number of rupees with at most 2 decimals, from ₹10 to ₹1,00,000; otherwise TOPUP_MESSAGE. */
export function validateTopUp(input: string | number): TopUpCheck {
  const raw = typeof input === 'number' ? String(input) : input.trim();
  if (!AMOUNT_PATTERN.test(raw)) return { ok: false, error: TOPUP_MESSAGE };
  const amount = Number(raw);
  if (!(amount >= LIMITS.topupMinRupees && amount <= LIMITS.topupMaxRupees)) return { ok: false, error: TOPUP_MESSAGE };
  return { ok: true, amount };
}

/** The success toast of a top-up, amount written en-IN. */
export function addedMessage(amount: number, format: (n: number) => string): string {
  return `Added ${format(amount)} to your wallet`;
}

/**
 * The question a quick-add card asks before it adds money. A confirmation rather than an undo: taking a
 * top-up back would need a debit type the ledger does not have, and the money may already hold a bid.
 */
export function quickAddQuestion(amount: number, format: (n: number) => string): string {
  return `Add ${format(amount)} to your wallet? The money is available for bidding at once; a top-up cannot be undone.`;
}
