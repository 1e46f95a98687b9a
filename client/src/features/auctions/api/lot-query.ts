import type { LotPage } from '@auction/shared';
import { queryFamily, type QueryFamily } from '../../../lib/live-query';
import { queryRoots } from '../../../lib/query-keys';
import { auctionsApi } from './auctions-api';

/** Entries read per request when a read of the lot catches up with the history shown (the server's most). */
const HISTORY_STEP = 100;

/**
 * The lot's read, and as much of its history as is shown: a history that "Load more" lengthened is
 * read again as far (the first page with the lot, the rest from GET /products/{id}/bids), so every
 * entry shown says how it stands now (a reinstated bid may be far down).
 */
export const lotPage: QueryFamily<string, LotPage> = queryFamily<string, LotPage>(queryRoots.lotPage, async (productId, current): Promise<LotPage> => {
  const shown = current?.bids.length ?? 0;
  const lot = await auctionsApi.lot(productId);
  const bids = [...lot.bids];
  let next = lot.bids_next_before ?? null;
  while (next !== null && bids.length < shown) {
    const page = await auctionsApi.lotHistory(productId, next, Math.min(HISTORY_STEP, shown - bids.length));
    bids.push(...page.bids);
    next = page.next_before;
  }
  return { ...lot, bids, bids_next_before: next };
});

