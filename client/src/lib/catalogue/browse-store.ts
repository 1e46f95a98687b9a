/**
 * Browse's server data: the auction cards a page at a time (GET /catalogue/auctions, keyset cursors),
 * the category tree (GET /categories) and one auction read by its id (for the products panel and the
 * bid dialog, which need its rules; a card carries none).
 *
 * Live cards (`catalogue:card`, for the ids this tab asked for with `watchCards`) patch the pages
 * shown. A read on its way may have been answered before the event, and an infinite query stores
 * the pages it read (the earlier ones as they were when it began) in one go when it ends; so every
 * change made while a query is reading is applied once more to what that read stores.
 */
import type { InfiniteData, QueryFunction, QueryKey } from '@tanstack/react-query';
import {
  AUCTION_PAGE_DEFAULT, type Auction, type AuctionCard, type AuctionSearchPage, type AuctionSort, type AuctionTab, type CardChangedData, type LotPage,
} from '@auction/shared';
import { ApiError, api } from '../api-client';
import { onCard, onLive, onReconnect, type LiveEvent } from '../live';
import { invalidateSoon, patchQueries, queryFamily } from '../live-query';
import { useServerQuery, type ServerState } from '../query';
import { queryClient } from '../query-client';
import { browseRoots } from '../query-keys';
import { auctionProducts } from './catalogue-store';
import { applyToAuctions, AUCTION_LIST_EVENTS, type AuctionListEvent } from './live-reducers';

/** What Browse shows: every one of them is kept in the page's URL. */
export interface BrowseParams {
  tab: AuctionTab;
  q: string;
  /** A category's slug ('' for all). */
  category: string;
  sort: AuctionSort;
  /** Only the auctions the signed-in bidder registered for. */
  registered: boolean;
}

export type BrowsePages = InfiniteData<AuctionSearchPage, string | null>;

/** Cards per page. */
export const BROWSE_PAGE_SIZE = AUCTION_PAGE_DEFAULT;

/** The caller's token when signed in (it fills `registered`); a visitor's reads carry none. */
const asUser = { as: 'user' } as const;

export const browseApi = {
  page: (p: BrowseParams, cursor: string | null, signal?: AbortSignal) => api.get<AuctionSearchPage>('/catalogue/auctions', {
    ...asUser,
    signal,
    query: {
      tab: p.tab,
      sort: p.sort,
      limit: BROWSE_PAGE_SIZE,
      q: p.q.trim() || undefined,
      category: p.category || undefined,
      registered: p.registered ? 1 : undefined,
      cursor: cursor ?? undefined,
    },
  }),
};

export const browseKey = (p: BrowseParams) => [...browseRoots.browseCards, p] as const;

/** The query options of Browse's pages for `p` (useServerInfiniteQuery). */
export function browseCardsOptions(p: BrowseParams) {
  const queryFn: QueryFunction<AuctionSearchPage, ReturnType<typeof browseKey>, string | null> = ({ pageParam, signal }) => browseApi.page(p, pageParam, signal);
  return {
    queryKey: browseKey(p),
    queryFn,
    initialPageParam: null as string | null,
    getNextPageParam: (last: AuctionSearchPage) => last.next_cursor,
  };
}

/** The cards of every page read, each once (a card that moved between pages under the bid sort is shown where it was first). */
export function cardsOf(data: Pick<BrowsePages, 'pages'> | undefined): AuctionCard[] {
  if (!data) return [];
  const seen = new Set<string>();
  const cards: AuctionCard[] = [];
  for (const page of data.pages) {
    for (const card of page.items) {
      if (seen.has(card.id)) continue;
      seen.add(card.id);
      cards.push(card);
    }
  }
  return cards;
}


type PageChange = (page: AuctionSearchPage, params: BrowseParams) => AuctionSearchPage;

/** Per query hash: the changes made while it was reading, applied again to what that read stores. */
const pending = new Map<string, PageChange[]>();

function applyToPages(data: BrowsePages, params: BrowseParams, changes: readonly PageChange[]): BrowsePages {
  let changed = false;
  const pages = data.pages.map((page) => {
    const next = changes.reduce((p, change) => change(p, params), page);
    if (next !== page) changed = true;
    return next;
  });
  return changed ? { ...data, pages } : data;
}

