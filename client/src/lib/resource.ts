/**
 * The one way the client keeps server data that is not live state (docs/architecture.md, "The
 * client"): a cache keyed by a resource's name and its parameters, one request in flight per key
 * (callers share it), stale answers dropped (a reply read before an invalidation, a newer value or a
 * reset never lands), `invalidate(name)` for live-event handlers, and `resetAll()`, which the session
 * store alone calls when the account changes. A 401 is the API client's business (`isSessionEnded`):
 * it is never kept as an entry's error and never reaches a hook's `onError`.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { isSessionEnded } from './api-client';

export type ResourceStatus = 'idle' | 'loading' | 'success' | 'error';

export interface ResourceState<T> {
  data: T | undefined;
  /** 'loading' only before the first answer; a refresh of shown data keeps 'success'. */
  status: ResourceStatus;
  /** A read is in flight (the first or a refresh). */
  fetching: boolean;
  /** The last read's error, cleared by the next success; never a 401 (the session has ended). */
  error: unknown;
}

interface Entry<T> {
  state: ResourceState<T>;
  /** Bumped by every read, newer value, invalidation and reset: a reply under an older number is stale. */
  gen: number;
  inFlight: Promise<T> | undefined;
  /** Patches made while the read in flight was on its way: they apply to its reply too. */
  pending: ((data: T) => T)[];
  listeners: Set<() => void>;
  /** Reads this entry again, with its own parameters. */
  reload: () => void;
}

export interface Resource<P, T> {
  readonly name: string;
  get: (params: P) => ResourceState<T>;
  /** Shares the read in flight; otherwise reads, unless (without `force`) an answer is already there. */
  load: (params: P, options?: { force?: boolean }) => Promise<T>;
  /** A value known to be newer (a write's answer, a live event); replies in flight are dropped. */
  set: (params: P, data: T) => void;
  /** A change (a live event) to the shown value and to the reply in flight, which may have been read before it; subscribers hear of it only if the value changed. */
  patch: (params: P, change: (data: T) => T) => void;
  subscribe: (params: P, listener: () => void) => () => void;
}

const IDLE: ResourceState<never> = { data: undefined, status: 'idle', fetching: false, error: undefined };
const registry = new Map<string, Map<string, Entry<unknown>>>();
const delayed = new Map<string, ReturnType<typeof setTimeout>>();

function keyOf(params: unknown): string {
  return params === undefined ? '' : JSON.stringify(params);
}

function put<T>(e: Entry<T>, next: Partial<ResourceState<T>>): void {
  e.state = { ...e.state, ...next };
  for (const l of [...e.listeners]) l();
}

/** Drops the reply in flight (it was read before whatever happens now). */
function forget<T>(e: Entry<T>): void {
  e.gen++;
  e.inFlight = undefined;
  e.pending = [];
}

export function createResource<P = void, T = unknown>(name: string, fetcher: (params: P) => Promise<T>): Resource<P, T> {
  const entries = (registry.get(name) ?? new Map<string, Entry<unknown>>()) as Map<string, Entry<T>>;
  registry.set(name, entries as Map<string, Entry<unknown>>);

  const entry = (params: P): Entry<T> => {
    const key = keyOf(params);
    let e = entries.get(key);
    if (!e) {
      e = { state: IDLE, gen: 0, inFlight: undefined, pending: [], listeners: new Set(), reload: () => void load(params, { force: true }).catch(() => undefined) };
      entries.set(key, e);
    }
    return e;
  };

  const load = (params: P, { force = false } = {}): Promise<T> => {
    const e = entry(params);
    if (e.inFlight) return e.inFlight;
    if (!force && e.state.status === 'success') return Promise.resolve(e.state.data as T);
    const mine = ++e.gen;
    e.pending = [];
    const promise = fetcher(params).then(
      (reply) => {
        if (mine !== e.gen) return reply;
        const data = e.pending.reduce((d, change) => change(d), reply);
        e.pending = [];
        put(e, { data, status: 'success', fetching: false, error: undefined });
        return data;
      },
      (err: unknown) => {
        if (mine === e.gen) {
          e.pending = [];
          put(e, { status: e.state.data === undefined ? 'error' : 'success', fetching: false, error: isSessionEnded(err) ? undefined : err });
        }
        throw err;
      },
    ).finally(() => {
      if (e.inFlight === promise) e.inFlight = undefined;
    });
    promise.catch(() => undefined);
    e.inFlight = promise;
    put(e, { status: e.state.data === undefined ? 'loading' : 'success', fetching: true });
    return promise;
  };

  const set = (params: P, data: T) => {
    const e = entry(params);
    forget(e);
    put(e, { data, status: 'success', fetching: false, error: undefined });
  };

  return {
    name,
    get: (params) => entries.get(keyOf(params))?.state ?? IDLE,
    load,
    set,
    patch: (params, change) => {
      // Nothing read or on its way under these params: nothing to change (and no entry made for it).
      const e = entries.get(keyOf(params));
      if (!e) return;
      if (e.inFlight) e.pending.push(change);
      if (e.state.data === undefined) return;
      // A change that changes nothing (an event about another auction, say) re-renders nothing.
      const data = change(e.state.data);
      if (data !== e.state.data) put(e, { data });
    },
    subscribe: (params, listener) => {
      const e = entry(params);
      e.listeners.add(listener);
      return () => e.listeners.delete(listener);
    },
  };
}

