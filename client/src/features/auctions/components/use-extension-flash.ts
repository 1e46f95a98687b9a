import { useEffect, useRef, useState } from 'react';
import { useExtensions } from '../store/auctions-store';

/** How long the "Extended" mark flashes after an extension arrives. */
export const EXTENDED_FLASH_MS = 4000;

/**
 * Counts the extensions of `auctionId` that arrived live while the caller was mounted: 0 when none is
 * recent, else a number that changes with each new one (a `key` that restarts the flash animation);
 * back to 0 EXTENDED_FLASH_MS after the last.
 */
export function useExtensionFlash(auctionId: string): number {
  const count = useExtensions((s) => s.count[auctionId] ?? 0);
  const shown = useRef(count);
  const [flash, setFlash] = useState(0);

  useEffect(() => {
    if (shown.current === count) return;
    shown.current = count;
    setFlash((n) => n + 1);
  }, [count]);

  useEffect(() => {
    if (flash === 0) return;
    const timer = setTimeout(() => setFlash(0), EXTENDED_FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  return flash;
}
