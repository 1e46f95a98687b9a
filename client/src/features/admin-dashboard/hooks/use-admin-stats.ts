import type { AdminStats } from '@auction/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../components/ui/toast/toast-store';
import { isSessionEnded } from '../../../lib/api-client';
import { onLive, onReconnect } from '../../live';
import { adminApi, useAdminAuctions } from '../../admin-auctions';

// A burst of bids arrives as many events; refetch once after it settles.
const REFRESH_DELAY_MS = 300;
const ROOM_EVENTS = new Set(['bid:placed', 'bid:rolledback', 'product:sold', 'auction:ended', 'auction:settled']);

/**
 * GET /admin/stats, read again after this tab changes something (the auctions store's version, or
 * `refresh()` after a new product), after live events of the admin's room, and after a reconnect (the
 * events sent while the socket was down are lost: docs/live-protocol.md#reconnecting).
 */
export function useAdminStats(): { stats: AdminStats | null; loading: boolean; refresh: () => void } {
  const [stats, setStats] = useState<AdminStats | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const version = useAdminAuctions((s) => s.version);
  const first = useRef(true);

  useEffect(() => {
    const ctrl = new AbortController();
    adminApi.stats(ctrl.signal).then((s) => {
      setStats(s);
      setLoading(false);
    }, (err: unknown) => {
      if (ctrl.signal.aborted) return;
      setLoading(false);
      // Only the first read complains; a failed refresh keeps the numbers shown.
      if (first.current && !isSessionEnded(err)) toast.error('Failed to load dashboard stats.');
    }).finally(() => {
      // An aborted read (unmount, or StrictMode's second mount) was not the first one that counts.
      if (!ctrl.signal.aborted) first.current = false;
    });
    return () => ctrl.abort();
  }, [version, tick]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onLive((e) => {
      if (!ROOM_EVENTS.has(e.event)) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        setTick((n) => n + 1);
        if (e.event === 'auction:ended' || e.event === 'auction:settled') void useAdminAuctions.getState().load({ silent: true });
      }, REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);

  useEffect(() => onReconnect(() => setTick((n) => n + 1)), []);

  const refresh = useCallback(() => setTick((n) => n + 1), []);
  return { stats, loading, refresh };
}
