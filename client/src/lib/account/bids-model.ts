/**
 * The pure rules of the My Bids screen: its numbers (docs/money.md) and how live events move a row.
 * A bid's full status is its `state`; `status` is the spec's three (docs/money.md#bid-statuses-on-the-wire),
 * kept in step with it by every change made here.
 */
import { toPaise, toRupees, wireBidStatus, type BidStatus, type UserBid } from '@auction/shared';
import { AUCTION_FACTS_EVENTS, auctionFactsChange, type AuctionFactsEvent } from '../catalogue/auction-facts';
import { isLiveEvent, type LiveEvent } from '../live';

export interface BidStats {
  total: number;
  active: number;
  failedOrCancelled: number;
  /** Rupees held by leading bids plus rupees paid for won ones. */
  totalAmount: number;
}

// Statuses that are neither failed nor cancelled (unsold: led at the close below the reserve, refunded);
// anything else (an unknown one too) reads as failed.
const NOT_FAILED: ReadonlySet<string> = new Set(['success', 'outbid', 'won', 'unsold']);

/** Total = all rows; Active = success; Failed / Cancelled = failed + rolledback (+ unknown); Amount = Σ success + won. */
export function bidStats(bids: readonly UserBid[]): BidStats {
  let active = 0;
  let failedOrCancelled = 0;
  let paise = 0;
  for (const b of bids) {
    if (b.state === 'success') active += 1;
    if (!NOT_FAILED.has(b.state)) failedOrCancelled += 1;
    if (b.state === 'success' || b.state === 'won') paise += toPaise(b.amount);
  }
  return { total: bids.length, active, failedOrCancelled, totalAmount: toRupees(paise) };
}

const REASONS: Record<string, string> = {
  BID_TOO_LOW: 'Bid was too low',
  INSUFFICIENT_FUNDS: 'Not enough wallet balance',
  NOT_REGISTERED: 'Not registered for this auction',
  AUCTION_ENDED: 'Auction had already ended',
  AUCTION_SETTLED: 'Auction was already settled',
  PRODUCT_SOLD: 'Product was already sold',
  ACCOUNT_INACTIVE: 'Account was inactive',
  CANCELLED: 'Refunded',
  PRODUCT_DELETED: 'Product withdrawn · refunded',
  AUCTION_DELETED: 'Auction deleted · refunded',
};

/** The small text under a status badge: why a bid failed or was released; nothing when it says nothing new. */
export function bidStatusNote(bid: Pick<UserBid, 'state' | 'reason'>): string | null {
  // Outbid, or leading at the close below the reserve (the badge says Reserve not met): the hold came back.
  if (bid.state === 'outbid' || bid.state === 'unsold') return 'Refunded';
  if (bid.state === 'success' || bid.state === 'won') return null;
  if (!bid.reason) return bid.state === 'rolledback' ? 'Refunded' : null;
  return REASONS[bid.reason] ?? humanize(bid.reason);
}

function humanize(code: string): string {
  const words = code.toLowerCase().replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : code;
}

/** A row with its full status `state` (and `status`, the spec's word for it, with it). */
export function withState<B extends Pick<UserBid, 'state' | 'status'>>(bid: B, state: BidStatus): B {
  return { ...bid, state, status: wireBidStatus(state) };
}

function patchWhere(bids: UserBid[], match: (b: UserBid) => boolean, state: BidStatus): UserBid[] {
  let changed = false;
  const next = bids.map((b) => {
    if (!match(b)) return b;
    changed = true;
    return { ...withState(b, state), reason: null };
  });
  return changed ? next : bids;
}

/** An auction's end, status or cancel policy changed live: every row of that auction follows (whether Cancel is offered). */
function patchAuction(bids: UserBid[], e: AuctionFactsEvent): UserBid[] {
  let changed = false;
  const next = bids.map((b) => {
    const change = auctionFactsChange(e, { id: b.auction_id, valid_until: b.auction_valid_until, status: b.auction_status });
    if (change === null) return b;
    changed = true;
    return {
      ...b,
      auction_valid_until: change.valid_until ?? b.auction_valid_until,
      auction_status: change.status ?? b.auction_status,
      auction_cancel_policy: change.cancel_policy ?? b.auction_cancel_policy,
    };
  });
  return changed ? next : bids;
}

/** The events that move the caller's rows: the personal ones about their bids, and an auction's facts. */
export const BID_EVENTS = ['bid:outbid', 'bid:reinstated', 'bid:won', ...AUCTION_FACTS_EVENTS] as const;
export type BidEvent = LiveEvent<(typeof BID_EVENTS)[number]>;

/**
 * How a live event moves the caller's rows (docs/money.md, docs/live-protocol.md); the same array when nothing
 * matches. Personal events: outbid: the leading bid on that product → outbid. reinstated: the outbid bid
 * of that amount → success. won: the leading bid → won. An auction's end moved (soft close), edited,
 * ended or settled: its rows' `auction_*` fields follow. Other events leave the rows as they are.
 */
export function applyBidEvent(bids: UserBid[], e: LiveEvent): UserBid[] {
  if (!isLiveEvent(e, BID_EVENTS)) return bids;
  switch (e.event) {
    case 'bid:outbid': {
      const { auction_id, product_id } = e.data;
      return patchWhere(bids, (b) => b.state === 'success' && b.product_id === product_id && b.auction_id === auction_id, 'outbid');
    }
    case 'bid:reinstated': {
      const { auction_id, product_id, amount } = e.data;
      const cents = toPaise(amount);
      // Only one of the caller's outbid bids on a product can have that amount: each accepted bid beat the one before.
      return patchWhere(bids, (b) => b.state === 'outbid' && b.product_id === product_id && b.auction_id === auction_id && toPaise(b.amount) === cents, 'success');
    }
    case 'bid:won': {
      const { auction_id, product_id } = e.data;
      return patchWhere(bids, (b) => b.state === 'success' && b.product_id === product_id && b.auction_id === auction_id, 'won');
    }
    case 'auction:extended':
    case 'auction:updated':
    case 'auction:ended':
    case 'auction:settled':
      return patchAuction(bids, e);
  }
}

/** The events after which the list is re-read from the server to confirm the patch. */
export function isBidEvent(e: BidEvent): boolean {
  return e.event === 'bid:outbid' || e.event === 'bid:reinstated' || e.event === 'bid:won';
}
