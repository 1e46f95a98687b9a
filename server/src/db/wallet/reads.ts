/**
 * Wallets and the ledger (docs/money.md).
 * Its reads, one slice of Reads (reads.ts).
 */
import { columns, isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import type { MoneyAudit, TransactionView } from './types.js';

/**
 * A ledger row's kind (docs/money.md#ledger-kinds), from its type and its bid, for `t` joined to its bid
 * as `b`. A bid that is not won only ever held and released. For a won bid, the `bid` rows after its
 * last release that precedes its last `bid` row are what it paid (settling writes release then payment;
 * a buy-now pays at once; rows written before settling wrote a payment: the hold that became it), and
 * a `refund` after its last `bid` row gave back the unused part of a maximum (such older rows only).
 */
const LAST_BID_ROW = `(select max(h.id) from wallet_transactions h where h.bid_id = t.bid_id and h.type = 'bid')`;

const LEDGER_KIND = `case
    when t.type = 'topup' then 'topup'
    when t.type = 'bid' then case when b.status = 'won' and t.id > coalesce((select max(r.id) from wallet_transactions r
      where r.bid_id = t.bid_id and r.type = 'refund' and r.id < ${LAST_BID_ROW}), 0) then 'payment' else 'hold' end
    else case when b.status = 'won' and t.id > ${LAST_BID_ROW} then 'unused_refund' else 'release' end
  end`;

export class WalletReads extends SqlSlice {
  /** The balance and what the caller's leading bids hold (a maximum all of itself), in one statement. */
  async wallet(userId: number): Promise<{ balance: number; onHold: number }> {
    const row = await this.sql.get<{ balance: number; onHold: number }>(
      `select u.wallet_balance as balance,
        (select coalesce(sum(b.held), 0) from bids b where b.user_id = u.id and b.status = 'success') as "onHold"
      from users u where u.id = ?`,
      [userId],
    );
    return row ?? { balance: 0, onHold: 0 };
  }

  async walletBalance(userId: number): Promise<number> {
    return (await this.sql.get<{ b: number }>('select wallet_balance as b from users where id = ?', [userId]))?.b ?? 0;
  }

  /**
   * A page of the user's ledger, newest first, each row with its product's current name: at most
   * `limit` rows older than `before` (an id) when given. Keyset order by id (wallet_tx_user_idx): a
   * user's rows are written under their wallet's lock, so ids follow commit order and a page after the
   * first never sees a row written since the first was read.
   */
  async transactions(userId: number, page: { before: number | null; limit: number }): Promise<TransactionView[]> {
    if (!isStorableId(userId)) return [];
    // Past the largest id a row can have, "older than" is every row.
    const older = page.before !== null && page.before <= 2_147_483_647;
    return this.sql.all<TransactionView>(
      `select ${columns.transaction('t')}, p.name as "productName", ${LEDGER_KIND} as kind, b.buy_now as "buyNow"
      from wallet_transactions t left join products p on p.id = t.product_id left join bids b on b.id = t.bid_id
      where t.user_id = ?${older ? ' and t.id < ?' : ''} order by t.id desc limit ?`,
      older ? [userId, page.before, page.limit] : [userId, page.limit],
    );
  }

  /** The sums of the user's whole ledger by type (paise), its row count, and what was spent (payments less unused refunds): the wallet's exact figures. */
  async ledgerTotals(userId: number): Promise<{ topup: number; bid: number; refund: number; count: number; spent: number }> {
    if (!isStorableId(userId)) return { topup: 0, bid: 0, refund: 0, count: 0, spent: 0 };
    const row = await this.sql.get<{ topup: number; bid: number; refund: number; count: number; spent: number }>(
      `select coalesce(sum(case when x.type = 'topup' then x.amount else 0 end), 0) as topup,
        coalesce(sum(case when x.type = 'bid' then x.amount else 0 end), 0) as bid,
        coalesce(sum(case when x.type = 'refund' then x.amount else 0 end), 0) as refund,
        count(*) as count,
        coalesce(sum(case when x.kind = 'payment' then x.amount when x.kind = 'unused_refund' then -x.amount else 0 end), 0) as spent
      from (select t.type, t.amount, ${LEDGER_KIND} as kind
        from wallet_transactions t left join bids b on b.id = t.bid_id where t.user_id = ?) x`,
      [userId],
    );
    // PostgreSQL's sums of bigints are numerics: numbers here, whatever the driver's parsers.
    return { topup: Number(row?.topup ?? 0), bid: Number(row?.bid ?? 0), refund: Number(row?.refund ?? 0), count: Number(row?.count ?? 0), spent: Number(row?.spent ?? 0) };
  }

  /**
   * The money invariant (docs/money.md#the-invariant): Σ topups = Σ balances + Σ held + Σ paid (what the won bids' ledger rows took, net: the all-in price), exact to the paisa, plus the structural rules
   * that make it meaningful. Used by tests after every concurrent scenario and by the benchmark.
   */
  async auditMoney(): Promise<MoneyAudit> {
    const r = await this.sql.get<Omit<MoneyAudit, 'ok'>>(`
      select
        (select coalesce(sum(amount), 0) from wallet_transactions where type = 'topup') as topups,
        (select coalesce(sum(wallet_balance), 0) from users) as balances,
        (select coalesce(sum(held), 0) from bids where status = 'success') as held,
        (select coalesce(sum(case t.type when 'bid' then t.amount else -t.amount end), 0) from wallet_transactions t
          join bids w on w.id = t.bid_id where w.status = 'won' and t.type in ('bid', 'refund')) as paid,
        (select count(*) from users u where u.wallet_balance <> (
          select coalesce(sum(case t.type when 'bid' then -t.amount else t.amount end), 0) from wallet_transactions t where t.user_id = u.id)) as "ledgerMismatches",
        (select count(*) from users where wallet_balance < 0) as "negativeBalances",
        (select count(*) from (select product_id from bids where status = 'success' group by product_id having count(*) > 1) m) as "multipleLeaders"`);
    if (!r) throw new Error('store: audit returned no row');
    const ok = r.topups === r.balances + r.held + r.paid && r.ledgerMismatches === 0 && r.negativeBalances === 0 && r.multipleLeaders === 0;
    return { ...r, ok };
  }
}
