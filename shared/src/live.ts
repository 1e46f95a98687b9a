/**
 * The live channel's contract (docs/live-protocol.md): room names, event payloads, frames and acks, typed once
 * for the server (socket.io `Server<…>`), the browser client and scripts.
 */
import type { Auction, AuctionStatus } from './schemas/catalogue.js';
import type { AuctionCard } from './schemas/browse.js';
import type { Notification } from './schemas/notifications.js';

/**
 * The version of this contract. The server sends it to every socket at connect (`live:hello`); a tab
 * built for another version (the server was upgraded while it was open) asks the person to reload
 * instead of misreading events. Raise it whenever an event is removed or its meaning changes.
 */
export const LIVE_PROTOCOL_VERSION = 1;

export const auctionRoom = (auctionId: string) => `auction:${auctionId}`;
export const userRoom = (userId: number) => `user:${userId}`;
export const adminRoom = (adminId: number) => `admin:${adminId}`;
/** Every event of an auction, unmerged (`/api/ws?feed=all`, admins only; docs/live-protocol.md). */
/** Sockets that show an auction's Browse card (`catalogue:watch`). */
export const cardsRoom = (auctionId: string) => `cards:${auctionId}`;
/** Most cards one socket may watch at once (`catalogue:watch` replaces its list). */
export const CARD_WATCH_MAX = 100;
export const feedRoom = (auctionId: string) => `feed:${auctionId}`;

interface Stamped {
  /** ISO time at which the server published the event. */
  server_time: string;
}

export interface BidPlacedData extends Stamped {
  auction_id: string;
  product_id: string;
  bid_id: number;
  highest_bid: number;
  bid_count: number;
  /** The product's version after this change: newer events have higher versions (docs/live-protocol.md#versions-and-applying-events). */
  version: number;
  /** Masked (a***e) in auction rooms; the username in the auction owner's admin room. */
  bidder: string;
  amount: number;
  /** When the bid was accepted (ISO). */
  timestamp: string;
  /** The lowest acceptable next bid (docs/bidding.md#increments). */
  min_next_bid: number;
  /** Null: no reserve; else whether the highest bid reaches it. */
  reserve_met: boolean | null;
  /** Whether the lot can still be bought at its buy-now price. */
  buy_now_available: boolean;
  /** An automatic raise of the leading maximum bid (docs/bidding.md#maximum-bids). */
  auto: boolean;
}

export interface BidRolledBackData extends Stamped {
  auction_id: string;
  product_id: string;
  highest_bid: number;
  bid_count: number;
  version: number;
  min_next_bid: number;
  reserve_met: boolean | null;
  buy_now_available: boolean;
}

export interface ProductSoldData extends Stamped {
  auction_id: string;
  product_id: string;
  amount: number;
  version: number;
  /** Bought at the buy-now price (before the end). */
  buy_now: boolean;
}

/** Soft close moved the end (docs/bidding.md#soft-close). */
export interface AuctionExtendedData extends Stamped {
  auction_id: string;
  valid_until: string;
  original_valid_until: string;
}

export interface AuctionRef extends Stamped {
  auction_id: string;
}

export interface AuctionEndingData extends AuctionRef {
  seconds_left: number;
}

export interface WatchersData extends AuctionRef {
  watchers: number;
}

/** Events that travel inside frames, to `auction:<id>` and `admin:<id>` rooms. */
export interface RoomEventMap {
  'bid:placed': BidPlacedData;
  'bid:rolledback': BidRolledBackData;
  'product:sold': ProductSoldData;
  'auction:ending': AuctionEndingData;
  'auction:extended': AuctionExtendedData;
  'auction:ended': AuctionRef;
  'auction:settled': AuctionRef;
  'auction:watchers': WatchersData;
}

export type RoomEventName = keyof RoomEventMap;
export type RoomEvent = { [K in RoomEventName]: { event: K; data: RoomEventMap[K] } }[RoomEventName];

/** Every event of one room since the previous frame, in commit order. */
export interface Frame {
  room: string;
  server_time: string;
  events: RoomEvent[];
}

export interface OutbidData extends Stamped {
  auction_id: string;
  product_id: string;
  product_name: string;
  highest_bid: number;
}

export interface BidAmountData extends Stamped {
  auction_id: string;
  product_id: string;
  amount: number;
}

export interface WalletUpdatedData extends Stamped {
  wallet_balance: number;
}

/**
 * An auction's summary as `GET /auctions` shows it, minus the per-caller `registered` and `registrations`
 * and minus the product list (a client showing the products reads them again).
 */
