import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { foldable, invalidateSoon, patchQueries, patchQuery, resetServerData, setQueryFresh } from './live-query';
import { useServerQuery } from './query';
import { GC_TIME_MS, queryClient } from './query-client';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

let n = 0;
const uniqueKey = () => ['test-query', ++n] as const;

afterEach(() => {
  cleanup();
  resetServerData();
  vi.useRealTimers();
});

describe('live folding', () => {
  it('a stale reply is ignored: a read in flight never overwrites a newer value set meanwhile', async () => {
    const key = uniqueKey();
    const d = deferred<string>();
    const read = queryClient.fetchQuery({ queryKey: key, queryFn: foldable(() => d.promise) }).catch(() => undefined);
    setQueryFresh(key, 'from a live event');
    d.resolve('old reply');
    await read;
    await Promise.resolve();
    expect(queryClient.getQueryData(key)).toBe('from a live event');
  });

  it('a live change is folded into the shown value and into the reply in flight, which was read before it', async () => {
    const key = uniqueKey();
    const d = deferred<number[]>();
    const fetcher = vi.fn<() => Promise<number[]>>().mockResolvedValueOnce([1]).mockReturnValueOnce(d.promise);
    const queryFn = foldable(fetcher);
    patchQuery<number[]>(key, (xs) => [...xs, 9]);
    expect(queryClient.getQueryData(key)).toBeUndefined();
    await queryClient.fetchQuery({ queryKey: key, queryFn });
    const refresh = queryClient.fetchQuery({ queryKey: key, queryFn });
    patchQuery<number[]>(key, (xs) => [...xs, 2]);
    expect(queryClient.getQueryData(key)).toEqual([1, 2]);
    d.resolve([1, 3]);
    await refresh;
    expect(queryClient.getQueryData(key)).toEqual([1, 3, 2]);
  });

  it('patches every query a filter matches, and a change that changes nothing tells nobody', async () => {
    const a = ['folded', 'a'];
    const b = ['folded', 'b'];
    queryClient.setQueryData(a, ['a']);
    queryClient.setQueryData(b, ['b']);
    const heard = vi.fn();
    const unsubscribe = queryClient.getQueryCache().subscribe((e) => { if (e.type === 'updated') heard(); });
    patchQueries<string[]>({ queryKey: ['folded'] }, (list) => list);
    expect(heard).not.toHaveBeenCalled();
    patchQueries<string[]>({ queryKey: ['folded'] }, (list) => [...list, 'x']);
    expect(queryClient.getQueryData(a)).toEqual(['a', 'x']);
    expect(queryClient.getQueryData(b)).toEqual(['b', 'x']);
    unsubscribe();
  });

  it('an invalidation drops the reply in flight and reads again what is on screen', async () => {
    const key = uniqueKey();
    const replies = [deferred<string>(), deferred<string>()];
    let call = 0;
    const fetcher = vi.fn(() => replies[call++]!.promise);
    const { result } = renderHook(() => useServerQuery({ queryKey: key, queryFn: foldable(fetcher) }));
    expect(fetcher).toHaveBeenCalledTimes(1);
    act(() => invalidateSoon(key));
    expect(fetcher).toHaveBeenCalledTimes(2);
    await act(async () => { replies[0]!.resolve('read before the change'); await Promise.resolve(); });
    expect(result.current.data).toBeUndefined();
    await act(async () => { replies[1]!.resolve('read after it'); await Promise.resolve(); });
    await waitFor(() => expect(result.current.data).toBe('read after it'));
  });

  it('keeps what nobody shows when invalidated, and reads it when it is shown again', async () => {
    const key = uniqueKey();
    let value = 1;
    const fetcher = vi.fn(async () => value);
    const first = renderHook(() => useServerQuery({ queryKey: key, queryFn: foldable(fetcher) }));
    await waitFor(() => expect(first.result.current.data).toBe(1));
    first.unmount();
    value = 2;
    invalidateSoon(key);
    await act(async () => { await Promise.resolve(); });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(key)).toBe(1);
    const second = renderHook(() => useServerQuery({ queryKey: key, queryFn: foldable(fetcher) }));
    expect(second.result.current.data).toBe(1);
    await waitFor(() => expect(second.result.current.data).toBe(2));
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('reads once after a burst of delayed invalidations', async () => {
    vi.useFakeTimers();
    const key = uniqueKey();
    const fetcher = vi.fn(async () => 'x');
    const { result } = renderHook(() => useServerQuery({ queryKey: key, queryFn: foldable(fetcher) }));
    await act(async () => { await vi.advanceTimersByTimeAsync(0); });
    expect(result.current.data).toBe('x');
    expect(fetcher).toHaveBeenCalledTimes(1);
    invalidateSoon(key, 300);
    await act(async () => { await vi.advanceTimersByTimeAsync(200); });
    invalidateSoon(key, 300);
    await act(async () => { await vi.advanceTimersByTimeAsync(200); });
    expect(fetcher).toHaveBeenCalledTimes(1);
    await act(async () => { await vi.advanceTimersByTimeAsync(200); });
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('resetServerData forgets every answer and drops reads in flight (a session change)', async () => {
    const key = uniqueKey();
    const d = deferred<string>();
    queryClient.setQueryData(['other'], 'previous account');
    const read = queryClient.fetchQuery({ queryKey: key, queryFn: foldable(() => d.promise) }).catch(() => undefined);
    resetServerData();
    d.resolve('previous account, late');
    await read;
    expect(queryClient.getQueryData(key)).toBeUndefined();
    expect(queryClient.getQueryData(['other'])).toBeUndefined();
  });
});

describe('eviction', () => {
  it('an answer no component has shown for gcTime is evicted; one on screen stays', async () => {
    vi.useFakeTimers();
    const shown = uniqueKey();
    const hidden = uniqueKey();
    const fetcher = vi.fn(async () => 'x');
    const view = renderHook(() => useServerQuery({ queryKey: shown, queryFn: fetcher }));
    const gone = renderHook(() => useServerQuery({ queryKey: hidden, queryFn: fetcher }));
    await act(async () => { await vi.advanceTimersByTimeAsync(0); });
    gone.unmount();
    await act(async () => { await vi.advanceTimersByTimeAsync(GC_TIME_MS - 1000); });
    expect(queryClient.getQueryData(hidden)).toBe('x');
    await act(async () => { await vi.advanceTimersByTimeAsync(2000); });
    expect(queryClient.getQueryData(hidden)).toBeUndefined();
    expect(queryClient.getQueryData(shown)).toBe('x');
    view.unmount();
  });
});

describe('useServerQuery', () => {
  it('reads on mount, shows a cached answer at once and reads it again', async () => {
    const key = uniqueKey();
    let value = 1;
    const fetcher = vi.fn(async () => value);
    const first = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }));
    expect(first.result.current.status).toBe('loading');
    await waitFor(() => expect(first.result.current.data).toBe(1));
    first.unmount();
    value = 2;
    const second = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }));
    expect(second.result.current.data).toBe(1);
    await waitFor(() => expect(second.result.current.data).toBe(2));
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('calls onError for its own failed reads, never for a 401, and keeps a 401 out of `error`', async () => {
    const key = uniqueKey();
    const onError = vi.fn();
    const fetcher = vi.fn<() => Promise<number>>()
      .mockRejectedValueOnce(new ApiError(500, 'UNAVAILABLE', { error: 'boom' }))
      .mockRejectedValueOnce(new ApiError(401, 'UNAUTHENTICATED', { error: 'gone' }));
    const { result } = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }, { onError }));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(onError).toHaveBeenCalledTimes(1);
    let ok = true;
    await act(async () => { ok = await result.current.refetch(); });
    expect(ok).toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(result.current.error).toBeUndefined();
  });

  it('keeps the data of a failed refresh as success', async () => {
    const key = uniqueKey();
    const fetcher = vi.fn<() => Promise<number>>().mockResolvedValueOnce(1).mockRejectedValueOnce(new ApiError(500, 'UNAVAILABLE', {}));
    const { result } = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }));
    await waitFor(() => expect(result.current.data).toBe(1));
    await act(async () => { await result.current.refetch(); });
    expect(result.current).toMatchObject({ data: 1, status: 'success', fetching: false });
    expect(result.current.error).toBeInstanceOf(ApiError);
  });

  it('reads again every refetchMs while mounted', async () => {
    vi.useFakeTimers();
    const key = uniqueKey();
    const fetcher = vi.fn(async () => 'x');
    const { unmount } = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }, { refetchMs: 1000 }));
    await act(async () => { await vi.advanceTimersByTimeAsync(3000); });
    expect(fetcher).toHaveBeenCalledTimes(4);
    unmount();
    await act(async () => { await vi.advanceTimersByTimeAsync(3000); });
    expect(fetcher).toHaveBeenCalledTimes(4);
  });

  it('does not read while disabled', async () => {
    const key = uniqueKey();
    const fetcher = vi.fn(async () => 'x');
    const { result } = renderHook(() => useServerQuery({ queryKey: key, queryFn: fetcher }, { enabled: false }));
    await act(async () => { await Promise.resolve(); });
    expect(fetcher).not.toHaveBeenCalled();
    expect(result.current.status).toBe('idle');
  });
});
