/**
 * The hooks components use for server data. They pass the app's one QueryClient explicitly (so no
 * component depends on a provider being above it: a test's plain `render()` works) and add what the
 * app has always offered on top of TanStack Query: `onError` for a component's own failed read (never
 * for a 401: the session has ended and the app is leaving for /), `refetchMs` polling, and a status
 * that stays 'success' while shown data is refreshed or a refresh fails.
 */
import { useCallback, useEffect, useRef } from 'react';
import { hashKey, useInfiniteQuery as useTanstackInfiniteQuery, useMutation as useTanstackMutation, useQuery as useTanstackQuery } from '@tanstack/react-query';
import type {
  DefaultError, InfiniteData, QueryKey, UseInfiniteQueryOptions, UseMutationOptions, UseMutationResult, UseQueryOptions,
} from '@tanstack/react-query';
import { isSessionEnded } from './api-client';
import { queryClient } from './query-client';

export type ServerStatus = 'idle' | 'loading' | 'success' | 'error';

export interface ServerState<T> {
  data: T | undefined;
  /** 'loading' only before the first answer; a refresh of shown data keeps 'success'. */
  status: ServerStatus;
  /** A read is in flight (the first or a refresh). */
  fetching: boolean;
  /** The last read's error, cleared by the next success; never a 401 (the session has ended). */
  error: unknown;
  /** Reads now (sharing a read in flight); resolves true on success, false after `onError`. */
  refetch: () => Promise<boolean>;
}

export interface ServerQueryOptions {
  /** Read again this often while mounted, and when the tab is shown again. */
  refetchMs?: number;
  /** False: do not read (yet). */
  enabled?: boolean;
  /** A failed read of this component's own (on mount or `refetch()`); never called for a 401. */
  onError?: (err: unknown) => void;
}

/** What a component shows: its data once there is some, else the read's state. */
function statusOf(r: { data: unknown; status: 'pending' | 'error' | 'success'; fetchStatus: 'fetching' | 'paused' | 'idle' }): ServerStatus {
  if (r.data !== undefined) return 'success';
  if (r.status === 'error') return 'error';
  return r.fetchStatus === 'idle' ? 'idle' : 'loading';
}

/** An error worth showing: a 401 has already ended the session and is never shown. */
const shownError = (error: Error | null) => (error && !isSessionEnded(error) ? error : undefined);

/**
 * The read a mount (or a new key) starts is the component's own: its failure goes to `onError` once
 * (when `reportable`), never for a 401. `report` does the same for a read the component asked for
 * (`refetch()`); `forget` drops the pending own read (a refetch or next page is the caller's).
 */
function useOwnRead(
  hash: string, enabled: boolean,
  state: { errorUpdateCount: number; isFetching: boolean; error: Error | null; refetch: (o: { cancelRefetch: boolean }) => Promise<{ isError: boolean; error: Error | null; status: string }> },
  reportable: boolean, onError: ((err: unknown) => void) | undefined,
) {
  const onErrorRef = useRef(onError);
  useEffect(() => {
    onErrorRef.current = onError;
  });
  const report = useCallback((err: unknown) => {
    if (!isSessionEnded(err)) onErrorRef.current?.(err);
  }, []);
  const own = useRef<{ hash: string; errors: number } | null>(null);
  const { errorUpdateCount, isFetching, error } = state;
  useEffect(() => {
    if (!enabled) return;
    own.current = { hash, errors: queryClient.getQueryCache().get(hash)?.state.errorUpdateCount ?? 0 };
  }, [hash, enabled]);
  useEffect(() => {
    const mine = own.current;
    if (!mine || mine.hash !== hash || isFetching) return;
    own.current = null;
    if (errorUpdateCount > mine.errors && reportable) report(error);
  }, [hash, isFetching, errorUpdateCount, error, reportable, report]);
  const forget = useCallback(() => {
    own.current = null;
  }, []);
  // Read again at the caller's request: its failure is reported here, not as the mount's own read.
  const { refetch: refetchQuery } = state;
  const refetch = useCallback(async () => {
    forget();
    const r = await refetchQuery({ cancelRefetch: false });
    if (r.isError) {
      report(r.error);
      return false;
    }
    return r.status === 'success';
  }, [refetchQuery, report, forget]);
  return { forget, refetch };
}

