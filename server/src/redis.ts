/**
 * Redis connections that never make a request or a socket wait for an absent or hung Redis
 * (docs/deploy.md, "When Redis goes away"). Redis holds nothing of record: while it is away a process
 * goes on with what it has (its own sockets, its own rate-limit counters) instead of queueing.
 *
 * - A command issued while the connection is not ready fails at once (no offline queue, no retries):
 *   nothing piles up in memory and no caller waits for a reconnect.
 * - A connection that leaves a written command unanswered for REDIS_SOCKET_TIMEOUT_MS (a hung server,
 *   or a network that swallows packets) is destroyed and replaced, failing what it still held.
 * - Reconnects come quickly (at most a second apart), so service is whole again soon after Redis is.
 */
import { Redis, type RedisOptions } from 'ioredis';

export const REDIS_SOCKET_TIMEOUT_MS = 2000;

/** Delays between reconnect attempts: 100 ms, 200 ms, 400 ms, 800 ms, then every second. */
export const redisRetryDelay = (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 5), 1000);

export function failFastRedis(url: string, connectionName: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    socketTimeout: REDIS_SOCKET_TIMEOUT_MS,
    connectTimeout: REDIS_SOCKET_TIMEOUT_MS,
    retryStrategy: redisRetryDelay,
    connectionName,
    ...extra,
  });
}

/**
 * Hands `onError` the first error of each outage of a connection, not every failed reconnect (one
 * a second while Redis is away); the next error is reported once the connection has been ready again.
 */
export function reportRedisErrors(redis: Redis, onError: (err: unknown) => void): void {
  let reported = false;
  redis.on('error', (err: unknown) => {
    if (reported) return;
    reported = true;
    onError(err);
  });
  redis.on('ready', () => { reported = false; });
}

/** Leaves Redis: politely when connected, at once otherwise (a QUIT cannot be sent to an absent server). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => undefined);
  redis.disconnect();
}

export class RedisTimeout extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
  }
}

/**
 * `promise`, or a RedisTimeout rejection when it has not settled `ms` after the call. The deadline is
 * judged after the event loop's poll phase (setImmediate), so an answer that had already arrived when
 * a busy loop got round to the timer still counts: a slow loop is not a slow Redis.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => setImmediate(() => {
      if (settled) return;
      settled = true;
      reject(new RedisTimeout(ms));
    }), ms);
    promise.then((value) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      resolve(value);
    }, (err: unknown) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      reject(err instanceof Error ? err : new Error(String(err)));
    });
  });
}
