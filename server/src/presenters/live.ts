/**
 * Live payloads (docs/live-protocol.md): what each committed event looks like on the wire. Amounts in rupees,
 * times as ISO strings, and every payload carries the server's clock.
 */
import { toRupees, type AuctionEndingData, type LiveAuction, type LiveCard, type PersonalEventMap, type RoomEventMap } from '@auction/shared';
import type { AuctionView } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { presentAuctionCard } from './browse.js';
import { presentAuction } from './catalogue.js';
import { iso, maskUsername, secondsLeft } from './format.js';

type Of<T extends DomainEvent['type']> = Extract<DomainEvent, { type: T }>;

/** A new highest bid; the bidder's name in full only for the auction's own admin. */
export const liveBidPlaced = (e: Of<'bid:placed'>, audience: 'watchers' | 'owner', server_time: string): RoomEventMap['bid:placed'] => ({
  auction_id: e.auctionId, product_id: e.productId, bid_id: e.bidId, highest_bid: toRupees(e.highest), bid_count: e.bidCount, version: e.version,
  bidder: audience === 'owner' ? e.bidder : maskUsername(e.bidder), amount: toRupees(e.amount), timestamp: iso(e.at),
  min_next_bid: toRupees(e.minNext), reserve_met: e.reserveMet, buy_now_available: e.buyNowAvailable, auto: e.auto, server_time,
});

export const liveRolledBack = (e: Of<'bid:rolledback'>, server_time: string): RoomEventMap['bid:rolledback'] => ({
  auction_id: e.auctionId, product_id: e.productId, highest_bid: toRupees(e.highest), bid_count: e.bidCount, version: e.version,
  min_next_bid: toRupees(e.minNext), reserve_met: e.reserveMet, buy_now_available: e.buyNowAvailable, server_time,
});

export const liveSold = (e: Of<'product:sold'>, server_time: string): RoomEventMap['product:sold'] => ({
  auction_id: e.auctionId, product_id: e.productId, amount: toRupees(e.amount), version: e.version, buy_now: e.buyNow, server_time,
});

export const liveExtended = (e: Of<'auction:extended'>, server_time: string): RoomEventMap['auction:extended'] => ({
  auction_id: e.auctionId, valid_until: iso(e.validUntil), original_valid_until: iso(e.originalValidUntil), server_time,
});

export const liveEnding = (auctionId: string, seconds: number, server_time: string): AuctionEndingData => ({ auction_id: auctionId, seconds_left: seconds, server_time });

/** The ending notice a watcher who arrives late gets at once, if the auction is in its last hour. */
export function liveEndingNow(a: Pick<AuctionView, 'id' | 'validUntil' | 'settledAt'>, now: number, windowSeconds: number): AuctionEndingData | null {
  const left = secondsLeft(a.validUntil, now);
  return a.settledAt === null && left > 0 && left <= windowSeconds ? liveEnding(a.id, left, iso(now)) : null;
}

export const liveAuctionOnly = (auctionId: string, server_time: string) => ({ auction_id: auctionId, server_time });

export const liveOutbid = (e: Of<'bid:outbid'>, server_time: string): PersonalEventMap['bid:outbid'] => ({
  auction_id: e.auctionId, product_id: e.productId, product_name: e.productName, highest_bid: toRupees(e.highest), server_time,
});

export const liveAmount = (e: Of<'bid:reinstated' | 'bid:won'>, server_time: string): PersonalEventMap['bid:won'] => ({
  auction_id: e.auctionId, product_id: e.productId, amount: toRupees(e.amount), server_time,
});

export const liveWallet = (e: Of<'wallet:updated'>, server_time: string): PersonalEventMap['wallet:updated'] => ({
  wallet_balance: toRupees(e.balance), server_time,
});

/**
 * A catalogue change as every socket sees it: the auction's summary, without anyone's registrations and
 * without its product list (a rename in a 500-product auction must not send 500 ids to every socket);
 * a client showing the auction's products reads them again.
 */
export function liveAuction(view: AuctionView, now: number, server_time: string): LiveAuction {
  const { id, name, valid_until, product_count, status, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, extended } = presentAuction(view, null, now);
  return { id, name, valid_until, product_count, status, original_valid_until, increment_rule, increment_amount, increment_tiers, cancel_policy, soft_close_s, max_extension_s, extended, server_time };
}

/** A Browse card as `GET /api/catalogue/auctions` shows it, without the per-caller `registered` (`catalogue:card`). */
export function liveCard(view: AuctionView, now: number): LiveCard {
  const { registered: _, ...card } = presentAuctionCard(view, now, false);
  return card;
}