/**
 * Marks every entry of `name` stale (a live event said it changed): replies in flight are dropped, the
 * entries on screen are read again, the others keep their value until they are next shown (which reads).
 * With `delayMs`, a burst of calls reads once, that long after the last one.
 */
export function invalidate(name: string, delayMs = 0): void {
  clearTimeout(delayed.get(name));
  delayed.delete(name);
  if (delayMs > 0) {
    delayed.set(name, setTimeout(() => invalidate(name), delayMs));
    return;
  }
  for (const e of registry.get(name)?.values() ?? []) {
    forget(e);
    if (e.listeners.size > 0) e.reload();
    else if (e.state.fetching) e.state = { ...e.state, status: e.state.data === undefined ? 'idle' : 'success', fetching: false };
  }
}

/**
 * Forgets every answer and drops every reply in flight: the next account must never see them. A view
 * still on screen (its session has just ended, it is on its way to /) is left with nothing and no error
 * of its own, as after a 401; the next mount reads again.
 */
export function resetAll(): void {
  for (const timer of delayed.values()) clearTimeout(timer);
  delayed.clear();
  for (const entries of registry.values()) {
    for (const e of entries.values()) {
      forget(e);
      put(e, e.listeners.size > 0 ? { ...IDLE, status: 'error' } : IDLE);
    }
  }
}

export interface UseResourceOptions {
  /** Read again this often while mounted, and when the tab is shown again. */
  refetchMs?: number;
  /** False: do not read (yet). */
  enabled?: boolean;
  /** A failed read of this component's own (on mount or `refetch()`); never called for a 401. */
  onError?: (err: unknown) => void;
}

export type UseResource<T> = ResourceState<T> & {
  /** Reads now (sharing a read in flight); resolves true on success, false after `onError`. */
  refetch: () => Promise<boolean>;
};

/**
 * A resource's state in a component: read on mount (a cached answer shows at once and is read again),
 * after `invalidate(resource.name)`, every `refetchMs` and when the tab is shown again.
 */
export function useResource<P, T>(resource: Resource<P, T>, params: P, options: UseResourceOptions = {}): UseResource<T> {
  const { refetchMs, enabled = true } = options;
  const key = keyOf(params);
  const latest = useRef({ params, onError: options.onError });
  latest.current = { params, onError: options.onError };

  // `key` stands for the params, which the callbacks read through `latest`: new params, new callbacks.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const subscribe = useCallback((l: () => void) => resource.subscribe(latest.current.params, l), [resource, key]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const snapshot = useCallback(() => resource.get(latest.current.params), [resource, key]);
  const state = useSyncExternalStore(subscribe, snapshot, snapshot);

  const refetch = useCallback(() => resource.load(latest.current.params, { force: true }).then(() => true, (err: unknown) => {
    if (!isSessionEnded(err)) latest.current.onError?.(err);
    return false;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }), [resource, key]);

  useEffect(() => {
    if (!enabled) return;
    void refetch();
    if (!refetchMs) return;
    const quietly = () => void resource.load(latest.current.params, { force: true }).catch(() => undefined);
    const timer = setInterval(quietly, refetchMs);
    const onVisible = () => { if (document.visibilityState === 'visible') quietly(); };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [resource, enabled, refetchMs, refetch]);

  return { ...state, refetch };
}
