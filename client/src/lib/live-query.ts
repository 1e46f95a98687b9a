/**
 * Live events folded into the query cache (docs/architecture.md, "The client").
 *
 * A reply still in flight may have been read on the server before the live event that changes the
 * shown value; applying the event to the shown data alone would let that reply overwrite it. So:
 *
 * - `foldable(queryFn)` wraps a query function: each read keeps the changes made while it is on its
 *   way and applies them to its reply before the cache stores it;
 * - `patchQueries(filters, change)` applies a change to the shown data of every matching query AND to
 *   each read in flight for them (a change that returns the same object tells nobody);
 * - `setQueryFresh(key, data)` stores a value known to be newer than any read in flight (a write's own
 *   answer, a full live snapshot): the read in flight is cancelled, its reply never lands;
 * - `invalidateSoon(key, delayMs)` reads once after a burst of events (the active queries; the
 *   others are read when next shown);
 * - `onLiveReconnect`-driven invalidation lives with each feature: it invalidates what is shown.
 *
 * `resetServerData()` forgets everything (the session store calls it when the account changes).
 */
import { hashKey, isCancelledError } from '@tanstack/react-query';
import type { QueryFilters, QueryFunction, QueryFunctionContext, QueryKey } from '@tanstack/react-query';
import { isSessionEnded } from './api-client';
import { queryClient } from './query-client';

type Change = (data: never) => unknown;

/** Query hash → the change lists of the reads of it in flight (one list per read). */
const inFlight = new Map<string, Set<Change[]>>();
const debounced = new Map<string, ReturnType<typeof setTimeout>>();

/** A query function whose reply also receives the live changes made while it was on its way. */
export function foldable<T, K extends QueryKey = QueryKey>(fn: (ctx: QueryFunctionContext<K>) => Promise<T>): QueryFunction<T, K> {
  return async (ctx) => {
    const hash = hashKey(ctx.queryKey);
    const changes: Change[] = [];
    const reads = inFlight.get(hash) ?? new Set<Change[]>();
    reads.add(changes);
    inFlight.set(hash, reads);
    try {
      const reply = await fn(ctx);
      return changes.reduce<T>((data, change) => (change as (d: T) => T)(data), reply);
    } finally {
      reads.delete(changes);
      if (reads.size === 0 && inFlight.get(hash) === reads) inFlight.delete(hash);
    }
  };
}

/**
 * Applies `change` to the shown data of every query matching `filters` and to the replies of their
 * reads in flight. Queries with no data and no read on their way are left alone (nothing to change).
 */
