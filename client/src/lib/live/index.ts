// The live connection and the server-corrected clock: infrastructure every feature may use.
export { useLive, onLive, onReconnect, onCard, injectLiveEvent, isLiveEvent } from './live-store';
export { useWatchAuctions } from './use-watch-auctions';
export type { LiveData, LiveEvent, LiveEventName, LiveHandler, LiveStatus } from './live-store';
export { useClock, holdClock, freezeClock } from './clock-store';
