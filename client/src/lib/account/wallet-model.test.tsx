import type { Transaction } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import { formatRupees } from '../format';
import {
  addedMessage, balanceFromLedger, describeTransaction, isCredit, quickAddQuestion, signedAmount, signedAmountText, transactionDescription,
  transactionBadge, transactionTypeLabel, ledgerKind, totalsOf, validateTopUp, walletStats, withFirstPage, withOlderPage, type Ledger,
} from './wallet-model';
import { makeTx } from '../../features/wallet/testing';

const RULE = 'Enter an amount between ₹10 and ₹1,00,000';

describe('walletStats and the balance fallback, from the ledger\'s totals', () => {
  const ledger = [
    makeTx('topup', 5000), makeTx('topup', 1000.1),
    makeTx('bid', 2500), makeTx('bid', 800.2),
    makeTx('refund', 800.2),
  ];

  it('Total Added = Σ topup; Total Spent = payments only (holds are not spent); count = rows', () => {
    expect(walletStats(totalsOf(ledger))).toEqual({ totalAdded: 6000.1, totalSpent: 0, count: 5 });
    const won = [...ledger, makeTx('refund', 2500, { kind: 'release' }), makeTx('bid', 2000.3, { kind: 'payment' })];
    expect(walletStats(totalsOf(won))).toEqual({ totalAdded: 6000.1, totalSpent: 2000.3, count: 7 });
    // Older rows: a win's hold read as its payment, the unused part of a maximum given back after it.
    const older = [makeTx('bid', 900.1, { kind: 'payment' }), makeTx('refund', 300.05, { kind: 'unused_refund' })];
    expect(walletStats(totalsOf(older)).totalSpent).toBe(600.05);
    // The server's totals win over the rows loaded; totals without `spent` count nothing as spent.
    expect(walletStats({ topup: 10, bid: 5, refund: 0, count: 2, spent: 5 }).totalSpent).toBe(5);
    expect(walletStats({ topup: 10, bid: 5, refund: 0, count: 2 } as never).totalSpent).toBe(0);
  });

  it('balance fallback = Σ topup + Σ refund − Σ bid, exact to the paisa', () => {
    expect(balanceFromLedger(totalsOf(ledger))).toBe(3500.1);
    expect(balanceFromLedger(totalsOf([makeTx('topup', 0.1), makeTx('topup', 0.2)]))).toBe(0.3);
    expect(balanceFromLedger(totalsOf([]))).toBe(0);
  });
});

describe('describeTransaction', () => {
  it('uses the notes when present', () => {
    expect(describeTransaction(makeTx('refund', 5, { notes: 'Outbid on Vase: hold released', product_id: 'P-9' }))).toBe('Outbid on Vase: hold released · Product: P-9');
    expect(describeTransaction(makeTx('topup', 5, { notes: 'Promo credit' }))).toBe('Promo credit');
  });

  it('falls back to Bid placed / Wallet top-up and adds the product id when present', () => {
    expect(describeTransaction(makeTx('bid', 5, { product_id: 'P-1' }))).toBe('Bid placed · Product: P-1');
    expect(describeTransaction(makeTx('bid', 5))).toBe('Bid placed');
    expect(describeTransaction(makeTx('topup', 5))).toBe('Wallet top-up');
    expect(describeTransaction(makeTx('topup', 5, { notes: '   ' }))).toBe('Wallet top-up');
    expect(describeTransaction(makeTx('refund', 5, { product_id: 'P-2' }))).toBe('Bid refund · Product: P-2');
  });

  it('names the product beside its id when the server sent the name', () => {
    const hold = makeTx('bid', 5, { notes: 'Bid on Brass Lamp', product_id: 'P-1', product_name: 'Brass Lamp' });
    expect(transactionDescription(hold)).toEqual({ text: 'Bid on Brass Lamp', detail: null, productId: 'P-1', productName: 'Brass Lamp', product: 'Brass Lamp (P-1)' });
    expect(describeTransaction(hold)).toBe('Bid on Brass Lamp · Product: Brass Lamp (P-1)');
    // A name without a product id names nothing; a row from a server without names reads as before.
    expect(transactionDescription(makeTx('topup', 5, { product_name: 'Stray' })).product).toBeNull();
    expect(transactionDescription({ type: 'bid', meta: { notes: null, product_id: 'P-3' } }).product).toBe('P-3');
  });
});

