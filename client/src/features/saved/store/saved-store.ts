/**
 * Saved lots (docs/notifications.md#saved-lots): the caller's list (GET /saved, the `saved-lots` query)
 * and the star that adds and removes a lot. A toggle shows at once (optimistic), everywhere the lot is on
 * screen: the `saved` flag of the auction's products and of the lot page (through their query keys in
 * lib/query-keys.ts), and the saved list, are patched. Then the PUT or DELETE /saved/{id} mutation goes
 * out; a failure rolls back to what the server still has and toasts, and
 * each settled toggle marks the list stale so it is read again (with the caller's state on each lot).
 * One request per lot is on its way at a time: taps while it travels only move the state wanted, and
 * the next request (if any) goes when it lands, so the server ends where the last tap left it.
 */
import type { LotPage, Product, SavedLot } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import {
  applyToProducts, auctionById, auctionFactsChange, AUCTION_FACTS_EVENTS, PRODUCT_EVENTS, type AuctionFactsEvent, type ProductEvent,
} from '../../../lib/catalogue';
import { onLive, onReconnect } from '../../../lib/live';
import { invalidateSoon, patchQuery, viewOf } from '../../../lib/live-query';
import { runMutation, useServerQuery } from '../../../lib/query';
import { auctionProductsKey, lotPageKey, queryRoots } from '../../../lib/query-keys';
import { saveMutation, savedLots } from '../api/saved-api';

export { savedLots };

export const LOAD_FAILED = 'Failed to load your saved lots';
export const SAVE_FAILED = 'Failed to save lot';
export const UNSAVE_FAILED = 'Failed to remove saved lot';
/** Live news about a saved lot is confirmed by one re-read of the list after a burst settles. */
export const REFETCH_DELAY_MS = 300;



/** The saved list for a page: read on mount, a failed read of its own toasted. */
export function useSavedLots() {
  return useServerQuery(savedLots.options(), { onError: (err) => toast.error(errorText(err, LOAD_FAILED)) });
}

/** A lot as the star needs it: which one, what it is called, where it is sold and whether it is saved. */
export type SaveableLot = Pick<Product, 'id' | 'name' | 'auction_id'> & Partial<Product> & { auction?: SavedLot['auction'] };

interface Sync {
  /** What the server has, as far as this tab knows. */
  confirmed: boolean;
  /** What the last tap asked for (and what is shown). */
  wanted: boolean;
  lot: SaveableLot;
  /** Where the lot stood in the saved list when a tap took it out, to put it back there on failure. */
  index: number;
}

const syncs = new Map<string, Sync>();

/** Shows `saved` for the lot on every screen that has it: its auction's products and the saved list. */
function show(lot: SaveableLot, saved: boolean, index = 0): number {
  if (lot.auction_id !== null) {
    patchQuery<Product[]>(auctionProductsKey(lot.auction_id), (products) =>
      products.some((p) => p.id === lot.id && p.saved !== saved) ? products.map((p) => (p.id === lot.id ? { ...p, saved } : p)) : products);
  }
  patchQuery<LotPage>(lotPageKey(lot.id), (page) => (page.saved === saved ? page : { ...page, saved }));
  let removedAt = -1;
  savedLots.patch(undefined, (lots) => {
    const at = lots.findIndex((p) => p.id === lot.id);
    if (!saved) {
      removedAt = at;
      return at < 0 ? lots : lots.filter((p) => p.id !== lot.id);
    }
    // Only a full product shape whose auction this tab knows can be listed; another lot waits for the re-read.
    const auction = auctionOfLot(lot);
    if (at >= 0 || !isProduct(lot) || auction === undefined) return lots;
    const next = [...lots];
    next.splice(Math.min(index, next.length), 0, { ...lot, saved: true, auction });
    return next;
  });
  return removedAt;
}

function isProduct(lot: SaveableLot): lot is SaveableLot & Product {
  return typeof lot.highest_bid === 'number' && Array.isArray(lot.images);
}

/**
 * The lot's auction as the Saved page shows it, from what this tab has: the lot's own (a saved lot, a
 * lot page), or its auction as Browse read it by id, or its lot page's; undefined when none is known.
 */
