// The bids feature's public surface: the dashboard and other pages import from here only.
export { myBids, useMyBids, knownBids, useBidCancel } from './store/bids-store';
export type { BidCancelState, ActionResult } from './store/bids-store';
export { bidStats, bidStatusNote, applyBidEvent } from '../../lib/account/bids-model';
export type { BidStats } from '../../lib/account/bids-model';
export { MyBidsPage } from './components/MyBidsPage';
