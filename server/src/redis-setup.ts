import { createHash } from 'node:crypto';
import type { Config } from './config.js';
import type { App } from './context.js';
import type { Store } from './db/index.js';
import { LocalRelay, RedisRelay, type Relay } from './live/relay.js';
import { localTally, RedisTally, type WatcherTally } from './live/watchers.js';
import type { Metrics } from './metrics.js';

/**
 * What keeps the processes of one installation together on a shared Redis and apart from others
 * (tests, other installations): a digest of where their data lives. Every process of a cluster has
 * the same DATABASE_URL.
 */
export function redisNamespace(databaseUrl: string): string {
  return createHash('sha256').update(databaseUrl).digest('hex').slice(0, 16);
}

export interface Shared {
  relay: Relay;
  tally: WatcherTally;
  /** The Redis relay when REDIS_URL is set, else null (one process on its own). */
  redisRelay: RedisRelay | null;
  onRedisError: (err: unknown) => void;
}

/**
 * Several processes share live events, watcher counts and rate limits over Redis (docs/deploy.md);
 * without REDIS_URL, this process's own relay and tally. `metrics` is read when the relay lags: the
 * metrics are made once the live hub exists, and the relay's first messages come after that.
 * When Redis cannot be reached the store is closed and the error thrown.
 */
export async function connectRedis(app: App, config: Config, store: Store, metrics: () => Metrics | null): Promise<Shared> {
  let relay: Relay = new LocalRelay();
  let tally: WatcherTally = localTally;
  let redisRelay: RedisRelay | null = null;
  const onRedisError = (err: unknown) => app.log.error({ err }, 'redis');
  if (config.redisUrl) {
    const namespace = redisNamespace(config.databaseUrl);
    try {
      redisRelay = await RedisRelay.open({
        url: config.redisUrl, namespace, onError: onRedisError, onRecovered: (what) => app.log.warn(what),
        onLag: (seconds) => metrics()?.relayLag.observe(seconds),
      });
      tally = await RedisTally.open(redisRelay.commands, redisRelay.node, namespace, onRedisError);
    } catch (err) {
      await redisRelay?.close();
      await store.close();
      throw new Error(`Redis at ${config.redisUrl} cannot be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    relay = redisRelay;
  }
  return { relay, tally, redisRelay, onRedisError };
}
