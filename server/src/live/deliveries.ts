/**
 * Who hears of a committed domain event (docs/live-protocol.md). Pure: the presenters (presenters/live.ts) make
 * the payloads, the hub does the sending. No internal field or other bidder's name can leak.
 */
import { adminRoom, auctionRoom, type PersonalEventMap, type RoomEvent } from '@auction/shared';
import type { DomainEvent, DomainEventOf, DomainEventType } from '../domain/events.js';
import {
  liveAmount, liveAuctionOnly, liveBidPlaced, liveEnding, liveExtended, liveOutbid, liveRolledBack, liveSold, liveWallet,
} from '../presenters/live.js';
import { liveNotification } from '../presenters/notifications.js';

/**
 * Who hears each personal or catalogue event (docs/live-protocol.md#personal-and-catalogue-events):
 * one bidder (`user:<id>`, at once) or every socket (`catalogue`: merged per auction per frame and read
 * as committed when the frame goes out).
 */
export const PERSONAL_EVENT_SCOPE = {
  'bid:outbid': 'user',
  'bid:reinstated': 'user',
  'bid:won': 'user',
  'wallet:updated': 'user',
  'notification:new': 'user',
  'auction:created': 'catalogue',
  'auction:updated': 'catalogue',
  'auction:extended': 'catalogue',
  'auction:deleted': 'catalogue',
} as const satisfies Record<keyof PersonalEventMap, 'user' | 'catalogue'>;

type ScopedEvent<S> = { [K in keyof PersonalEventMap]: (typeof PERSONAL_EVENT_SCOPE)[K] extends S ? K : never }[keyof PersonalEventMap];
/** The catalogue events: the hub reads the auction and tells every socket. */
export type CatalogueChange = ScopedEvent<'catalogue'>;
type UserEvent = { [K in ScopedEvent<'user'>]: { event: K; data: PersonalEventMap[K] } }[ScopedEvent<'user'>];

export type Delivery =
  | { to: 'room'; room: string; event: RoomEvent }
  | { to: 'user'; userId: number; event: UserEvent }
  /** Catalogue changes: the hub reads the auction as committed and tells every socket. */
  | { to: 'catalogue'; auctionId: string; change: CatalogueChange }
  /** What the auction's Browse card shows changed: its watchers (`cards:<id>`) get it read as committed. */
  | { to: 'card'; auctionId: string }
  /** An account's live connections opened with a token older than version `below` close (all: Infinity). */
  | { to: 'disconnect'; role: 'user' | 'admin'; id: number; below: number };

const both = (auctionId: string, ownerId: number, make: () => RoomEvent): Delivery[] => [
  { to: 'room', room: auctionRoom(auctionId), event: make() },
  { to: 'room', room: adminRoom(ownerId), event: make() },
];

/** The auction's card changed (highest bid, bid count, status, end, name, lots or cover). */
const card = (auctionId: string): Delivery => ({ to: 'card', auctionId });

type Deliver<K extends DomainEventType> = (e: DomainEventOf<K>, serverTime: string) => Delivery[];

/** The deliveries of every domain event, by name: one a new event of the live contract lacks fails to compile. */
const DELIVERIES: { [K in DomainEventType]: Deliver<K> } = {
  'bid:placed': (e, serverTime) => [
    { to: 'room', room: auctionRoom(e.auctionId), event: { event: 'bid:placed', data: liveBidPlaced(e, 'watchers', serverTime) } },
    { to: 'room', room: adminRoom(e.ownerId), event: { event: 'bid:placed', data: liveBidPlaced(e, 'owner', serverTime) } },
    card(e.auctionId),
  ],
  'bid:rolledback': (e, serverTime) => [...both(e.auctionId, e.ownerId, () => ({ event: 'bid:rolledback', data: liveRolledBack(e, serverTime) })), card(e.auctionId)],
  'product:sold': (e, serverTime) => [...both(e.auctionId, e.ownerId, () => ({ event: 'product:sold', data: liveSold(e, serverTime) })), card(e.auctionId)],
  'auction:extended': (e, serverTime) => [
    ...both(e.auctionId, e.ownerId, () => ({ event: 'auction:extended', data: liveExtended(e, serverTime) })),
    { to: 'catalogue', auctionId: e.auctionId, change: 'auction:extended' },
    card(e.auctionId),
  ],
  // The wallet:updated that goes with it tells the bidder; their bid list shows "Reserve not met".
  'bid:unsold': () => [],
  'auction:ending': (e, serverTime) => [{ to: 'room', room: auctionRoom(e.auctionId), event: { event: 'auction:ending', data: liveEnding(e.auctionId, e.secondsLeft, serverTime) } }],
  'auction:ended': (e, serverTime) => [...both(e.auctionId, e.ownerId, () => ({ event: 'auction:ended', data: liveAuctionOnly(e.auctionId, serverTime) })), card(e.auctionId)],
  'auction:settled': (e, serverTime) => [
    ...both(e.auctionId, e.ownerId, () => ({ event: 'auction:settled', data: liveAuctionOnly(e.auctionId, serverTime) })),
    { to: 'catalogue', auctionId: e.auctionId, change: 'auction:updated' },
    card(e.auctionId),
  ],
  // A new auction has no card on anyone's page yet: Browse reads it with its next page.
  'auction:created': (e) => [{ to: 'catalogue', auctionId: e.auctionId, change: e.type }],
  'auction:updated': (e) => [{ to: 'catalogue', auctionId: e.auctionId, change: e.type }, card(e.auctionId)],
  'auction:deleted': (e) => [{ to: 'catalogue', auctionId: e.auctionId, change: e.type }, card(e.auctionId)],
  'bid:outbid': (e, serverTime) => [{ to: 'user', userId: e.userId, event: { event: 'bid:outbid', data: liveOutbid(e, serverTime) } }],
  'bid:reinstated': (e, serverTime) => [{ to: 'user', userId: e.userId, event: { event: e.type, data: liveAmount(e, serverTime) } }],
  'bid:won': (e, serverTime) => [{ to: 'user', userId: e.userId, event: { event: e.type, data: liveAmount(e, serverTime) } }],
  'wallet:updated': (e, serverTime) => [{ to: 'user', userId: e.userId, event: { event: 'wallet:updated', data: liveWallet(e, serverTime) } }],
  'notification:new': (e, serverTime) => [{ to: 'user', userId: e.userId, event: { event: 'notification:new', data: liveNotification(e, serverTime) } }],
  'account:deactivated': (e) => [{ to: 'disconnect', role: 'user', id: e.userId, below: Infinity }],
  'account:revoked': (e) => [{ to: 'disconnect', role: e.role, id: e.id, below: e.ver }],
};

export function deliveriesOf(e: DomainEvent, serverTime: string): Delivery[] {
  return (DELIVERIES[e.type] as Deliver<DomainEventType>)(e, serverTime);
}
