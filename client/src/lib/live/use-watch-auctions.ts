import { useEffect } from 'react';
import { useLive } from './live-store';

/**
 * Watches the given auctions live while the calling component is mounted (each once, however often it
 * is named), and stops when it unmounts or the set changes. The live store counts watchers per auction,
 * so several screens may watch the same one.
 */
export function useWatchAuctions(auctionIds: readonly string[]): void {
  const key = [...new Set(auctionIds)].sort().join('\0');
  useEffect(() => {
    if (key === '') return;
    const ids = key.split('\0');
    const { watch, unwatch } = useLive.getState();
    for (const id of ids) watch(id);
    return () => {
      for (const id of ids) unwatch(id);
    };
  }, [key]);
}