function auctionOfLot(lot: SaveableLot): SavedLot['auction'] | undefined {
  if (lot.auction !== undefined) return lot.auction && pick(lot.auction);
  if (lot.auction_id === null) return null;
  const known = auctionById.get(lot.auction_id).data ?? viewOf<LotPage>(lotPageKey(lot.id)).data?.auction;
  return known && known.id === lot.auction_id ? pick(known) : undefined;
}

const pick = ({ id, name, valid_until, status }: NonNullable<SavedLot['auction']>) => ({ id, name, valid_until, status });

async function flush(id: string): Promise<void> {
  const s = syncs.get(id);
  if (!s) return;
  while (s.wanted !== s.confirmed) {
    const target = s.wanted;
    try {
      await runMutation(saveMutation, { id, saved: target });
      s.confirmed = target;
    } catch (err) {
      // The server still has what it had: show that again.
      s.wanted = s.confirmed;
      show(s.lot, s.confirmed, s.index);
      if (!isSessionEnded(err)) toast.error(errorText(err, target ? SAVE_FAILED : UNSAVE_FAILED));
      break;
    }
  }
  syncs.delete(id);
  // The server's word on the list, once no other toggle is on its way (a read now could undo it on screen).
  if (syncs.size === 0) invalidateSoon(queryRoots.savedLots);
}

/**
 * Saves or unsaves a lot: shown at once, then sent; rolled back with a toast if the server refuses.
 * `lot.saved` is what the screen showed before this tap.
 */
export function setSaved(lot: SaveableLot, saved: boolean): void {
  let s = syncs.get(lot.id);
  const idle = s === undefined;
  if (!s) {
    s = { confirmed: lot.saved === true, wanted: saved, lot, index: 0 };
    syncs.set(lot.id, s);
  }
  s.wanted = saved;
  s.lot = { ...s.lot, ...lot };
  const removedAt = show(lot, saved, s.index);
  if (removedAt >= 0) s.index = removedAt;
  if (idle) void flush(lot.id);
}

/** Flips a lot's star. */
export function toggleSaved(lot: SaveableLot): void {
  setSaved(lot, lot.saved !== true);
}

/** A lot's auction as an event leaves it: its end moved, renamed, ended or settled (the same list when nothing changes). */
function applyToSavedAuctions(lots: SavedLot[], e: AuctionFactsEvent): SavedLot[] {
  let changed = false;
  const next = lots.map((lot) => {
    const change = lot.auction && auctionFactsChange(e, lot.auction);
    if (!lot.auction || !change) return lot;
    changed = true;
    const { name = lot.auction.name, valid_until = lot.auction.valid_until, status = lot.auction.status } = change;
    return { ...lot, auction: { ...lot.auction, name, valid_until, status } };
  });
  return changed ? next : lots;
}

/**
 * Live news about a saved lot, folded into the list at once: another bidder's bid or cancellation moves
 * its price (the Saved page watches the auctions of its lots), a sale marks it sold, and personal news
 * (outbid, reinstated, won) changes the caller's state. News that touches the caller's own state is
 * confirmed by one re-read of the list after the burst settles.
 */
function applySavedProductEvent(e: ProductEvent): void {
  const { auction_id: auctionId, product_id: productId } = e.data;
  const lots = savedLots.get().data;
  if (!lots?.some((p) => p.id === productId && p.auction_id === auctionId)) return;
  savedLots.patch(undefined, (list) => applyToProducts(auctionId, list, e));
  if (e.event !== 'bid:placed' && e.event !== 'bid:rolledback') invalidateSoon(queryRoots.savedLots, REFETCH_DELAY_MS);
}

// A saved lot's auction: its end moved, its renaming, end or settlement show in its auction line.
onLive(AUCTION_FACTS_EVENTS, (_data, e) => savedLots.patch(undefined, (lots) => applyToSavedAuctions(lots, e)));
onLive(PRODUCT_EVENTS, (_data, e) => applySavedProductEvent(e));
onReconnect(() => invalidateSoon(queryRoots.savedLots, REFETCH_DELAY_MS));