/**
 * A query in a component: read on mount (a cached answer shows at once and is read again), after an
 * invalidation while shown, every `refetchMs` and when the tab is shown again.
 */
export function useServerQuery<T, K extends QueryKey = QueryKey>(
  options: UseQueryOptions<T, DefaultError, T, K>,
  { refetchMs, enabled = true, onError }: ServerQueryOptions = {},
): ServerState<T> {
  const result = useTanstackQuery<T, DefaultError, T, K>({
    ...options,
    enabled: enabled && options.enabled !== false,
    ...(refetchMs ? { refetchInterval: refetchMs, refetchIntervalInBackground: true, refetchOnWindowFocus: 'always' as const } : {}),
  }, queryClient);

  const { refetch } = useOwnRead(hashKey(options.queryKey), enabled, result, true, onError);
  return { data: result.data, status: statusOf(result), fetching: result.isFetching, error: shownError(result.error), refetch };
}

export interface ServerPagesState<TPage> extends ServerState<InfiniteData<TPage, unknown>> {
  /** The server says there is a page after the last one read. */
  hasNextPage: boolean;
  /** The next page is on its way. */
  fetchingNextPage: boolean;
  /** Reads the next page and adds it; rejects when it could not be read (never for a 401's own toast). */
  fetchNextPage: () => Promise<void>;
}

/**
 * A paged list in a component (`useInfiniteQuery`): the first page on mount, each next one on
 * `fetchNextPage()`, with the same status and `onError` as `useServerQuery` (a failed next page is the
 * caller's to report: `fetchNextPage` rejects, the pages shown stay).
 */
export function useServerInfiniteQuery<TPage, TParam, K extends QueryKey = QueryKey>(
  options: UseInfiniteQueryOptions<TPage, DefaultError, InfiniteData<TPage, TParam>, K, TParam>,
  { enabled = true, onError }: Omit<ServerQueryOptions, 'refetchMs'> = {},
): ServerPagesState<TPage> {
  const result = useTanstackInfiniteQuery<TPage, DefaultError, InfiniteData<TPage, TParam>, K, TParam>({
    ...options,
    enabled: enabled && options.enabled !== false,
  }, queryClient);

  const { data } = result;
  // A failed read while pages are shown leaves them shown: only a failure with nothing to show is reported.
  const { forget, refetch } = useOwnRead(hashKey(options.queryKey), enabled, result, data === undefined, onError);

  const { fetchNextPage: fetchNext } = result;
  const fetchNextPage = useCallback(async () => {
    forget();
    const r = await fetchNext({ cancelRefetch: false });
    if (r.isError) throw r.error;
  }, [fetchNext, forget]);

  return {
    data,
    status: statusOf(result),
    fetching: result.isFetching,
    error: shownError(result.error),
    refetch,
    hasNextPage: result.hasNextPage,
    fetchingNextPage: result.isFetchingNextPage,
    fetchNextPage,
  };
}

/** `useMutation` bound to the app's QueryClient. */
export function useServerMutation<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  return useTanstackMutation(options, queryClient);
}

/**
 * Runs a mutation outside a component (a store action), through the app's MutationCache like
 * `useMutation().mutateAsync` does: its callbacks run, the devtools list it, `useIsMutating` sees it.
 */
export function runMutation<TData, TVariables, TContext = unknown>(
  options: UseMutationOptions<TData, DefaultError, TVariables, TContext>,
  variables: TVariables,
): Promise<TData> {
  return queryClient.getMutationCache().build(queryClient, options).execute(variables);
}
