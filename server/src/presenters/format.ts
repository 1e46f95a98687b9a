/** The small formats every presenter shares. */

/** Epoch ms → the UTC ISO string every response carries. */
export const iso = (ms: number) => new Date(ms).toISOString();

/** `alice` → `a***e`: enough to tell bidders apart, not enough to know them. */
export function maskUsername(username: string): string {
  return username.length <= 2 ? `${username[0] ?? ''}***` : `${username[0]}***${username.at(-1)}`;
}

/** Whole seconds until `end`, rounded up (0 once it has passed). */
export const secondsLeft = (end: number, now: number) => Math.max(0, Math.ceil((end - now) / 1000));

export type AuctionStatus = 'active' | 'ended' | 'settled';

export function auctionStatus(a: { validUntil: number; settledAt: number | null }, now: number): AuctionStatus {
  if (a.settledAt !== null) return 'settled';
  return now >= a.validUntil ? 'ended' : 'active';
}
