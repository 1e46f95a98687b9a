/**
 * How many sockets watch an auction, over every process (docs/live-protocol.md). Each process knows only its
 * own sockets; `report` tells the tally this process's count and answers the total.
 *
 * With Redis, each auction has a hash of process → count, and each process keeps a heartbeat key
 * that expires a few seconds after the process stops refreshing it. The total is summed in one Lua
 * script that also drops the counts of processes whose heartbeat has expired, so the sockets of a
 * killed process stop counting within HEARTBEAT_TTL_MS (they reconnect to another process and are
 * counted there).
 */
import type { Redis } from 'ioredis';
import { withDeadline } from '../redis.js';

export interface WatcherTally {
  /**
   * This process now has `local` watchers of `auctionId`; resolves with the count over every process,
   * or null when that cannot be known now (Redis away or slow: the caller goes on with its own count).
   */
  report(auctionId: string, local: number): Promise<number | null>;
  close(): Promise<void>;
}

/** One process: its own count is the count. */
export const localTally: WatcherTally = {
  report: (_auctionId, local) => Promise.resolve(local),
  close: () => Promise.resolve(),
};

export const HEARTBEAT_MS = 1000;
export const HEARTBEAT_TTL_MS = 3000;
/** How long a watch's answer waits for the cluster-wide count before it gives this process's own. */
export const REPORT_DEADLINE_MS = 100;
/** A tally hash outlives its last change by a day, then Redis forgets it. */
const TALLY_TTL_MS = 24 * 3600_000;

// KEYS[1]: the auction's hash. ARGV: this node, its count, the heartbeat key prefix, the hash's TTL.
// Reads heartbeat keys not named in KEYS: fine on one Redis server (not on Redis Cluster).
const REPORT = `
if tonumber(ARGV[2]) > 0 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) else redis.call('HDEL', KEYS[1], ARGV[1]) end
local total = 0
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if redis.call('EXISTS', ARGV[3] .. all[i]) == 1 then total = total + tonumber(all[i + 1]) else redis.call('HDEL', KEYS[1], all[i]) end
end
if #all > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return total`;

type WithReport = Redis & { watchersReport(key: string, node: string, count: number, prefix: string, ttl: number): Promise<number> };

export class RedisTally implements WatcherTally {
  private readonly heartbeat: NodeJS.Timeout;
  private readonly prefix: string;

  private constructor(private readonly redis: WithReport, private readonly node: string, private readonly namespace: string, onError: (err: unknown) => void) {
    this.prefix = `auction:node:${namespace}:`;
    // While Redis is away there is nothing to refresh (and nothing to say about it every second).
    this.heartbeat = setInterval(() => { if (redis.status === 'ready') this.beat().catch(onError); }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  static async open(redis: Redis, node: string, namespace: string, onError: (err: unknown) => void): Promise<RedisTally> {
    if (!('watchersReport' in redis)) redis.defineCommand('watchersReport', { numberOfKeys: 1, lua: REPORT });
    const tally = new RedisTally(redis as WithReport, node, namespace, onError);
    await tally.beat();
    return tally;
  }

  private beat() {
    return this.redis.set(this.prefix + this.node, '1', 'PX', HEARTBEAT_TTL_MS);
  }

  async report(auctionId: string, local: number): Promise<number | null> {
    if (this.redis.status !== 'ready') return null;
    const key = `auction:watchers:${this.namespace}:${auctionId}`;
    try {
      return Number(await withDeadline(this.redis.watchersReport(key, this.node, local, this.prefix, TALLY_TTL_MS), REPORT_DEADLINE_MS));
    } catch {
      // The hub's sweep reports again within HEARTBEAT_MS, and announces the total once Redis answers.
      return null;
    }
  }

  /** This process stops counting at once (its sockets are closing). */
  async close() {
    clearInterval(this.heartbeat);
    if (this.redis.status === 'ready') await this.redis.del(this.prefix + this.node).catch(() => undefined);
  }
}