/** Applies `change` to every page of Browse this tab holds, and to what each read on its way will store. */
export function patchBrowsePages(change: PageChange): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: browseRoots.browseCards })) {
    const params = query.queryKey[1] as BrowseParams;
    if (query.state.fetchStatus === 'fetching') pending.set(query.queryHash, [...(pending.get(query.queryHash) ?? []), change]);
    const data = query.state.data as BrowsePages | undefined;
    if (!data) continue;
    const next = applyToPages(data, params, [change]);
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

queryClient.getQueryCache().subscribe((e) => {
  if (e.type !== 'updated' || e.query.state.fetchStatus !== 'idle') return;
  const changes = pending.get(e.query.queryHash);
  if (!changes) return;
  pending.delete(e.query.queryHash);
  // Only what a read stored needs them again (a read that failed or was cancelled stored nothing).
  if (e.action.type !== 'success' || e.action.manual) return;
  const data = e.query.state.data as BrowsePages | undefined;
  if (!data) return;
  const key = e.query.queryKey as QueryKey;
  const next = applyToPages(data, key[1] as BrowseParams, changes);
  if (next !== data) queryClient.setQueryData(key, next);
});

/** A card as the server now shows it (the caller's own `registered` kept), or gone (null). */
export function cardChange({ auction_id: id, card }: CardChangedData): PageChange {
  return (page, params) => {
    const index = page.items.findIndex((c) => c.id === id);
    const current = page.items[index];
    if (!current) return page;
    // Over (or gone): an auction leaves the open tabs; the Ended tab keeps it.
    const leaves = card === null || (params.tab !== 'ended' && card.status !== 'active');
    const items = page.items.slice();
    if (leaves) items.splice(index, 1);
    else items[index] = { ...card, registered: current.registered };
    return { ...page, items };
  };
}

/** The caller registered for an auction: its card says so. */
export function markCardRegistered(auctionId: string): void {
  patchBrowsePages((page) => (page.items.some((c) => c.id === auctionId && !c.registered)
    ? { ...page, items: page.items.map((c) => (c.id === auctionId ? { ...c, registered: true } : c)) }
    : page));
}

/**
 * One auction by its id, rules and all: its products (which the panel shows anyway) name a lot, whose
 * public page carries the auction. For an auction the loaded pages do not hold (a notice's link).
 */
export const auctionById = queryFamily<string, Auction>(browseRoots.auctionById, async (auctionId) => {
  const products = await auctionProducts.load(auctionId, { force: true });
  const first = products[0];
  if (!first) throw new ApiError(404, 'NOT_FOUND', { error: 'Auction not found' });
  const lot = await api.get<LotPage>(`/products/${encodeURIComponent(first.id)}`, asUser);
  if (lot.auction?.id !== auctionId) throw new ApiError(404, 'NOT_FOUND', { error: 'Auction not found' });
  return lot.auction;
});

/** Live events change an auction read by id as they change the list. */
function applyToAuction(auction: Auction, e: AuctionListEvent): Auction {
  return applyToAuctions([auction], e).find((a) => a.id === auction.id) ?? auction;
}

/** The caller registered for an auction read by id. */
export function markAuctionRegistered(auctionId: string, userId: number | undefined): void {
  auctionById.patch(auctionId, (a) => (a.registered ? a : {
    ...a,
    registered: true,
    registrations: userId === undefined || a.registrations.includes(userId) ? a.registrations : [...a.registrations, userId],
  }));
}

/** A change to one card by id (a card this tab does not show changes nothing). */
function changeCard(auctionId: string, change: (card: AuctionCard) => AuctionCard | null): PageChange {
  return (page, params) => {
    const current = page.items.find((c) => c.id === auctionId);
    if (!current) return page;
    const next = change(current);
    return cardChange({ auction_id: auctionId, card: next, server_time: '' })(page, params);
  };
}

/**
 * The events every socket (or the open auction's room) already hears move the cards too: an end moved,
 * an auction renamed, ended or deleted. Bids reach a card through `catalogue:card`, and a new auction
 * shows when the list is read.
 */
const CARD_EVENTS = ['auction:extended', 'auction:updated', 'auction:ended', 'auction:settled', 'auction:deleted'] as const;

function cardsFromEvent(e: LiveEvent<(typeof CARD_EVENTS)[number]>): PageChange {
  switch (e.event) {
    case 'auction:extended':
      return changeCard(e.data.auction_id, (c) => ({ ...c, valid_until: e.data.valid_until }));
    case 'auction:updated':
      return changeCard(e.data.id, (c) => ({ ...c, name: e.data.name, valid_until: e.data.valid_until, product_count: e.data.product_count, status: e.data.status }));
    case 'auction:ended':
    case 'auction:settled':
      return changeCard(e.data.auction_id, (c) => ({ ...c, status: e.event === 'auction:ended' ? 'ended' : 'settled' }));
    case 'auction:deleted':
      return changeCard(e.data.id, () => null);
  }
}

onCard((data) => patchBrowsePages(cardChange(data)));
onLive(CARD_EVENTS, (_data, e) => patchBrowsePages(cardsFromEvent(e)));
onLive(AUCTION_LIST_EVENTS, (_data, e) => patchQueries<Auction>({ queryKey: browseRoots.auctionById }, (a) => applyToAuction(a, e)));
// Cards changed while the socket was down are read again (the server replays nothing).
onReconnect(() => {
  invalidateSoon(browseRoots.browseCards);
  invalidateSoon(browseRoots.auctionById);
});

/** An auction by id for a component, kept current live. `read: false` follows what the tab has without reading. */
export function useAuctionById(auctionId: string | null, { read = true }: { read?: boolean } = {}): ServerState<Auction> {
  return useServerQuery(auctionById.options(auctionId ?? ''), { enabled: read && auctionId !== null });
}
