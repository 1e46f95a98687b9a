/**
 * The caller's bids (GET /user-bids) as a query, shared by My Bids, the dashboard and the live
 * notifications (a product's name). Personal live events patch the affected row at once and a quiet
 * re-read confirms it, so a row turning Outbid, Active or Won updates in place; an auction's end moved,
 * edited, ended or settled moves its rows' `auction_*` fields (whether Cancel is offered); a reconnect
 * invalidates the list.
 */
import type { UserBid } from '@auction/shared';
import { toast } from '../../components/ui/toast/toast-store';
import { api, errorText } from '../api-client';
import { onLive, onReconnect } from '../live';
import { invalidateSoon, queryFamily } from '../live-query';
import { useServerQuery, type ServerState } from '../query';
import { queryRoots } from '../query-keys';
import { applyBidEvent, BID_EVENTS, isBidEvent, type BidEvent } from './bids-model';

export const LOAD_FAILED = 'Failed to load your bids';
/** Live patches are confirmed by one re-read after a burst of events settles. */
export const REFETCH_DELAY_MS = 300;

/** The caller's bids, newest first; a body of another shape reads as none. */
export async function fetchUserBids(signal?: AbortSignal): Promise<UserBid[]> {
  const data = await api.get<unknown>('/user-bids', { as: 'user', signal });
  return Array.isArray(data) ? (data as UserBid[]) : [];
}

/** The caller's bids, newest first. */
export const myBids = queryFamily<void, UserBid[]>(queryRoots.myBids, () => fetchUserBids());

/** The caller's bids for a page: read on mount, a failed read of its own toasted unless `silent`. */
export function useMyBids({ silent = false }: { silent?: boolean } = {}): ServerState<UserBid[]> {
  return useServerQuery(myBids.options(), { onError: silent ? undefined : (err) => toast.error(errorText(err, LOAD_FAILED)) });
}

/** The bids this tab knows, for lookups outside React (no read). */
export function knownBids(): UserBid[] {
  return myBids.get().data ?? [];
}

/** The list read again shortly (a cancel's answer, a refusal). */
export function rereadMyBids(): void {
  invalidateSoon(queryRoots.myBids, REFETCH_DELAY_MS);
}

/** Applies one live event to the list (exported for tests; the module listens by itself). */
export function handleBidsLiveEvent(e: BidEvent): void {
  myBids.patch(undefined, (bids) => applyBidEvent(bids, e));
  if (isBidEvent(e)) rereadMyBids();
}

onLive(BID_EVENTS, (_data, e) => handleBidsLiveEvent(e));
// Outbid, reinstated or won while the socket was down: the re-read shows it (docs/live-protocol.md#reconnecting).
onReconnect(() => rereadMyBids());
