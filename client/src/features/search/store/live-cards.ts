/**
 * The Search page's cards kept live: the page watches the auctions of its lots, and their rooms' bids,
 * cancellations and sales are folded into the cards in the query cache (docs/live-protocol.md). A card
 * keeps the version of the last event applied to it, so an older frame changes nothing. A page still
 * on its way may have been read before an event: the event is kept for it and applied to its reply.
 */
import type { InfiniteData } from '@tanstack/react-query';
import { onLive, onReconnect, type LiveEvent } from '../../../lib/live';
import { invalidateSoon, patchQueries } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';
import type { ShownLot } from '../model';

interface PageLike { items: ShownLot[] }

/** The events folded into the cards. */
const FOLDED = ['bid:placed', 'bid:rolledback', 'product:sold', 'auction:extended'] as const;
export type FoldedEvent = LiveEvent<(typeof FOLDED)[number]>;

/** One live event folded into one card (the same object when it changes nothing). */
export function foldLot(lot: ShownLot, e: FoldedEvent): ShownLot {
  switch (e.event) {
    case 'bid:placed':
    case 'bid:rolledback': {
      const d = e.data;
      if (d.product_id !== lot.id || (lot.version !== undefined && d.version <= lot.version)) return lot;
      return {
        ...lot, version: d.version, highest_bid: d.highest_bid, bid_count: d.bid_count, min_next_bid: d.min_next_bid,
        buy_now_price: d.buy_now_available ? (lot.listed_buy_now ?? null) : null,
      };
    }
    case 'product:sold': {
      const d = e.data;
      if (d.product_id !== lot.id || (lot.version !== undefined && d.version <= lot.version)) return lot;
      return { ...lot, version: d.version, sold: true, highest_bid: d.amount, buy_now_price: null };
    }
    case 'auction:extended': {
      const d = e.data;
      if (d.auction_id !== lot.auction.id || Date.parse(d.valid_until) <= Date.parse(lot.auction.valid_until)) return lot;
      return { ...lot, auction: { ...lot.auction, valid_until: d.valid_until } };
    }
  }
}

function foldLots(items: ShownLot[], e: FoldedEvent): ShownLot[] {
  let changed = false;
  const next = items.map((lot) => {
    const folded = foldLot(lot, e);
    if (folded !== lot) changed = true;
    return folded;
  });
  return changed ? next : items;
}

/** One event folded into every page of a search (the same object when it changes nothing). */
export function foldPages<P extends PageLike>(data: InfiniteData<P, unknown>, e: FoldedEvent): InfiniteData<P, unknown> {
  let changed = false;
  const pages = data.pages.map((page) => {
    const items = foldLots(page.items, e);
    if (items === page.items) return page;
    changed = true;
    return { ...page, items };
  });
  return changed ? { ...data, pages } : data;
}

/** The events that arrived while each page read was on its way. */
const reading = new Set<FoldedEvent[]>();

/** Starts keeping the events for a page read; `done()` when its reply has been folded. */
export function readingPage(): { events: FoldedEvent[]; done: () => void } {
  const events: FoldedEvent[] = [];
  reading.add(events);
  return { events, done: () => reading.delete(events) };
}

/** A page's reply with the events that arrived while it travelled. */
export function foldPending(items: ShownLot[], pending: { events: FoldedEvent[] }): ShownLot[] {
  return pending.events.reduce(foldLots, items);
}

export function handleSearchLiveEvent(e: FoldedEvent): void {
  for (const events of reading) events.push(e);
  patchQueries<InfiniteData<PageLike, unknown>>({ queryKey: queryRoots.lotSearch }, (data) => foldPages(data, e));
}

onLive(FOLDED, (_data, e) => handleSearchLiveEvent(e));
// Nothing is replayed after a drop: the search on screen is read again.
onReconnect(() => invalidateSoon(queryRoots.lotSearch));