export function patchQueries<T>(filters: QueryFilters, change: (data: T) => T): void {
  for (const query of queryClient.getQueryCache().findAll(filters)) {
    for (const pending of inFlight.get(query.queryHash) ?? []) pending.push(change);
    const data = query.state.data as T | undefined;
    if (data === undefined) continue;
    const next = change(data);
    // A change that changes nothing (an event about another auction, say) re-renders nothing.
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

/** `patchQueries` for one exact key. */
export function patchQuery<T>(queryKey: QueryKey, change: (data: T) => T): void {
  patchQueries({ queryKey, exact: true }, change);
}

/**
 * Stores a value known to be newer than any read in flight for `queryKey` (a write's answer, a live
 * snapshot): the read in flight is cancelled first, so its reply never overwrites this value.
 */
export function setQueryFresh<T>(queryKey: QueryKey, data: T): void {
  // Cancelling reverts the query synchronously to its state before the read; then the value lands.
  void queryClient.cancelQueries({ queryKey, exact: true });
  inFlight.delete(hashKey(queryKey));
  queryClient.setQueryData(queryKey, data);
}

/**
 * Marks the queries under `queryKey` stale: those on screen are read again (a read in flight is
 * dropped and replaced), the others when next shown. With `delayMs`, a burst of calls reads once, that long after
 * the last one.
 */
export function invalidateSoon(queryKey: QueryKey, delayMs = 0): void {
  const hash = hashKey(queryKey);
  clearTimeout(debounced.get(hash));
  debounced.delete(hash);
  if (delayMs > 0) {
    debounced.set(hash, setTimeout(() => invalidateSoon(queryKey), delayMs));
    return;
  }
  // A first read on its way may have been read before what made it stale; TanStack would share it with
  // the new read (nothing shown yet to keep), so it is cancelled here: its reply never lands.
  for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
    if (query.state.fetchStatus === 'fetching' && query.state.data === undefined) void query.cancel({ revert: true });
  }
  void queryClient.invalidateQueries({ queryKey }).catch(() => undefined);
}

/** Forgets every answer, every read in flight and every pending invalidation: the next account must never see them. */
export function resetServerData(): void {
  for (const timer of debounced.values()) clearTimeout(timer);
  debounced.clear();
  inFlight.clear();
  void queryClient.cancelQueries();
  queryClient.clear();
  queryClient.getMutationCache().clear();
}

/** A query's state outside React, as components see it (lib/query.ts). */
export interface QueryView<T> {
  data: T | undefined;
  status: 'idle' | 'loading' | 'success' | 'error';
  fetching: boolean;
  error: unknown;
}

export function viewOf<T>(queryKey: QueryKey): QueryView<T> {
  const state = queryClient.getQueryState<T>(queryKey);
  if (!state) return { data: undefined, status: 'idle', fetching: false, error: undefined };
  const fetching = state.fetchStatus === 'fetching';
  const error = state.error && !isSessionEnded(state.error) ? state.error : undefined;
  const status = state.data !== undefined ? 'success' : state.status === 'error' ? 'error' : fetching ? 'loading' : 'idle';
  return { data: state.data, status, fetching, error };
}

/**
 * The query options of one kind of server data, by parameter (`void` for one of a kind), with the
 * helpers live handlers and writes use on it. `root` is the key every one of them starts with (for
 * invalidation); the reader receives the value shown, for reads that extend it (a history "Load more"
 * lengthened is read as far again).
 */
export interface QueryFamily<P, T> {
  readonly root: QueryKey;
  key: (params: P) => QueryKey;
  options: (params: P) => { queryKey: QueryKey; queryFn: QueryFunction<T> };
  /** The state this tab has (no read). */
  get: (params: P) => QueryView<T>;
  /**
   * Shares the read in flight; otherwise reads, unless (without `force`) an answer is already there. A
   * read cancelled on its way resolves with what the cache holds then.
   */
  load: (params: P, options?: { force?: boolean }) => Promise<T>;
  /** A value known newer than any read in flight (`setQueryFresh`). */
  set: (params: P, data: T) => void;
  /** A change to the shown value and to the reply in flight (`patchQuery`). */
  patch: (params: P, change: (data: T) => T) => void;
  /** Calls `listener` whenever the cache entry of `params` changes; returns the unsubscribe. */
  subscribe: (params: P, listener: () => void) => () => void;
}

export function queryFamily<P = void, T = unknown>(root: QueryKey, read: (params: P, shown: T | undefined) => Promise<T>): QueryFamily<P, T> {
  const key = (params: P): QueryKey => (params === undefined ? root : [...root, params]);
  const options = (params: P) => ({
    queryKey: key(params),
    queryFn: foldable<T>(() => read(params, queryClient.getQueryData<T>(key(params)))),
  });
  return {
    root,
    key,
    options,
    get: (params) => viewOf<T>(key(params)),
    load: (params, { force = false } = {}) => {
      const query = queryClient.getQueryCache().find({ queryKey: key(params), exact: true });
      const pending = query?.state.fetchStatus === 'fetching' ? (query.promise as Promise<T> | undefined) : undefined;
      // A read cancelled on its way (a newer value, a reset) resolves with what the cache holds then.
      return (pending ?? queryClient.fetchQuery({ ...options(params), staleTime: force ? 0 : Infinity })).catch((err: unknown) => {
        if (isCancelledError(err)) return queryClient.getQueryData<T>(key(params)) as T;
        throw err;
      });
    },
    set: (params, data) => setQueryFresh(key(params), data),
    patch: (params, change) => patchQuery(key(params), change),
    subscribe: (params, listener) => {
      const hash = hashKey(key(params));
      return queryClient.getQueryCache().subscribe((e) => {
        if (e.type === 'updated' && e.query.queryHash === hash) listener();
      });
    },
  };
}
