// The live feature's public surface: the socket store, its events, the shared clock.
export { useLive, onLive, injectLiveEvent } from './store/live-store';
export type { LiveEvent, LiveStatus } from './store/live-store';
export { useClock, holdClock } from './store/clock-store';
export { LiveConnection, LiveIndicator } from './components/LiveConnection';
