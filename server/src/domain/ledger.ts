/**
 * The wallet ledger: every money movement is one row here and the same change to the cached
 * balance, in the caller's transaction. The balance can never go below zero (a CHECK enforces it).
 */
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/index.js';
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

/** Applies one movement and returns the ledger row and the new balance. */
export function move(tx: Tx, m: Movement) {
  const delta = m.type === 'bid' ? -m.amount : m.amount;
  const updated = tx.update(users)
    .set({ walletBalance: sql`${users.walletBalance} + ${delta}` })
    .where(eq(users.id, m.userId))
    .returning({ balance: users.walletBalance })
    .get();
  if (!updated) throw new Error(`ledger: no user ${m.userId}`);
  const row = tx.insert(walletTransactions).values({
    userId: m.userId, type: m.type, amount: m.amount, bidId: m.bidId ?? null, productId: m.productId ?? null,
    notes: m.notes ?? null, createdAt: m.now,
  }).returning().get();
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
