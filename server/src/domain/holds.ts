/** What a lead holds (docs/money.md): the rule every bid, cancel and settlement applies to a wallet. */
import type { Hold } from '../db/index.js';

/** What a leading bid holds from its bidder's wallet: a proxy its whole maximum, a plain bid its amount. */
export const heldBy = (h: Pick<Hold, 'amount' | 'maxAmount'>): number => h.maxAmount ?? h.amount;

/** A leading proxy's top: its maximum, or its price for a plain bid. */
export const topOf = heldBy;