export interface LiveAuction extends Stamped, Pick<Auction, 'original_valid_until' | 'increment_rule' | 'increment_amount' | 'increment_tiers' | 'cancel_policy' | 'soft_close_s' | 'max_extension_s' | 'extended'> {
  id: string;
  name: string;
  valid_until: string;
  product_count: number;
  status: AuctionStatus;
}

/** To every socket when soft close moves an end: the summary, with the room event's fields. */
export type LiveAuctionExtended = LiveAuction & Pick<AuctionExtendedData, 'auction_id'>;

/** Personal events (to `user:<id>`, at once) and catalogue events (to every socket). */
export interface PersonalEventMap {
  'bid:outbid': OutbidData;
  'bid:reinstated': BidAmountData;
  'bid:won': BidAmountData;
  'wallet:updated': WalletUpdatedData;
  'auction:created': LiveAuction;
  'auction:updated': LiveAuction;
  'auction:extended': LiveAuctionExtended;
  'auction:deleted': Stamped & { id: string };
  /** A new notice for this bidder (docs/notifications.md). */
  'notification:new': NotificationNewData;
}

/**
 * The personal and catalogue events by name, for whoever listens to each on the socket (the client's
 * live store). Beside the map, so that a new event is one line in each, in this file alone.
 */
export const PERSONAL_EVENT_NAMES = Object.keys({
  'bid:outbid': 1, 'bid:reinstated': 1, 'bid:won': 1, 'wallet:updated': 1, 'auction:created': 1, 'auction:updated': 1,
  'auction:extended': 1, 'auction:deleted': 1, 'notification:new': 1,
} satisfies Record<keyof PersonalEventMap, 1>) as readonly (keyof PersonalEventMap)[];

/** `notification:new`: the notice as `GET /api/notifications` lists it, and the bidder's unread count after it. */
export interface NotificationNewData extends Stamped {
  notification: Notification;
  unread: number;
}

/**
 * `live:resync`: the server's process may have missed events of other processes (its link to them,
 * Redis, was broken for a while and is back). Re-read what is shown, as after a reconnect
 * (docs/live-protocol.md#re-reading-after-a-relay-gap). Sent to every socket of that process.
 */
export type ResyncData = Stamped;

/** `live:hello`: the first event on every connection: the server's protocol version (LIVE_PROTOCOL_VERSION). */
export interface HelloData extends Stamped {
  protocol: number;
}

/** A Browse card as `GET /api/catalogue/auctions` shows it, without the per-caller `registered`. */
export type LiveCard = Omit<AuctionCard, 'registered'>;

/**
 * `catalogue:card`: a card a socket shows changed (a new highest bid or bid count, its status, end,
 * name or cover), read as committed when the frame goes out, merged per auction per frame. Sent only
 * to sockets whose `catalogue:watch` list holds the auction. `card` is null when the auction is gone.
 */
export interface CardChangedData extends Stamped {
  auction_id: string;
  card: LiveCard | null;
}

/** Events to the sockets that show a card (`cards:<id>`), outside frames. */
export interface CardEventMap {
  'catalogue:card': CardChangedData;
}

/** Events the server sends of its own accord, not for a committed change: to every socket of a process. */
export interface ControlEventMap {
  'live:hello': HelloData;
  'live:resync': ResyncData;
}

/** Every event sent outside frames: personal, catalogue and control events. */
export type SocketEventMap = PersonalEventMap & CardEventMap & ControlEventMap;

export type ServerToClientEvents = { frame: (frame: Frame) => void } & {
  [K in keyof SocketEventMap]: (data: SocketEventMap[K]) => void;
};

export type AckError = { code: string; message: string };
export type Ack<T> = { status: 'ok'; data: T } | { status: 'error'; error: AckError };

export interface ClientToServerEvents {
  'auction:watch': (auctionId: string, ack: (res: Ack<{ auction_id: string; watchers: number }>) => void) => void;
  'auction:unwatch': (auctionId: string, ack?: (res: Ack<{ auction_id: string }>) => void) => void;
  /** The cards this socket shows: replaces its previous list (at most CARD_WATCH_MAX ids; [] for none). */
  'catalogue:watch': (auctionIds: string[], ack?: (res: Ack<{ auction_ids: string[] }>) => void) => void;
}

/** Messages a plain WebSocket client (`/api/ws`) sends. */
export type WsClientMessage =
  | { type: 'auth'; token: string }
  | { type: 'watch'; auction_id: string }
  | { type: 'unwatch'; auction_id: string }
  /** The cards this socket shows: replaces its previous list (`catalogue:watch`). */
  | { type: 'cards'; auction_ids: string[] };

/** Close code for a refused token on `/api/ws`. */
export const WS_CLOSE_UNAUTHENTICATED = 4401;
