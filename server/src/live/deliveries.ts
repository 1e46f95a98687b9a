/**
 * Who hears of a committed domain event (docs/live-protocol.md). Pure: the presenters (presenters/live.ts) make
 * the payloads, the hub does the sending. No internal field or other bidder's name can leak.
 */
import { adminRoom, auctionRoom, type PersonalEventMap, type RoomEvent } from '@auction/shared';
import type { DomainEvent } from '../domain/events.js';
import {
  liveAmount, liveAuctionOnly, liveBidPlaced, liveEnding, liveExtended, liveOutbid, liveRolledBack, liveSold, liveWallet,
} from '../presenters/live.js';
import { liveNotification } from '../presenters/notifications.js';

export type Delivery =
  | { to: 'room'; room: string; event: RoomEvent }
  | { to: 'user'; userId: number; event: { [K in keyof PersonalEventMap]: { event: K; data: PersonalEventMap[K] } }[keyof PersonalEventMap] }
  /** Catalogue changes: the hub reads the auction as committed and tells every socket. */
  | { to: 'catalogue'; auctionId: string; change: 'auction:created' | 'auction:updated' | 'auction:deleted' | 'auction:extended' }
  /** An account's live connections opened with a token older than version `below` close (all: Infinity). */
  | { to: 'disconnect'; role: 'user' | 'admin'; id: number; below: number };

const both = (auctionId: string, ownerId: number, make: () => RoomEvent): Delivery[] => [
  { to: 'room', room: auctionRoom(auctionId), event: make() },
  { to: 'room', room: adminRoom(ownerId), event: make() },
];

export function deliveriesOf(e: DomainEvent, serverTime: string): Delivery[] {
  switch (e.type) {
    case 'bid:placed':
      return [
        { to: 'room', room: auctionRoom(e.auctionId), event: { event: 'bid:placed', data: liveBidPlaced(e, 'watchers', serverTime) } },
        { to: 'room', room: adminRoom(e.ownerId), event: { event: 'bid:placed', data: liveBidPlaced(e, 'owner', serverTime) } },
      ];
    case 'bid:rolledback':
      return both(e.auctionId, e.ownerId, () => ({ event: 'bid:rolledback', data: liveRolledBack(e, serverTime) }));
    case 'product:sold':
      return both(e.auctionId, e.ownerId, () => ({ event: 'product:sold', data: liveSold(e, serverTime) }));
    case 'auction:extended':
      return [
        ...both(e.auctionId, e.ownerId, () => ({ event: 'auction:extended', data: liveExtended(e, serverTime) })),
        { to: 'catalogue', auctionId: e.auctionId, change: 'auction:extended' },
      ];
    case 'bid:unsold':
      // The wallet:updated that goes with it tells the bidder; their bid list shows "Reserve not met".
      return [];
    case 'auction:ending':
      return [{ to: 'room', room: auctionRoom(e.auctionId), event: { event: 'auction:ending', data: liveEnding(e.auctionId, e.secondsLeft, serverTime) } }];
    case 'auction:ended':
      return both(e.auctionId, e.ownerId, () => ({ event: 'auction:ended', data: liveAuctionOnly(e.auctionId, serverTime) }));
    case 'auction:settled':
      return [
        ...both(e.auctionId, e.ownerId, () => ({ event: 'auction:settled', data: liveAuctionOnly(e.auctionId, serverTime) })),
        { to: 'catalogue', auctionId: e.auctionId, change: 'auction:updated' },
      ];
    case 'auction:created':
    case 'auction:updated':
    case 'auction:deleted':
      return [{ to: 'catalogue', auctionId: e.auctionId, change: e.type }];
    case 'bid:outbid':
      return [{ to: 'user', userId: e.userId, event: { event: 'bid:outbid', data: liveOutbid(e, serverTime) } }];
    case 'bid:reinstated':
    case 'bid:won':
      return [{ to: 'user', userId: e.userId, event: { event: e.type, data: liveAmount(e, serverTime) } }];
    case 'wallet:updated':
      return [{ to: 'user', userId: e.userId, event: { event: 'wallet:updated', data: liveWallet(e, serverTime) } }];
    case 'notification:new':
      return [{ to: 'user', userId: e.userId, event: { event: 'notification:new', data: liveNotification(e, serverTime) } }];
    case 'account:deactivated':
      return [{ to: 'disconnect', role: 'user', id: e.userId, below: Infinity }];
    case 'account:revoked':
      return [{ to: 'disconnect', role: e.role, id: e.id, below: e.ver }];
  }
}
