/**
 * The wallet ledger: every money movement is one row here and the same change to the cached
 * balance, in the caller's transaction. The balance can never go below zero (a CHECK enforces it).
 */
import { eq, sql } from 'drizzle-orm';
import { prepareOnce, type Db } from '../db/index.js';
import { users, walletTransactions } from '../db/schema.js';
import type { DomainEvent } from './events.js';

export type LedgerType = 'topup' | 'bid' | 'refund';

export interface Movement {
  userId: number;
  type: LedgerType;
  /** Positive paise; `type` gives the sign. */
  amount: number;
  bidId?: number | null;
  productId?: string | null;
  notes?: string | null;
  now: number;
}

const statements = prepareOnce((db) => {
  const p = sql.placeholder;
  return {
    adjust: db.update(users)
      .set({ walletBalance: sql`${users.walletBalance} + ${p('delta')}` })
      .where(eq(users.id, p('userId')))
      .returning({ balance: users.walletBalance })
      .prepare(),
    record: db.insert(walletTransactions).values({
      userId: p('userId'), type: p('type'), amount: p('amount'), bidId: p('bidId'), productId: p('productId'),
      notes: p('notes'), createdAt: p('now'),
    }).returning().prepare(),
  };
});

/**
 * Applies one movement and returns the ledger row and the new balance. Call it inside the command's
 * transaction: `db` is the one connection, so the prepared statements run in that transaction.
 */
export function move(db: Db, m: Movement) {
  const s = statements(db);
  const delta = m.type === 'bid' ? -m.amount : m.amount;
  const updated = s.adjust.get({ delta, userId: m.userId });
  if (!updated) throw new Error(`ledger: no user ${m.userId}`);
  const row = s.record.get({
    userId: m.userId, type: m.type, amount: m.amount, bidId: m.bidId ?? null, productId: m.productId ?? null,
    notes: m.notes ?? null, now: m.now,
  });
  if (!row) throw new Error('ledger: insert returned no row');
  return { row, balance: updated.balance };
}

/** Collects the last balance of every wallet a command moved, for one `wallet:updated` each. */
export class WalletChanges {
  private readonly balances = new Map<number, number>();

  record(userId: number, balance: number) {
    this.balances.set(userId, balance);
  }

  events(): DomainEvent[] {
    return [...this.balances].map(([userId, balance]) => ({ type: 'wallet:updated', userId, balance }));
  }
}
