/** The small formats every presenter shares. */

/** Epoch ms → the UTC ISO string every response carries. */
export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A bidder as other people see them: at most a third of the username shown, never more than its first
 * and last character, and always three asterisks between, so the mask does not tell the length.
 * `ravi_k` → `r***k` (2 of 6), `alice` → `a***` (1 of 5), `abc` → `a***` (1 of 3), `ab` → `***`.
 */
export function maskUsername(username: string): string {
  const chars = [...username];
  const shown = Math.min(2, Math.floor(chars.length / 3));
  return `${shown >= 1 ? chars[0] : ''}***${shown === 2 ? chars.at(-1) : ''}`;
}

/** Whole seconds until `end`, rounded up (0 once it has passed). */
export const secondsLeft = (end: number, now: number) => Math.max(0, Math.ceil((end - now) / 1000));

export type AuctionStatus = 'active' | 'ended' | 'settled';

export function auctionStatus(a: { validUntil: number; settledAt: number | null }, now: number): AuctionStatus {
  if (a.settledAt !== null) return 'settled';
  return now >= a.validUntil ? 'ended' : 'active';
}
