/**
 * What a live event says about one auction's facts that other shapes carry beside their own (a bid's
 * `auction_*` fields, a saved lot's `auction`): its end, its status, its name and its cancel policy.
 * The rules are those of the auction list's reducer (live-reducers.ts): an end only moves later by an
 * extension, an auction stops at the moment the server said so, and a settled one stays settled.
 */
import type { AuctionStatus, CancelPolicy } from '@auction/shared';
import type { LiveEvent } from '../live';

export interface AuctionFacts {
  name: string;
  valid_until: string;
  status: AuctionStatus;
  cancel_policy: CancelPolicy;
}

/** What is shown of the auction now. */
export interface KnownAuction {
  id: string;
  valid_until: string;
  status: AuctionStatus;
}

/** The end shown, or the moment the server said the auction ended if that is earlier (settled early). */
function endedAt(current: KnownAuction, serverTime: string): string {
  const at = Date.parse(serverTime);
  return Number.isFinite(at) && at < Date.parse(current.valid_until) ? new Date(at).toISOString() : current.valid_until;
}

/** The events that may change an auction's facts. */
export const AUCTION_FACTS_EVENTS = ['auction:updated', 'auction:extended', 'auction:ended', 'auction:settled'] as const;
export type AuctionFactsEvent = LiveEvent<(typeof AUCTION_FACTS_EVENTS)[number]>;

/** The facts of `current` that `e` changes; null when it changes none of them (another auction, or nothing new). */
export function auctionFactsChange(e: AuctionFactsEvent, current: KnownAuction): Partial<AuctionFacts> | null {
  switch (e.event) {
    case 'auction:updated': {
      const d = e.data;
      if (d.id !== current.id) return null;
      return { name: d.name, valid_until: d.valid_until, status: current.status === 'settled' ? 'settled' : d.status, cancel_policy: d.cancel_policy };
    }
    case 'auction:extended':
      // The room event or the catalogue one (which carries the whole summary): either moves the end, later only.
      return e.data.auction_id === current.id && Date.parse(e.data.valid_until) > Date.parse(current.valid_until) ? { valid_until: e.data.valid_until } : null;
    case 'auction:ended':
      if (e.data.auction_id !== current.id || current.status !== 'active') return null;
      return { status: 'ended', valid_until: endedAt(current, e.data.server_time) };
    case 'auction:settled':
      if (e.data.auction_id !== current.id || current.status === 'settled') return null;
      return { status: 'settled', valid_until: endedAt(current, e.data.server_time) };
  }
}