describe('amount sign', () => {
  it('is + for top-ups and refunds and − for bids', () => {
    expect(signedAmountText(makeTx('topup', 1000), formatRupees)).toBe('+₹1,000');
    expect(signedAmountText(makeTx('refund', 300.5), formatRupees)).toBe('+₹300.50');
    expect(signedAmountText(makeTx('bid', 100000), formatRupees)).toBe('−₹1,00,000');
  });

  it('signedAmount is the number with that sign, and over a ledger sums to the balance fallback', () => {
    const ledger = [makeTx('refund', 800.25), makeTx('bid', 800.25), makeTx('bid', 0.1), makeTx('topup', 1000.2)];
    expect(ledger.map(signedAmount)).toEqual([800.25, -800.25, -0.1, 1000.2]);
    const paise = ledger.reduce((sum, t) => sum + Math.round(signedAmount(t) * 100), 0);
    expect(paise / 100).toBe(balanceFromLedger(totalsOf(ledger)));
  });
});

describe('ledger kinds: a row in a bidder’s words', () => {
  const lamp = { product_id: 'P-1', product_name: 'Teak armchair' };

  it('says what each kind of row did, with the lot, and keeps the notes as the reason', () => {
    const rows = [
      makeTx('topup', 5000, { kind: 'topup' }),
      makeTx('bid', 5000, { ...lamp, kind: 'hold', notes: 'Bid on Teak armchair' }),
      makeTx('refund', 5000, { ...lamp, kind: 'release', notes: 'Outbid on Teak armchair: hold released' }),
      makeTx('bid', 5000, { ...lamp, kind: 'payment', notes: 'Won Teak armchair for ₹5,000' }),
      makeTx('bid', 7000, { ...lamp, kind: 'payment', buy_now: true }),
      makeTx('refund', 100, { ...lamp, kind: 'unused_refund' }),
    ];
    expect(rows.map((t) => transactionDescription(t).text)).toEqual([
      'Added to wallet', 'On hold: bid on Teak armchair', 'Released: bid on Teak armchair', 'Won: Teak armchair', 'Bought now: Teak armchair',
      'Unused maximum returned: Teak armchair',
    ]);
    expect(rows.map((t) => transactionBadge(t).label)).toEqual(['Top-up', 'On hold', 'Released', 'Payment', 'Payment', 'Refund']);
    expect(transactionDescription(rows[2]!).detail).toBe('Outbid on Teak armchair: hold released');
    // The sign still follows the type: a payment is money out, a release money in.
    expect(rows.map((t) => signedAmountText(t, formatRupees))).toEqual(['+₹5,000', '−₹5,000', '+₹5,000', '−₹5,000', '−₹7,000', '+₹100']);
  });

  it('names a lot by its id without a name, and a kind this client does not know by the row’s type', () => {
    expect(transactionDescription(makeTx('bid', 5, { product_id: 'P-9', kind: 'hold' })).text).toBe('On hold: bid on P-9');
    expect(transactionDescription(makeTx('refund', 5, { kind: 'release' })).text).toBe('Released: bid on a lot');
    const odd = makeTx('refund', 5, { product_id: 'P-9', kind: 'fee' as never });
    expect(ledgerKind(odd)).toBe('release');
    expect(transactionDescription(odd).text).toBe('Released: bid on P-9');
  });
});

