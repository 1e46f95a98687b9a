// The live feature's public surface: the connection component, the indicator and the new-version notice
// the app shell mounts (the socket store, its events and the clock are infrastructure: lib/live).
export { LiveConnection, LiveIndicator, NewVersionNotice } from './components/LiveConnection';
