/**
 * The one QueryClient of the app: every server read that is not live state is a TanStack query
 * (docs/architecture.md, "The client"). Its defaults keep the behaviour the client has always had:
 *
 * - no automatic retries (a failed read shows its error; tests count requests exactly);
 * - no read on window focus or on the browser's "online" event unless a query asks for it (the live
 *   connection's reconnect invalidates what is shown instead, see lib/live-query.ts);
 * - staleTime 0: a cached answer shows at once and is read again when a component mounts;
 * - a gcTime: an answer nobody has shown for that long is evicted;
 * - networkMode 'always': a read is attempted whatever `navigator.onLine` says (the API client reports
 *   a network failure itself).
 *
 * Components reach it through the hooks of lib/query.ts, which pass this client explicitly, so a
 * component renders the same under a test's bare `render()` as under the app's provider.
 */
import { notifyManager, QueryClient } from '@tanstack/react-query';

// Components hear of a cache change when the batch that made it ends, not after a 0 ms timer: a live
// event shows as soon as its handler has run (as it did before the cache was TanStack's), and a test's
// fake timers need no advancing for it. Nothing in the app writes to the cache while rendering.
notifyManager.setScheduler((callback) => callback());

/** How long an answer no component shows stays cached. */
export const GC_TIME_MS = 5 * 60_000;

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: 0,
      gcTime: GC_TIME_MS,
      refetchOnWindowFocus: false,
      refetchOnReconnect: false,
      networkMode: 'always',
    },
    mutations: {
      retry: false,
      networkMode: 'always',
    },
  },
});
