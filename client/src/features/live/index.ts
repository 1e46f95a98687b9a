// The live feature's public surface: the socket store, its events and reconnects, the shared clock.
export { useLive, onLive, onReconnect, injectLiveEvent } from './store/live-store';
export { useWatchAuctions } from './store/use-watch-auctions';
export type { LiveEvent, LiveStatus } from './store/live-store';
export { useClock, holdClock, freezeClock } from './store/clock-store';
export { LiveConnection, LiveIndicator } from './components/LiveConnection';
