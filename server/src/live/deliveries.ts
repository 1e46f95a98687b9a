/**
 * Who hears of a committed domain event, and with what payload (DESIGN §6). Pure: the hub does the
 * sending. Presenters live here too, so no internal field or other bidder's name can leak.
 */
import { adminRoom, auctionRoom, toRupees, type PersonalEventMap, type RoomEvent } from '@auction/shared';
import type { DomainEvent } from '../domain/events.js';
import { maskUsername } from '../queries/bids.js';

export type Delivery =
  | { to: 'room'; room: string; event: RoomEvent }
  | { to: 'user'; userId: number; event: { [K in keyof PersonalEventMap]: { event: K; data: PersonalEventMap[K] } }[keyof PersonalEventMap] }
  /** Catalogue changes: the hub reads the auction as committed and tells every socket. */
  | { to: 'catalogue'; auctionId: string; change: 'auction:created' | 'auction:updated' | 'auction:deleted' };

const both = (auctionId: string, ownerId: number, make: () => RoomEvent): Delivery[] => [
  { to: 'room', room: auctionRoom(auctionId), event: make() },
  { to: 'room', room: adminRoom(ownerId), event: make() },
];

export function deliveriesOf(e: DomainEvent, serverTime: string): Delivery[] {
  const server_time = serverTime;
  switch (e.type) {
    case 'bid:placed': {
      const data = (bidder: string) => ({
        auction_id: e.auctionId, product_id: e.productId, bid_id: e.bidId, highest_bid: toRupees(e.highest), bid_count: e.bidCount,
        bidder, amount: toRupees(e.amount), timestamp: new Date(e.at).toISOString(), server_time,
      });
      return [
        { to: 'room', room: auctionRoom(e.auctionId), event: { event: 'bid:placed', data: data(maskUsername(e.bidder)) } },
        { to: 'room', room: adminRoom(e.ownerId), event: { event: 'bid:placed', data: data(e.bidder) } },
      ];
    }
    case 'bid:rolledback':
      return both(e.auctionId, e.ownerId, () => ({
        event: 'bid:rolledback',
        data: { auction_id: e.auctionId, product_id: e.productId, highest_bid: toRupees(e.highest), bid_count: e.bidCount, server_time },
      }));
    case 'product:sold':
      return both(e.auctionId, e.ownerId, () => ({
        event: 'product:sold', data: { auction_id: e.auctionId, product_id: e.productId, amount: toRupees(e.amount), server_time },
      }));
    case 'auction:ending':
      return [{ to: 'room', room: auctionRoom(e.auctionId), event: { event: 'auction:ending', data: { auction_id: e.auctionId, seconds_left: e.secondsLeft, server_time } } }];
    case 'auction:ended':
      return both(e.auctionId, e.ownerId, () => ({ event: 'auction:ended', data: { auction_id: e.auctionId, server_time } }));
    case 'auction:settled':
      return [
        ...both(e.auctionId, e.ownerId, () => ({ event: 'auction:settled', data: { auction_id: e.auctionId, server_time } })),
        { to: 'catalogue', auctionId: e.auctionId, change: 'auction:updated' },
      ];
    case 'auction:created':
    case 'auction:updated':
    case 'auction:deleted':
      return [{ to: 'catalogue', auctionId: e.auctionId, change: e.type }];
    case 'bid:outbid':
      return [{ to: 'user', userId: e.userId, event: { event: 'bid:outbid', data: { auction_id: e.auctionId, product_id: e.productId, product_name: e.productName, highest_bid: toRupees(e.highest), server_time } } }];
    case 'bid:reinstated':
    case 'bid:won':
      return [{ to: 'user', userId: e.userId, event: { event: e.type, data: { auction_id: e.auctionId, product_id: e.productId, amount: toRupees(e.amount), server_time } } }];
    case 'wallet:updated':
      return [{ to: 'user', userId: e.userId, event: { event: 'wallet:updated', data: { wallet_balance: toRupees(e.balance), server_time } } }];
  }
}
