import { use, type ComponentType } from 'react';

/** A portal's chunk did not arrive (offline, or a deploy removed it while this tab kept the old index.html). */
export class PageLoadError extends Error {
  constructor(cause: unknown) {
    super('This page could not be loaded', { cause });
    this.name = 'PageLoadError';
  }
}

/** One portal's pages, compiled into a chunk of their own and fetched the first time one of them renders. */
export interface LazyPortal<M> {
  /** Starts fetching the chunk (once); resolves when it is in. */
  preload: () => Promise<M>;
  /** A component that renders the chunk's export `name`, suspending until the chunk is in. */
  page: (name: keyof M & string) => ComponentType;
}

/**
 * Like one React.lazy per page, but per portal: once the chunk is in, all its pages render at once,
 * so moving between a portal's pages never suspends (only entering the portal shows the fallback).
 * A failed fetch stays failed (a PageLoadError for the nearest error boundary): retrying the same URL
 * inside a render would loop, and the fix for a chunk a deploy removed is a reload anyway.
 */
export function lazyPortal<M extends { [K in keyof M]: ComponentType }>(load: () => Promise<M>): LazyPortal<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  const preload = () => {
    loading ??= load().then(
      (chunk) => (loaded = chunk),
      (err: unknown) => { throw new PageLoadError(err); },
    );
    return loading;
  };
  const page = (name: keyof M & string) => {
    function PortalPage() {
      const Page: ComponentType = (loaded ?? use(preload()))[name];
      return <Page />;
    }
    PortalPage.displayName = name;
    return PortalPage;
  };
  return { preload, page };
}
