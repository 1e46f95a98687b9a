import { CARD_WATCH_MAX, LIMITS, type AckError, type AuctionEndingData } from '@auction/shared';
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

/**
 * Checks a `catalogue:watch` list (`/api/ws`: `{ type: "cards" }`): an array of at most CARD_WATCH_MAX
 * distinct auction ids, each a non-empty string of at most LIMITS.idMax characters. Duplicates collapse,
 * first place kept. No read: an unknown id is harmless (its room never hears anything).
 */
export function checkCards(auctionIds: unknown): { ok: true; auctionIds: string[] } | { ok: false; error: AckError } {
  const refuse = (message: string) => ({ ok: false as const, error: { code: 'VALIDATION', message } });
  if (!Array.isArray(auctionIds)) return refuse('auction_ids must be an array of auction ids');
  const ids = new Set<string>();
  for (const id of auctionIds as unknown[]) {
    if (typeof id !== 'string' || id.length === 0 || id.length > LIMITS.idMax || id.includes('\u0000')) {
      return refuse(`auction_ids must hold auction ids: non-empty strings of at most ${LIMITS.idMax} characters`);
    }
    ids.add(id);
    if (ids.size > CARD_WATCH_MAX) return refuse(`A connection may show at most ${CARD_WATCH_MAX} cards`);
  }
  return { ok: true, auctionIds: [...ids] };
}
