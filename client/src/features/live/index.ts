// The live feature's public surface: the connection component and indicator the app shell mounts. The
// socket store, its events and the clock are infrastructure in lib/live; they are re-exported here only
// for the admin pages, which still import them from this feature.
export { useLive, onLive, onReconnect, injectLiveEvent, useWatchAuctions, useClock, holdClock, freezeClock } from '../../lib/live';
export type { LiveEvent, LiveStatus } from '../../lib/live';
export { LiveConnection, LiveIndicator, NewVersionNotice } from './components/LiveConnection';
