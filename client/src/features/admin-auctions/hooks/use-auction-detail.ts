import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { AdminAuction } from '@auction/shared';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText, isSessionEnded } from '../../../lib/api-client';
import { useSession } from '../../auth';
import { onLive, onReconnect, type LiveEvent } from '../../live';
import { adminApi } from '../api/admin-api';
import { detailReducer, mergeFeeds, toFeed, type DetailData } from '../lib/live-feed';

export type DetailStatus = 'loading' | 'ready' | 'not-found' | 'error';

export interface AuctionDetail {
  status: DetailStatus;
  data: DetailData | null;
  /** The signed-in admin created this auction: live feed with usernames, and the Edit button. */
  isCreator: boolean;
  /** After an edit: show the saved auction and re-read its products. */
  replaceAuction: (auction: AdminAuction) => void;
}

/**
 * One auction for the detail page: the auction, its products and every product's bids merged newest
 * first; then the admin room's live events (only the creator's sockets get them) fold in. After a
 * reconnect all three are read again (events sent while the socket was down are lost:
 * docs/live-protocol.md#reconnecting).
 */
export function useAuctionDetail(auctionId: string): AuctionDetail {
  const adminId = useSession((s) => s.admin?.id);
  const [data, dispatch] = useReducer(detailReducer, null);
  const [status, setStatus] = useState<DetailStatus>('loading');
  const [reload, setReload] = useState(0);
  // Events that arrive while the page loads are replayed over what the load returns.
  const buffer = useRef<LiveEvent[] | null>(null);
  // The auction whose data is shown, and whether the next read is a reconnect's (which keeps it if it fails).
  const shown = useRef<string | null>(null);
  const quiet = useRef(false);

  useEffect(() => {
    const ctrl = new AbortController();
    const { signal } = ctrl;
    buffer.current = [];
    const keepOnFailure = quiet.current && shown.current === auctionId;
    quiet.current = false;
    if (reload === 0) {
      shown.current = null;
      setStatus('loading');
    }
    /** A failed re-read leaves the page as it is, with the events that arrived meanwhile. */
    const keepShown = () => {
      for (const e of buffer.current ?? []) dispatch({ type: 'live', event: e });
      buffer.current = null;
    };
    void (async () => {
      let auction: AdminAuction;
      try {
        auction = await adminApi.auction(auctionId, signal);
      } catch (err) {
        if (signal.aborted) return;
        const notFound = err instanceof ApiError && err.status === 404;
        if (keepOnFailure && !notFound) {
          keepShown();
          return;
        }
        if (notFound) {
          setStatus('not-found');
          toast.error('Auction not found');
        } else {
          setStatus('error');
          if (!isSessionEnded(err)) toast.error(errorText(err, 'Failed to load auction data'));
        }
        return;
      }
      try {
        const products = await adminApi.products(auctionId, signal);
        const bids = await Promise.all(products.map((p) => adminApi.bids(p.id, signal).then((list) => toFeed(p.id, auction.id, list), () => [])));
        if (signal.aborted) return;
        dispatch({ type: 'loaded', data: { auction, products, feed: mergeFeeds(...bids) } });
        for (const e of buffer.current ?? []) dispatch({ type: 'live', event: e });
        buffer.current = null;
        shown.current = auctionId;
        setStatus('ready');
      } catch (err) {
        if (signal.aborted) return;
        if (keepOnFailure) {
          keepShown();
          return;
        }
        setStatus('error');
        if (!isSessionEnded(err)) toast.error(errorText(err, 'Failed to load auction data'));
      }
    })();
    return () => ctrl.abort();
  }, [auctionId, reload]);

  useEffect(() => {
    const ctrl = new AbortController();
    const stop = onLive((e) => {
      if (!('auction_id' in e.data) || e.data.auction_id !== auctionId) return;
      if (buffer.current) {
        buffer.current.push(e);
        return;
      }
      dispatch({ type: 'live', event: e });
      // A cancelled lead may reinstate an older bid: read that product's bids again.
      if (e.event === 'bid:rolledback') {
        const productId = e.data.product_id;
        adminApi.bids(productId, ctrl.signal).then(
          (list) => dispatch({ type: 'bids', productId, bids: toFeed(productId, auctionId, list) }),
          () => undefined,
        );
      }
    });
    return () => {
      stop();
      ctrl.abort();
    };
  }, [auctionId]);

  useEffect(() => onReconnect(() => {
    quiet.current = true;
    setReload((n) => n + 1);
  }), []);

  const replaceAuction = useCallback((auction: AdminAuction) => {
    dispatch({ type: 'auction', auction });
    setReload((n) => n + 1);
  }, []);

  return { status, data, isCreator: data !== null && adminId !== undefined && data.auction.created_by === adminId, replaceAuction };
}
