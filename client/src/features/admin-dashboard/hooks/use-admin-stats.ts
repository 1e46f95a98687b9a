import type { AdminStats } from '@auction/shared';
import { useCallback, useRef } from 'react';
import { toast } from '../../../components/ui/toast/toast-store';
import { invalidateSoon } from '../../../lib/live-query';
import { queryClient } from '../../../lib/query-client';
import { useServerQuery } from '../../../lib/query';
import { onLive, onReconnect } from '../../../lib/live';
import { adminStatsQuery } from '../api/stats-api';

// A burst of bids arrives as many events; read again once after it settles.
const REFRESH_DELAY_MS = 300;

const statsKey = adminStatsQuery().queryKey;

// Live events of the admin's room change the numbers; events sent while the socket was down are lost
// (docs/live-protocol.md#reconnecting), so a reconnect reads them again.
onLive(['bid:placed', 'bid:rolledback', 'product:sold', 'auction:ended', 'auction:settled'], () => invalidateSoon(statsKey, REFRESH_DELAY_MS));
onReconnect(() => invalidateSoon(statsKey));

/**
 * The admin's numbers, read on mount, again after this page changes something (`refresh()` after a
 * new auction or product), after live events of the admin's room, and after a reconnect.
 */
export function useAdminStats(): { stats: AdminStats | null; loading: boolean; refresh: () => void } {
  // Only the first read complains; a failed refresh keeps the numbers shown.
  const complained = useRef(false);
  const { data, status, refetch } = useServerQuery(adminStatsQuery(), {
    onError: () => {
      if (complained.current || queryClient.getQueryData(statsKey) !== undefined) return;
      complained.current = true;
      toast.error('Failed to load dashboard stats.');
    },
  });

  const refresh = useCallback(() => void refetch(), [refetch]);
  return { stats: data ?? null, loading: status === 'idle' || status === 'loading', refresh };
}
