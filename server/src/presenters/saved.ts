/** A bidder's saved lots as `GET /saved` lists them (docs/notifications.md#saved-lots). */
import type { SavedLot } from '@auction/shared';
import type { MyStanding, ProductView } from '../db/index.js';
import { presentProduct } from './catalogue.js';
import { auctionStatus, iso } from './format.js';

/** The lot as every product shape shows it to its bidder, with its auction's name, end and status at `now`. */
export function presentSavedLot(p: ProductView, standing: MyStanding | null, now: number): SavedLot {
  const { auctionId, auctionName, auctionValidUntil, auctionSettledAt } = p;
  return {
    ...presentProduct(p, { standing, saved: true }),
    auction: auctionId === null || auctionName === null || auctionValidUntil === null ? null : {
      id: auctionId, name: auctionName, valid_until: iso(auctionValidUntil), status: auctionStatus({ validUntil: auctionValidUntil, settledAt: auctionSettledAt }, now),
    },
  };
}
