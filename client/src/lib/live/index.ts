// The live connection and the server-corrected clock: infrastructure every feature may use.
export { useLive, onLive, onReconnect, onCard, injectLiveEvent, exhaustive } from './live-store';
export { useWatchAuctions } from './use-watch-auctions';
export type { LiveEvent, LiveStatus } from './live-store';
export { useClock, holdClock, freezeClock } from './clock-store';
