import { useCallback, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { isSessionEnded } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { lotSearchOptions } from '../api/search-api';
import type { ShownLot } from '../model';

export interface LotSearch {
  /** Every lot of the pages read so far, each once (a lot met again on a later page stays where it was first shown). */
  lots: ShownLot[] | undefined;
  total: number;
  /** 'loading' only before the first page; a re-read of shown pages keeps 'success'. */
  status: 'loading' | 'success' | 'error';
  error: unknown;
  more: boolean;
  loadingMore: boolean;
  /** Reads the next page and adds it; rejects when it cannot be read. */
  loadMore: () => Promise<void>;
  refetch: () => void;
}

/**
 * The lot search of `query` a page at a time (TanStack's infinite query on the app's one client, as
 * lib/query.ts's hooks do): the first page on mount and on every change of the filters.
 */
export function useLotSearch(query: Record<string, string>): LotSearch {
  const result = useInfiniteQuery(lotSearchOptions(query), queryClient);
  const { data, fetchNextPage, refetch } = result;

  const lots = useMemo(() => {
    if (!data) return undefined;
    const seen = new Set<string>();
    const all: ShownLot[] = [];
    for (const page of data.pages) {
      for (const lot of page.items) {
        if (seen.has(lot.id)) continue;
        seen.add(lot.id);
        all.push(lot);
      }
    }
    return all;
  }, [data]);

  const loadMore = useCallback(async () => {
    // A second call while a page travels waits for it rather than reading it again.
    await fetchNextPage({ cancelRefetch: false, throwOnError: true });
  }, [fetchNextPage]);

  const error = result.error && !isSessionEnded(result.error) ? result.error : undefined;
  let status: LotSearch['status'] = 'loading';
  if (data) status = 'success';
  else if (result.status === 'error') status = 'error';
  return {
    lots,
    total: data?.pages[0]?.total ?? 0,
    status,
    error,
    more: result.hasNextPage,
    loadingMore: result.isFetchingNextPage,
    loadMore,
    refetch: () => void refetch(),
  };
}
