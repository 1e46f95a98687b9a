import type { AdminStats } from '@auction/shared';
import { useCallback, useRef } from 'react';
import { toast } from '../../../components/ui/toast/toast-store';
import { createResource, invalidate, useResource } from '../../../lib/resource';
import { onLive, onReconnect } from '../../live';
import { fetchAdminStats } from '../api/stats-api';

// A burst of bids arrives as many events; read again once after it settles.
const REFRESH_DELAY_MS = 300;
const ROOM_EVENTS = new Set(['bid:placed', 'bid:rolledback', 'product:sold', 'auction:ended', 'auction:settled']);

/** GET /admin/stats, the signed-in admin's numbers. */
const adminStats = createResource<void, AdminStats>('admin-stats', () => fetchAdminStats());

// Live events of the admin's room change the numbers; events sent while the socket was down are lost
// (docs/live-protocol.md#reconnecting), so a reconnect reads them again.
onLive((e) => {
  if (ROOM_EVENTS.has(e.event)) invalidate(adminStats.name, REFRESH_DELAY_MS);
});
onReconnect(() => invalidate(adminStats.name));

/**
 * The admin's numbers, read on mount, again after this page changes something (`refresh()` after a
 * new auction or product), after live events of the admin's room, and after a reconnect.
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

  const refresh = useCallback(() => void refetch(), [refetch]);
  return { stats: data ?? null, loading: status === 'idle' || status === 'loading', refresh };
}
