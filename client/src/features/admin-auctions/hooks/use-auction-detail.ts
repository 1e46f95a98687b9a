/**
 * One auction for the detail page: the auction, its products and every product's history (bids and
 * automatic raises) merged newest first, read as the `auctionDetailQuery` of api/queries.ts. The
 * admin room's live events (only the creator's sockets get them) fold in with `patchQuery`, which
 * applies them to the reply on its way too (a read started before them); a reconnect reads the page
 * shown again (events sent while the socket was down are lost: docs/live-protocol.md#reconnecting), and
 * a failed re-read keeps it as shown; the session store's reset forgets it.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { AdminAuction, Settled } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { invalidateSoon, patchQuery } from '../../../lib/live-query';
import { useServerQuery } from '../../../lib/query';
import { queryClient } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { onLive, onReconnect } from '../../../lib/live';
import { adminApi } from '../api/admin-api';
import { adminAuctionsKey, auctionDetailKey, auctionDetailQuery } from '../api/queries';
import { DETAIL_EVENTS, detailReducer, toFeed, type DetailAction, type DetailData } from '../lib/live-feed';

export type DetailStatus = 'loading' | 'ready' | 'not-found' | 'error';

export interface AuctionDetail {
  status: DetailStatus;
  data: DetailData | null;
  /** The signed-in admin created this auction: live feed with usernames, and the Edit button. */
  isCreator: boolean;
  /** After an edit: show the saved auction and re-read its products. */
  replaceAuction: (auction: AdminAuction) => void;
  /** After a settle: its answer (and the auction read back, if it could be) folded into the page. */
  settled: (answer: Settled, auction: AdminAuction | null) => void;
}

/** Folds one change into the page shown and into the reply on its way. */
const fold = (auctionId: string, action: DetailAction) =>
  patchQuery<DetailData>(auctionDetailKey(auctionId), (d) => detailReducer(d, action) ?? d);

/** The auction's products read again and folded in (a failure keeps what is shown). */
function rereadProducts(auctionId: string) {
  adminApi.products(auctionId).then((products) => fold(auctionId, { type: 'products', products }), () => undefined);
}

const isNotFound = (err: unknown) => err instanceof ApiError && err.status === 404;

onReconnect(() => invalidateSoon([...adminAuctionsKey, 'detail']));

/** The detail page's data: read on mount (a page read before shows at once), live events folded in. */
export function useAuctionDetail(auctionId: string): AuctionDetail {
  const adminId = useSession((s) => s.admin?.id);
  // One toast per failure: StrictMode's two mounts share one read and get the same error.
  const toasted = useRef<unknown>(undefined);
  const { data, status, error } = useServerQuery(auctionDetailQuery(auctionId), {
    onError: (err) => {
      if (err === toasted.current) return;
      toasted.current = err;
      if (isNotFound(err)) toast.error('Auction not found');
      // A failed re-read of a page shown keeps it, quietly.
      else if (queryClient.getQueryData(auctionDetailKey(auctionId)) === undefined) toast.error(errorText(err, 'Failed to load auction data'));
    },
  });

  useEffect(() => onLive(DETAIL_EVENTS, (data, e) => {
    if (data.auction_id !== auctionId) return;
    fold(auctionId, { type: 'live', event: e });
    // A sale names no winner: read the products again for it (their `winner`).
    if (e.event === 'product:sold' || e.event === 'auction:settled') rereadProducts(auctionId);
    // A cancelled lead may reinstate an older bid, and a buy-now is a bid no event names: read that product's history again.
    if (e.event === 'bid:rolledback' || (e.event === 'product:sold' && e.data.buy_now)) {
      const productId = e.data.product_id;
      adminApi.lotHistory(productId).then(
        (page) => fold(auctionId, { type: 'bids', productId, bids: toFeed(productId, auctionId, page.bids) }),
        () => undefined,
      );
    }
  }), [auctionId]);

  const replaceAuction = useCallback((auction: AdminAuction) => {
    fold(auctionId, { type: 'auction', auction });
    invalidateSoon(auctionDetailKey(auctionId));
  }, [auctionId]);

  const settled = useCallback((answer: Settled, auction: AdminAuction | null) => {
    fold(auctionId, { type: 'settled', answer, auction });
    rereadProducts(auctionId);
  }, [auctionId]);

  const shown: DetailStatus = isNotFound(error) ? 'not-found' : data !== undefined ? 'ready' : status === 'error' ? 'error' : 'loading';
  return { status: shown, data: data ?? null, isCreator: data !== undefined && adminId !== undefined && data.auction.created_by === adminId, replaceAuction, settled };
}
