import type { AckError, AuctionEndingData } from '@auction/shared';
import type { Reads } from '../db/index.js';
import { liveEndingNow } from '../presenters/live.js';

/** `auction:ending` notices before the end, in seconds (docs/live-protocol.md#frames). */
export const ENDING_NOTICES = [3600, 300, 60] as const;

/**
 * Checks a watch request and finds the ending window the auction is in, if any, so a late watcher
 * gets the current `auction:ending` at once.
 */
export async function checkWatch(reads: Reads, auctionId: unknown, now: number): Promise<
  | { ok: true; auctionId: string; ending: AuctionEndingData | null }
  | { ok: false; error: AckError }> {
  if (typeof auctionId !== 'string' || auctionId.length === 0 || auctionId.length > 200 || auctionId.includes('\u0000')) {
    return { ok: false, error: { code: 'VALIDATION', message: 'auction_id must be a non-empty string' } };
  }
  const auction = await reads.auction(auctionId);
  if (!auction) return { ok: false, error: { code: 'NOT_FOUND', message: 'Auction not found' } };
  return { ok: true, auctionId, ending: liveEndingNow(auction, now, ENDING_NOTICES[0]) };
}
