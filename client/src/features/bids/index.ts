// The bids feature's public surface: the dashboard and other pages import from here only.
export { useBids } from './store/bids-store';
export type { BidsState, ActionResult } from './store/bids-store';
export { bidStats, bidStatusNote, applyBidEvent } from './model';
export type { BidStats } from './model';
export { MyBidsPage } from './components/MyBidsPage';
