import type { AdminStats } from '@auction/shared';
import { useCallback, useEffect, useRef } from 'react';
import { toast } from '../../../components/ui/toast/toast-store';
import { createResource, invalidate, useResource } from '../../../lib/resource';
import { onLive, onReconnect } from '../../live';
import { adminApi, useAdminAuctions } from '../../admin-auctions';

// A burst of bids arrives as many events; read again once after it settles.
const REFRESH_DELAY_MS = 300;
const ROOM_EVENTS = new Set(['bid:placed', 'bid:rolledback', 'product:sold', 'auction:ended', 'auction:settled']);

/** GET /admin/stats, the signed-in admin's numbers. */
const adminStats = createResource<void, AdminStats>('admin-stats', () => adminApi.stats());

// Live events of the admin's room change the numbers; events sent while the socket was down are lost
// (docs/live-protocol.md#reconnecting), so a reconnect reads them again.
onLive((e) => {
  if (ROOM_EVENTS.has(e.event)) invalidate(adminStats.name, REFRESH_DELAY_MS);
});
onReconnect(() => invalidate(adminStats.name));

/**
 * The admin's numbers, read again after this tab changes something (the auctions store's version, or
 * `refresh()` after a new product), after live events of the admin's room, and after a reconnect.
 */
export function useAdminStats(): { stats: AdminStats | null; loading: boolean; refresh: () => void } {
  // Only the first read complains; a failed refresh keeps the numbers shown.
  const complained = useRef(false);
  const { data, status, refetch } = useResource(adminStats, undefined, {
    onError: () => {
      if (complained.current || adminStats.get().data !== undefined) return;
      complained.current = true;
      toast.error('Failed to load dashboard stats.');
    },
  });

  const version = useAdminAuctions((s) => s.version);
  const shownVersion = useRef(version);
  useEffect(() => {
    if (version === shownVersion.current) return;
    shownVersion.current = version;
    void refetch();
  }, [version, refetch]);

  // An auction that ended or settled changes the auctions list too.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onLive((e) => {
      if (e.event !== 'auction:ended' && e.event !== 'auction:settled') return;
      clearTimeout(timer);
      timer = setTimeout(() => void useAdminAuctions.getState().load({ silent: true }), REFRESH_DELAY_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);

  const refresh = useCallback(() => void refetch(), [refetch]);
  return { stats: data ?? null, loading: status === 'idle' || status === 'loading', refresh };
}
