/**
 * The lot search (`GET /api/catalogue/lots`, one keyset page at a time), the header box's suggestions
 * and the categories (`GET /api/categories`). Public reads: a visitor's calls carry no token.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { LotSearchPage } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';
import type { ShownLot } from '../model';
import { foldPending, readingPage } from '../store/live-cards';

/** Suggestions the header box shows. */
export const SUGGESTION_LIMIT = 6;

/** One page of lots for `query` (the filters as the server reads them), from `cursor` on. */
export async function fetchLotPage(query: Record<string, string>, cursor: string | null, signal?: AbortSignal, limit?: number): Promise<LotSearchPage> {
  return api.get<LotSearchPage>('/catalogue/lots', {
    as: 'user',
    signal,
    query: { ...query, ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) },
  });
}

export interface ShownPage { items: ShownLot[]; next_cursor: string | null; total: number }

/** Every page of the search as "Load more" lengthened it; live news read while a page travels is folded into it. */
export function lotSearchOptions(query: Record<string, string>) {
  return infiniteQueryOptions({
    queryKey: [...queryRoots.lotSearch, query],
    queryFn: async ({ pageParam, signal }): Promise<ShownPage> => {
      const pending = readingPage();
      try {
        const page = await fetchLotPage(query, pageParam, signal);
        const items = page.items.map((lot): ShownLot => ({ ...lot, listed_buy_now: lot.buy_now_price }));
        return { ...page, items: foldPending(items, pending) };
      } finally {
        pending.done();
      }
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** The header box's suggestions for `q`: the best few open lots. */
export function lotSuggestionsOptions(q: string) {
  return queryOptions({
    queryKey: [...queryRoots.lotSuggestions, q],
    queryFn: async ({ signal }) => (await fetchLotPage({ q }, null, signal, SUGGESTION_LIMIT)).items,
    staleTime: 30_000,
  });
}

