/**
 * Rate-limit counters for @fastify/rate-limit's `store` option when several processes share Redis
 * (docs/deploy.md#when-redis-goes-away): a limit holds over the whole cluster while Redis answers, and over each process while
 * it does not. No request ever waits for Redis longer than LIMIT_DEADLINE_MS.
 *
 * Every count is also kept in this process's memory. When Redis is away (its connection not ready),
 * or does not answer within the deadline, the request is judged on those counts instead: limits still
 * hold per process (with N processes a client could get N times a limit through while Redis is
 * away), bids and logins go on, and nothing is queued for a Redis that may not come back soon. Failing
 * closed would stop every bid for as long as a component that holds nothing of record is away;
 * failing open (`skipOnError` alone) would lift the login and bid limits exactly then.
 *
 * The window is fixed (the plugin's own Redis store keeps the same: the first hit starts it).
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { closeRedis, failFastRedis, reportRedisErrors, withDeadline } from '../redis.js';

/** The longest a request waits for Redis's count before its own process's count decides. */
export const LIMIT_DEADLINE_MS = 50;
/** Keys counted in memory at most; the one whose window started longest ago is forgotten first. */
const MAX_LOCAL_KEYS = 20_000;

// KEYS[1]: the counter. ARGV[1]: the window (ms). Returns the count and the window's time left (ms).
const COUNT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return { current, redis.call('PTTL', KEYS[1]) }`;

type WithCount = Redis & { rateLimitCount(key: string, windowMs: number): Promise<[number, number]> };
type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

export class RateLimitCounters {
  private readonly local = new Map<string, { count: number; resetAt: number }>();
  /** Whether the last answer came from this process's memory (Redis away); logged when it changes. */
  private degraded = false;
  /** The class @fastify/rate-limit instantiates (`store`); route limits are its children. */
  readonly store: FastifyRateLimitStoreCtor;

  private constructor(
    private readonly redis: WithCount,
    private readonly prefix: string,
    private readonly onChange: (degraded: boolean, err?: unknown) => void,
    private readonly now: () => number,
  ) {
    const incr = (key: string, windowMs: number, callback: Callback) => this.incr(key, windowMs, callback);
    class CounterStore implements FastifyRateLimitStore {
      constructor(_options: unknown, private readonly route = '') {}
      incr(key: string, callback: Callback, timeWindow: number) {
        incr(this.route + key, timeWindow, callback);
      }
      child(routeOptions: object) {
        const info = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
        const method = Array.isArray(info.method) ? info.method.join(',') : typeof info.method === 'string' ? info.method : '';
        return new CounterStore(null, `${this.route}${method}${typeof info.url === 'string' ? info.url : ''}-`);
      }
    }
    this.store = CounterStore;
  }

  /**
   * A dedicated connection (the limiter's commands never queue behind the live channel's publishes).
   * `onChange` hears when counting falls back to this process and when Redis counts again.
   */
  static async open(opts: { url: string; prefix: string; name: string; onChange: (degraded: boolean, err?: unknown) => void; onError: (err: unknown) => void; now?: () => number }) {
    const redis = failFastRedis(opts.url, opts.name);
    reportRedisErrors(redis, opts.onError);
    redis.defineCommand('rateLimitCount', { numberOfKeys: 1, lua: COUNT });
    try {
      await redis.connect();
    } catch (err) {
      redis.disconnect();
      throw err;
    }
    return new RateLimitCounters(redis as WithCount, opts.prefix, opts.onChange, opts.now ?? Date.now);
  }

  private incr(key: string, windowMs: number, callback: Callback) {
    const local = this.countHere(key, windowMs);
    if (this.redis.status !== 'ready') {
      this.fellBack(true);
      callback(null, local);
      return;
    }
    withDeadline(this.redis.rateLimitCount(this.prefix + key, windowMs), LIMIT_DEADLINE_MS).then(([current, ttl]) => {
      this.fellBack(false);
      callback(null, { current, ttl: Math.max(ttl, 0) });
    }, (err: unknown) => {
      this.fellBack(true, err);
      callback(null, local);
    });
  }

  /** This process's own count of `key` in its current window. */
  private countHere(key: string, windowMs: number): Counted {
    const now = this.now();
    let entry = this.local.get(key);
    if (!entry || entry.resetAt <= now) {
      // A new window goes to the end of the map's order: the first entry is the oldest window.
      this.local.delete(key);
      if (this.local.size >= MAX_LOCAL_KEYS) this.local.delete(this.local.keys().next().value!);
      entry = { count: 0, resetAt: now + windowMs };
      this.local.set(key, entry);
    }
    entry.count++;
    return { current: entry.count, ttl: entry.resetAt - now };
  }

  private fellBack(degraded: boolean, err?: unknown) {
    if (degraded === this.degraded) return;
    this.degraded = degraded;
    this.onChange(degraded, err);
  }

  async close() {
    await closeRedis(this.redis);
  }
}
