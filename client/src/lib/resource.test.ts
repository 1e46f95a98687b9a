import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { createResource, invalidate, resetAll, useResource } from './resource';

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

let n = 0;
const uniqueName = () => `test-resource-${++n}`;

afterEach(() => {
  cleanup();
  resetAll();
  vi.useRealTimers();
});

describe('createResource', () => {
  it('caches by name and parameters', async () => {
    const fetcher = vi.fn(async (p: { id: number }) => `item ${p.id}`);
    const r = createResource(uniqueName(), fetcher);
    expect(await r.load({ id: 1 })).toBe('item 1');
    expect(await r.load({ id: 1 })).toBe('item 1');
    expect(await r.load({ id: 2 })).toBe('item 2');
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(r.get({ id: 1 })).toEqual({ data: 'item 1', error: undefined, status: 'success', fetching: false });
    await r.load({ id: 1 }, { force: true });
    expect(fetcher).toHaveBeenCalledTimes(3);
  });

  it('shares one request in flight between callers', async () => {
    const d = deferred<number>();
    const fetcher = vi.fn(() => d.promise);
    const r = createResource(uniqueName(), fetcher);
    const a = r.load();
    const b = r.load(undefined, { force: true });
    expect(r.get().status).toBe('loading');
    d.resolve(5);
    expect(await Promise.all([a, b])).toEqual([5, 5]);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('drops a reply read before a newer value was set', async () => {
    const d = deferred<string>();
    const r = createResource(uniqueName(), () => d.promise);
    const pending = r.load();
    r.set(undefined, 'from a live event');
    d.resolve('old reply');
    await pending;
    expect(r.get().data).toBe('from a live event');
  });

  it('drops a reply read before an invalidation, and reads again what is on screen', async () => {
    const replies = [deferred<string>(), deferred<string>()];
    let call = 0;
    const name = uniqueName();
    const r = createResource(name, () => replies[call++]!.promise);
    const { result } = renderHook(() => useResource(r, undefined));
    await waitFor(() => expect(call).toBe(1));
    act(() => invalidate(name));
    expect(call).toBe(2);
    await act(async () => { replies[1]!.resolve('new'); await replies[1]!.promise; });
    await act(async () => { replies[0]!.resolve('stale'); await replies[0]!.promise; });
    expect(result.current.data).toBe('new');
  });

  it('keeps what nobody shows when invalidated, and reads it when asked', async () => {
    const name = uniqueName();
    const fetcher = vi.fn(async () => 1);
    const r = createResource(name, fetcher);
    await r.load();
    invalidate(name);
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(r.get().data).toBe(1);
    await r.load(undefined, { force: true });
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('reads once after a burst of delayed invalidations', async () => {
    vi.useFakeTimers();
    const name = uniqueName();
    const fetcher = vi.fn(async () => 1);
    const r = createResource(name, fetcher);
    const { unmount } = renderHook(() => useResource(r, undefined));
    await act(async () => { await vi.advanceTimersByTimeAsync(0); });
    expect(fetcher).toHaveBeenCalledTimes(1);
    invalidate(name, 300);
    await act(async () => { await vi.advanceTimersByTimeAsync(200); });
    invalidate(name, 300);
    invalidate(name, 300);
    await act(async () => { await vi.advanceTimersByTimeAsync(1000); });
    expect(fetcher).toHaveBeenCalledTimes(2);
    unmount();
  });

  it('patches the shown value and the reply in flight, which was read before the change', async () => {
    const d = deferred<number[]>();
    const fetcher = vi.fn<() => Promise<number[]>>().mockResolvedValueOnce([1]).mockReturnValueOnce(d.promise);
    const r = createResource(uniqueName(), fetcher);
    r.patch(undefined, (xs) => [...xs, 9]);
    expect(r.get().data).toBeUndefined();
    await r.load();
    const pending = r.load(undefined, { force: true });
    r.patch(undefined, (xs) => [...xs, 2]);
    expect(r.get().data).toEqual([1, 2]);
    d.resolve([1, 3]);
    await pending;
    expect(r.get()).toMatchObject({ data: [1, 3, 2], fetching: false });
  });

  it('a patch that changes nothing tells nobody, and one for params never read makes no entry', async () => {
    const r = createResource(uniqueName(), async (id: string) => [id]);
    await r.load('a');
    const heard = vi.fn();
    r.subscribe('a', heard);
    r.patch('a', (list) => list);
    expect(heard).not.toHaveBeenCalled();
    r.patch('a', (list) => [...list, 'b']);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(r.get('a').data).toEqual(['a', 'b']);
    r.patch('never-read', () => ['x']);
    expect(r.get('never-read')).toEqual({ data: undefined, status: 'idle', fetching: false, error: undefined });
  });

  it('keeps the data of a failed refresh and never keeps a 401 as an error', async () => {
    const fetcher = vi.fn<() => Promise<number>>()
      .mockResolvedValueOnce(1)
      .mockRejectedValueOnce(new ApiError(500, 'UNAVAILABLE', { error: 'boom' }))
      .mockRejectedValueOnce(new ApiError(401, 'UNAUTHENTICATED', { error: 'gone' }));
    const r = createResource(uniqueName(), fetcher);
    await r.load();
    await expect(r.load(undefined, { force: true })).rejects.toThrow('boom');
    expect(r.get()).toMatchObject({ data: 1, status: 'success' });
    expect((r.get().error as ApiError).status).toBe(500);
    await expect(r.load(undefined, { force: true })).rejects.toThrow('gone');
    expect(r.get().error).toBeUndefined();
  });

  it('resetAll forgets every answer and drops replies in flight (a session change)', async () => {
    const d = deferred<string>();
    const a = createResource(uniqueName(), async () => 'cached');
    const b = createResource(uniqueName(), () => d.promise);
    await a.load();
    const pending = b.load();
    resetAll();
    d.resolve('previous account');
    await pending;
    expect(a.get().status).toBe('idle');
    expect(b.get()).toEqual({ data: undefined, error: undefined, status: 'idle', fetching: false });
  });
});

describe('useResource', () => {
  it('after resetAll a view still on screen shows nothing and no error (its session has ended)', async () => {
    const r = createResource(uniqueName(), async () => 'previous account');
    const { result } = renderHook(() => useResource(r, undefined));
    await waitFor(() => expect(result.current.data).toBe('previous account'));
    act(() => resetAll());
    expect(result.current).toMatchObject({ data: undefined, status: 'error', error: undefined, fetching: false });
  });

  it('reads on mount, shows a cached answer at once and reads it again', async () => {
    let value = 1;
    const fetcher = vi.fn(async () => value);
    const r = createResource(uniqueName(), fetcher);
    const first = renderHook(() => useResource(r, undefined));
    expect(first.result.current.status).toBe('loading');
    await waitFor(() => expect(first.result.current.data).toBe(1));
    first.unmount();
    value = 2;
    const second = renderHook(() => useResource(r, undefined));
    expect(second.result.current.data).toBe(1);
    await waitFor(() => expect(second.result.current.data).toBe(2));
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it('calls onError for its own failed reads, never for a 401', async () => {
    const onError = vi.fn();
    const fetcher = vi.fn<() => Promise<number>>()
      .mockRejectedValueOnce(new ApiError(500, 'UNAVAILABLE', { error: 'boom' }))
      .mockRejectedValueOnce(new ApiError(401, 'UNAUTHENTICATED', { error: 'gone' }));
    const r = createResource(uniqueName(), fetcher);
    const { result } = renderHook(() => useResource(r, undefined, { onError }));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(onError).toHaveBeenCalledTimes(1);
    let ok = true;
    await act(async () => { ok = await result.current.refetch(); });
    expect(ok).toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('reads again every refetchMs while mounted', async () => {
    vi.useFakeTimers();
    const fetcher = vi.fn(async () => 'x');
    const r = createResource(uniqueName(), fetcher);
    const { unmount } = renderHook(() => useResource(r, undefined, { refetchMs: 1000 }));
    await act(async () => { await vi.advanceTimersByTimeAsync(3000); });
    expect(fetcher).toHaveBeenCalledTimes(4);
    unmount();
    await act(async () => { await vi.advanceTimersByTimeAsync(3000); });
    expect(fetcher).toHaveBeenCalledTimes(4);
  });

  it('does not read while disabled', async () => {
    const fetcher = vi.fn(async () => 'x');
    const r = createResource(uniqueName(), fetcher);
    renderHook(() => useResource(r, undefined, { enabled: false }));
    await act(async () => { await Promise.resolve(); });
    expect(fetcher).not.toHaveBeenCalled();
  });
});
