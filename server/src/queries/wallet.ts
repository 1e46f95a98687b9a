import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { users, walletTransactions } from '../db/schema.js';

export function walletBalance(db: Db, userId: number): number {
  return db.select({ b: users.walletBalance }).from(users).where(eq(users.id, userId)).get()?.b ?? 0;
}

export type TransactionRow = typeof walletTransactions.$inferSelect;

export function transactions(db: Db, userId: number): TransactionRow[] {
  return db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId)).orderBy(desc(walletTransactions.id)).all();
}
