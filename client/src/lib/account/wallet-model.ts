/** The pure rules of the wallet: its numbers (docs/money.md, "The numbers the screens show"), how a row reads, and the top-up bounds. */
import { LIMITS, TOPUP_MESSAGE, toPaise, toRupees, type LedgerTotals, type Transaction, type TransactionKind } from '@auction/shared';
import { statusBadge, type BadgeLook } from '../../components/ui/StatusBadge';

export { TOPUP_MESSAGE };

export interface WalletStats {
  /** Σ topup. */
  totalAdded: number;
  /** What wins and buy-nows cost: payments only, never holds (docs/money.md#ledger-kinds). */
  totalSpent: number;
  count: number;
}

type Movement = Pick<Transaction, 'type' | 'amount'>;

// The ledger's types are topup, bid and refund; a type this client does not know reads as a bid
// everywhere (label, sign, sums), so a row never says one thing and counts as another.
function kindOf(type: string): Transaction['type'] {
  return type === 'topup' || type === 'refund' ? type : 'bid';
}

const KINDS: readonly string[] = ['topup', 'hold', 'release', 'payment', 'unused_refund'] satisfies TransactionKind[];

/**
 * What a row means to the bidder: the server's `kind` (docs/money.md#ledger-kinds); a row without one
 * (or with one this client does not know) reads by its type: a top-up, a hold, or a release.
 */
export function ledgerKind(t: { type: string; kind?: string | null }): TransactionKind {
  if (typeof t.kind === 'string' && KINDS.includes(t.kind)) return t.kind as TransactionKind;
  const type = kindOf(t.type);
  return type === 'topup' ? 'topup' : type === 'refund' ? 'release' : 'hold';
}

type Counted = Movement & { kind?: string | null };

function sums(transactions: readonly Counted[]) {
  const paise = { topup: 0, bid: 0, refund: 0, spent: 0 };
  for (const t of transactions) {
    paise[kindOf(t.type)] += toPaise(t.amount);
    const kind = ledgerKind(t);
    if (kind === 'payment') paise.spent += toPaise(t.amount);
    if (kind === 'unused_refund') paise.spent -= toPaise(t.amount);
  }
  return paise;
}

/** The totals of these rows (when they are the whole ledger: a server that does not page sent them all). */
export function totalsOf(transactions: readonly Counted[]): LedgerTotals {
  const p = sums(transactions);
  return { topup: toRupees(p.topup), bid: toRupees(p.bid), refund: toRupees(p.refund), count: transactions.length, spent: toRupees(p.spent) };
}

/** Whether an answer's `totals` has the shape of the ledger's totals (`spent` may be missing: see walletStats). */
export function isTotals(value: unknown): value is LedgerTotals {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return ['topup', 'bid', 'refund', 'count'].every((k) => typeof t[k] === 'number');
}

/** The wallet's numbers from the whole ledger's totals (the server's: exact whatever page is loaded); Total Spent is payments only. */
export function walletStats(totals: LedgerTotals): WalletStats {
  // Totals without `spent` (a server before ledger kinds) count nothing as spent rather than counting holds.
  const spent = typeof totals.spent === 'number' && Number.isFinite(totals.spent) ? totals.spent : 0;
  return { totalAdded: totals.topup, totalSpent: spent, count: totals.count };
}

/** The balance when the balance call fails: Σ topup + Σ refund − Σ bid (docs/money.md), from the ledger's totals. */
export function balanceFromLedger(totals: LedgerTotals): number {
  return toRupees(toPaise(totals.topup) + toPaise(totals.refund) - toPaise(totals.bid));
}

/** A page of the ledger as shown: the newest rows loaded so far, where the next page starts, the totals. */
export interface Ledger {
  transactions: Transaction[];
  nextBefore: string | null;
  totals: LedgerTotals;
}

const idOf = (t: Pick<Transaction, '_id'>) => (/^\d+$/.test(t._id) ? Number(t._id) : NaN);

