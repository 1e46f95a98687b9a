import type { ReactNode } from 'react';
import { LotStarSlot, type LotStar } from '../features/auctions';
import { SaveStar } from '../features/saved';

/** The saved feature's star on the auctions feature's lot rows and lot page. */
const saveStar: LotStar = (lot, className) => <SaveStar lot={lot} className={className} />;

/**
 * Where features meet: one feature's pieces handed to another's slots. Features never import each
 * other; the app shell composes them here.
 */
export function FeatureSlots({ children }: { children: ReactNode }) {
  return <LotStarSlot.Provider value={saveStar}>{children}</LotStarSlot.Provider>;
}