describe('a transaction type this client does not know', () => {
  const odd = { ...makeTx('bid', 250, { product_id: 'P-7' }), type: 'fee' as Transaction['type'] };

  it('reads as a bid everywhere: label, sign, description and sums', () => {
    expect(transactionTypeLabel(odd.type).label).toBe('Bid');
    expect(isCredit(odd.type)).toBe(false);
    expect(signedAmountText(odd, formatRupees)).toBe('−₹250');
    expect(describeTransaction(odd)).toBe('Bid placed · Product: P-7');
    expect(signedAmount(odd)).toBe(-250);
    expect(walletStats(totalsOf([makeTx('topup', 1000), odd]))).toEqual({ totalAdded: 1000, totalSpent: 0, count: 2 });
    expect(balanceFromLedger(totalsOf([makeTx('topup', 1000), odd]))).toBe(750);
  });
});

describe('validateTopUp', () => {
  it.each(['10', '100000', '10.5', '99999.99', ' 500 '])('accepts %j', (input) => {
    expect(validateTopUp(input)).toEqual({ ok: true, amount: Number(input.trim()) });
  });

  it.each(['', '9.99', '100000.01', '0', '-50', 'abc', '1e3', '10.001', '1,000', 'NaN', 'Infinity'])('refuses %j with the spec words', (input) => {
    expect(validateTopUp(input)).toEqual({ ok: false, error: RULE });
  });

  it('checks numbers too', () => {
    expect(validateTopUp(500)).toEqual({ ok: true, amount: 500 });
    expect(validateTopUp(5)).toEqual({ ok: false, error: RULE });
    expect(validateTopUp(Number.NaN)).toEqual({ ok: false, error: RULE });
  });

  it('words the success toast en-IN', () => {
    expect(addedMessage(100000, formatRupees)).toBe('Added ₹1,00,000 to your wallet');
    expect(addedMessage(2500.5, formatRupees)).toBe('Added ₹2,500.50 to your wallet');
  });

  it('asks before a quick add, naming the amount', () => {
    expect(quickAddQuestion(2000, formatRupees)).toBe('Add ₹2,000 to your wallet? The money is available for bidding at once; a top-up cannot be undone.');
  });
});

describe('the ledger shown, page by page', () => {
  const tx = (id: number) => makeTx('topup', id, { _id: String(id) });
  const totals = { topup: 0, bid: 0, refund: 0, count: 0, spent: 0 };
  const ledger = (ids: number[], nextBefore: string | null): Ledger => ({ transactions: ids.map(tx), nextBefore, totals });

  it('an older page is added below when the ledger shown still ends where it was read; duplicates skipped', () => {
    const shown = ledger([9, 8], '8');
    expect(withOlderPage(shown, ledger([8, 7, 6], '6'), '8').transactions.map((t) => t._id)).toEqual(['9', '8', '7', '6']);
    expect(withOlderPage(shown, ledger([7], null), '8').nextBefore).toBeNull();
    expect(withOlderPage(shown, ledger([3], null), '4')).toBe(shown);
  });

  it('the newest page read again keeps the older rows loaded when it reaches them; after a gap, the new page alone', () => {
    const shown = ledger([9, 8, 7, 6], '6');
    expect(withFirstPage(shown, ledger([11, 10, 9], '9'))).toEqual(ledger([11, 10, 9, 8, 7, 6], '6'));
    // More new rows than a page: the page does not reach the rows shown.
    expect(withFirstPage(shown, ledger([13, 12, 11], '11'))).toEqual(ledger([13, 12, 11], '11'));
    // The whole ledger in one page, or nothing shown yet: the page.
    expect(withFirstPage(shown, ledger([10, 9, 8, 7, 6, 5], null))).toEqual(ledger([10, 9, 8, 7, 6, 5], null));
    expect(withFirstPage(undefined, ledger([2, 1], '1'))).toEqual(ledger([2, 1], '1'));
  });
});