/**
 * The newest page read again, over what is shown: ledger rows never change, so older rows already
 * loaded stay, after the new page, when the page reaches them (the rows newer than the oldest shown
 * are all in it); after a gap (more new rows than a page) the new page alone.
 */
export function withFirstPage(shown: Ledger | undefined, page: Ledger): Ledger {
  if (!shown || page.nextBefore === null || page.transactions.length === 0) return page;
  const oldest = idOf(page.transactions.at(-1)!);
  const newestShown = shown.transactions.length === 0 ? NaN : idOf(shown.transactions[0]!);
  if (!(newestShown >= oldest)) return page;
  const tail = shown.transactions.filter((t) => idOf(t) < oldest);
  return tail.length === 0 ? page : { ...page, transactions: [...page.transactions, ...tail], nextBefore: shown.nextBefore };
}

/** An older page, read with `before`: appended when the ledger shown still ends there (else dropped), duplicates skipped. */
export function withOlderPage(shown: Ledger, page: Ledger, before: string): Ledger {
  if (shown.nextBefore !== before) return shown;
  const known = new Set(shown.transactions.map((t) => t._id));
  return { ...shown, transactions: [...shown.transactions, ...page.transactions.filter((t) => !known.has(t._id))], nextBefore: page.nextBefore, totals: page.totals };
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

/** A row's badge: its kind's (Top-up, On hold, Released, Payment, Refund) when the server sent one, else its type's. */
export function transactionBadge(t: { type: Transaction['type']; kind?: string | null }): BadgeLook {
  return t.kind ? statusBadge('ledger', ledgerKind(t)) : transactionTypeLabel(t.type);
}

const FALLBACK_TEXT: Record<Transaction['type'], string> = { bid: 'Bid placed', topup: 'Wallet top-up', refund: 'Bid refund' };

/** What a row says, with the product it is about (its name when the server sent it). */
export interface TransactionText {
  text: string;
  /** Why the row was written (its notes), shown under the words; null for rows read as their notes. */
  detail: string | null;
  productId: string | null;
  productName: string | null;
  /** `Brass Lamp (P-1)`, or the id alone when the name is unknown; null without a product. */
  product: string | null;
}

type Described = Pick<Transaction, 'type'> & { kind?: string | null; meta?: Partial<Transaction['meta']> | null };

/** What a row of this kind says about the lot `what`: "On hold: bid on Teak armchair", "Won: Teak armchair". */
export function ledgerWords(kind: TransactionKind, what: string, buyNow = false): string {
  switch (kind) {
    case 'topup': return 'Added to wallet';
    case 'hold': return `On hold: bid on ${what}`;
    case 'release': return `Released: bid on ${what}`;
    case 'payment': return buyNow ? `Bought now: ${what}` : `Won: ${what}`;
    case 'unused_refund': return `Unused maximum returned: ${what}`;
  }
}

/**
 * A row with a `kind` (docs/money.md#ledger-kinds) reads in words of its kind and lot, its notes
 * beside them as `detail` (why it was written); a row without one reads as its notes, otherwise Bid
 * placed / Wallet top-up (Bid refund for refunds). Either way with the product when present.
 */
export function transactionDescription(t: Described): TransactionText {
  // `meta` is read defensively: a row without it (or from a server without product names) still reads as its type.
  const notes = t.meta?.notes?.trim() || null;
  const productId = t.meta?.product_id?.trim() || null;
  const productName = (productId && t.meta?.product_name?.trim()) || null;
  const product = productId && productName ? `${productName} (${productId})` : productId;
  if (t.kind) {
    const kind = ledgerKind(t);
    const text = ledgerWords(kind, productName ?? productId ?? 'a lot', t.meta?.buy_now === true);
    return { text, detail: kind === 'topup' && notes === null ? null : notes, productId, productName, product };
  }
  return { text: notes || FALLBACK_TEXT[kindOf(t.type)], detail: null, productId, productName, product };
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
