/**
 * What a store can fail with that the caller should handle, whatever the driver: the service is
 * busy (a lock held past its timeout, contention retried too often, the server unreachable). The
 * error handler answers 503 UNAVAILABLE with Retry-After; nothing was written.
 */
export class StoreUnavailable extends Error {
  readonly storeUnavailable = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

export const isStoreUnavailable = (err: unknown): err is StoreUnavailable =>
  err instanceof StoreUnavailable || (typeof err === 'object' && err !== null && (err as { storeUnavailable?: unknown }).storeUnavailable === true);
