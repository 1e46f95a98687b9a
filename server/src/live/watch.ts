import type { AckError, AuctionEndingData } from '@auction/shared';
import type { Db } from '../db/index.js';
import { getAuction } from '../queries/auctions.js';

/** Notices before the end, in seconds (DESIGN §6). */
export const ENDING_NOTICES = [3600, 300, 60] as const;

/**
 * Checks a watch request and finds the ending window the auction is in, if any, so a late watcher
 * gets the current `auction:ending` at once.
 */
export function checkWatch(db: Db, auctionId: unknown, now: number):
  | { ok: true; auctionId: string; ending: AuctionEndingData | null }
  | { ok: false; error: AckError } {
  if (typeof auctionId !== 'string' || auctionId.length === 0 || auctionId.length > 200) {
    return { ok: false, error: { code: 'VALIDATION', message: 'auction_id must be a non-empty string' } };
  }
  const auction = getAuction(db, auctionId);
  if (!auction) return { ok: false, error: { code: 'NOT_FOUND', message: 'Auction not found' } };
  const secondsLeft = Math.ceil((auction.validUntil - now) / 1000);
  const inWindow = auction.settledAt === null && secondsLeft > 0 && secondsLeft <= ENDING_NOTICES[0];
  return {
    ok: true,
    auctionId,
    ending: inWindow ? { auction_id: auctionId, seconds_left: secondsLeft, server_time: new Date(now).toISOString() } : null,
  };
}
