import { useClock } from '../../../lib/live';
import { secondsLeft } from '../../../lib/format';

/** Seconds until `validUntil` on the shared server-corrected clock; re-renders once a second at most. */
export function useSecondsLeft(validUntil: string | undefined): number {
  return useClock((s) => (validUntil === undefined ? 0 : secondsLeft(validUntil, s.now)));
}
