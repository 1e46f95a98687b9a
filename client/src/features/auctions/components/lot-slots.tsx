import { createContext, useContext, type ReactNode } from 'react';
import type { Product } from '@auction/shared';

/**
 * What another feature adds to a lot's row and page (the save star), composed by the app shell
 * (client/src/app): features never import each other. Nothing is rendered when no slot is provided.
 */
export type LotStar = (lot: Product, className: string) => ReactNode;

export const LotStarSlot = createContext<LotStar | null>(null);

/** The lot's star as the app composed it (null without one). */
export function LotStarOf({ lot, className }: { lot: Product; className: string }) {
  const render = useContext(LotStarSlot);
  return render ? render(lot, className) : null;
}
