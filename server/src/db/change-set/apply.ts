/**
 * The one way a change set is written by a unit of work (ChangeSet gives the order), on both stores:
 * bid changes, the new bid, automatic raises, ledger moves and balances, products and auctions, the
 * search index that follows them, and the notices last.
 */
import { asBid, columns, type BidRow, type TransactionRow } from '../rows.js';
import { marks, type Dialect, type Param, type SqlRunner } from '../sql.js';
import { writeNotices } from '../notices/write.js';
import type { Applied, ChangeSet } from './types.js';

const PRODUCT_COLUMNS: Record<string, string> = {
  name: 'name', description: 'description', auctionId: 'auction_id', status: 'status', soldPrice: 'sold_price',
  winnerId: 'winner_id', bidCount: 'bid_count', version: 'version', deletedAt: 'deleted_at',
  startingPrice: 'starting_price', reservePrice: 'reserve_price', buyNowPrice: 'buy_now_price', gstPct: 'gst_pct', categoryId: 'category_id', lotNumber: 'lot_number',
};
const AUCTION_COLUMNS: Record<string, string> = {
  name: 'name', validUntil: 'valid_until', originalValidUntil: 'original_valid_until', incrementRule: 'increment_rule',
  incrementAmount: 'increment_amount', incrementTiers: 'increment_tiers', cancelPolicy: 'cancel_policy',
  softCloseS: 'soft_close_s', maxExtensionS: 'max_extension_s', buyerPremiumBp: 'buyer_premium_bp', premiumGstPct: 'premium_gst_pct',
  settledAt: 'settled_at', deletedAt: 'deleted_at',
};
/** The product fields the search index holds or depends on (search.ts). */
const SEARCHED_PRODUCT_FIELDS = ['name', 'description', 'auctionId', 'deletedAt'] as const;

/** `set a = ?, b = ?, updated_at = ?` and its values, for the keys present in `set` (in a fixed order). */
function assignments(set: Record<string, Param | undefined>, names: Record<string, string>, now: number): { text: string; values: Param[] } {
  const parts: string[] = [];
  const values: Param[] = [];
  for (const [key, column] of Object.entries(names)) {
    const value = set[key];
    if (value === undefined) continue;
    parts.push(`${column} = ?`);
    values.push(value);
  }
  parts.push('updated_at = ?');
  values.push(now);
  return { text: parts.join(', '), values };
}

/** Writes `changes` at `now` through `sql`; a product leaving its auction loses its lot number. */
export async function applyChangeSet(sql: SqlRunner, dialect: Dialect, changes: ChangeSet, now: number): Promise<Applied> {
  for (const b of changes.bids ?? []) {
    const set = ['status = ?'];
    const values: Param[] = [b.status];
    if (b.reason !== undefined) { set.push('reason = ?'); values.push(b.reason); }
    if (b.amount !== undefined) { set.push('amount = ?'); values.push(b.amount); }
    if (b.maxAmount !== undefined) { set.push('max_amount = ?'); values.push(b.maxAmount); }
    if (b.held !== undefined) { set.push('held = ?'); values.push(b.held); }
    await sql.run(`update bids set ${set.join(', ')}, updated_at = ? where id = ?`, [...values, now, b.id]);
  }
  let newBid: BidRow | null = null;
  if (changes.newBid) {
    const b = changes.newBid;
    const row = await sql.get<BidRow>(
      `insert into bids (user_id, product_id, auction_id, amount, placed_amount, max_amount, held, buy_now, status, reason, extended_from, extended_to, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       returning ${columns.bid('bids')}`,
      [b.userId, b.productId, b.auctionId, b.amount, b.amount, b.maxAmount ?? null, b.held ?? 0, b.buyNow ?? false, b.status, b.reason, b.extendedFrom ?? null, b.extendedTo ?? null, now, now],
    );
    if (!row) throw new Error('store: insert of a bid returned no row');
    newBid = asBid(row);
  }
  for (const a of changes.autoBids ?? []) {
    await sql.run('insert into auto_bids (bid_id, product_id, amount, created_at) values (?, ?, ?, ?)', [a.bidId, a.productId, a.amount, now]);
  }
  const undone = changes.autoBidsRolledBack ?? [];
  if (undone.length > 0) await sql.run(`update auto_bids set status = 'rolledback' where id in (${marks(undone.length)})`, undone);
  const transactions: TransactionRow[] = [];
  const balances = new Map<number, number>();
  for (const m of changes.moves ?? []) {
    const delta = m.type === 'bid' ? -m.amount : m.amount;
    const wallet = await sql.get<{ balance: number }>('update users set wallet_balance = wallet_balance + ? where id = ? returning wallet_balance as balance', [delta, m.userId]);
    if (!wallet) throw new Error(`store: no user ${m.userId}`);
    const bidId = m.bidId === 'new' ? newBid?.id ?? null : m.bidId ?? null;
    if (m.bidId === 'new' && bidId === null) throw new Error('store: a move names a new bid the change set does not have');
    const row = await sql.get<TransactionRow>(
      `insert into wallet_transactions (user_id, type, amount, bid_id, product_id, notes, created_at) values (?, ?, ?, ?, ?, ?, ?)
       returning ${columns.transaction('wallet_transactions')}`,
      [m.userId, m.type, m.amount, bidId, m.productId ?? null, m.notes ?? null, now],
    );
    if (!row) throw new Error('store: insert of a ledger row returned no row');
    transactions.push(row);
    balances.set(m.userId, wallet.balance);
  }
  for (const p of changes.products ?? []) {
    const set = p.set.auctionId === null && p.set.lotNumber === undefined ? { ...p.set, lotNumber: null } : p.set;
    const { text, values } = assignments(set, PRODUCT_COLUMNS, now);
    await sql.run(`update products set ${text} where id = ?`, [...values, p.id]);
  }
  for (const a of changes.auctions ?? []) {
    const { text, values } = assignments(a.set, AUCTION_COLUMNS, now);
    await sql.run(`update auctions set ${text} where id = ?`, [...values, a.id]);
  }
  // The search index follows every change of what it holds, in this transaction (docs/catalogue.md#search):
  // a product's words or auction, a deletion, an auction's name. Bids change none of them.
  const searched = (changes.products ?? []).filter((p) => SEARCHED_PRODUCT_FIELDS.some((k) => p.set[k] !== undefined)).map((p) => p.id);
  await dialect.search.refreshProducts(sql, [...new Set(searched)]);
  const renamed = (changes.auctions ?? []).filter((a) => a.set.name !== undefined).map((a) => a.id);
  await dialect.search.refreshAuctions(sql, [...new Set(renamed)]);
  const notices = await writeNotices(sql, changes.notices ?? [], now);
  return { newBid, transactions, balances, notices };
}
