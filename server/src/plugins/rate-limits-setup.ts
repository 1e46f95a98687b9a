import rateLimit from '@fastify/rate-limit';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { Config } from '../config.js';
import type { App } from '../context.js';
import type { Store } from '../db/index.js';
import { AppError } from '../errors.js';
import type { RedisRelay } from '../live/relay.js';
import { redisNamespace } from '../redis-setup.js';
import { RateLimitCounters } from './rate-limit-store.js';

/**
 * @fastify/rate-limit on the root instance (per-route limits, from each route's `config`), and the
 * per-account limit on credential changes, returned as an onRequest hook for those routes.
 * When Redis cannot be reached the relay and the store are closed and the error thrown.
 */
export async function rateLimits(
  app: App,
  config: Config,
  shared: { store: Store; redisRelay: RedisRelay | null; onRedisError: (err: unknown) => void },
): Promise<onRequestAsyncHookHandler | null> {
  const { store, redisRelay, onRedisError } = shared;
  // Credential changes are limited per account as well as per IP: a wrong current password
  // costs a scrypt, and guessing must not go on by changing address. Null when RATE_LIMIT=off.
  let credentialRateLimit: onRequestAsyncHookHandler | null = null;
  if (config.rateLimit) {
    // With several processes the counters live in Redis, so a limit holds over the whole cluster; while
    // Redis is away (or slow to answer) each process counts on its own, and no request waits for it.
    let counters: RateLimitCounters | null = null;
    if (config.redisUrl && redisRelay) {
      try {
        counters = await RateLimitCounters.open({
          url: config.redisUrl,
          prefix: `auction-rl:${redisNamespace(config.databaseUrl)}:`,
          name: `auction-limits-${redisRelay.node}`,
          onError: onRedisError,
          onChange: (degraded, err) => {
            if (degraded) app.log.warn({ err }, 'rate limits: Redis is away or slow; counting in this process until it answers');
            else app.log.info('rate limits: counting in Redis again');
          },
        });
      } catch (err) {
        await redisRelay.close();
        await store.close();
        throw new Error(`Redis at ${config.redisUrl} cannot be reached: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      const opened = counters;
      app.addHook('onClose', () => opened.close());
    }
    await app.register(rateLimit, {
      global: false,
      ...(counters ? { store: counters.store, skipOnError: true } : {}),
      errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `Too many attempts; try again in ${ctx.after}` }),
    });
    // Same store (Redis when shared) and options; the key is the caller's account, so users and admins
    // (separate id spaces) each have their own. The plugin allows one limit of its own per route (the
    // per-IP one, from the route's config), so this one is checked here, after the guard set `caller`.
    // 10 attempts per 15 minutes per account, successful or not (a wrong current password counts).
    const perAccount = app.createRateLimit({
      max: 10,
      timeWindow: 15 * 60_000,
      keyGenerator: (req) => `credentials:${req.caller?.role ?? 'none'}:${req.caller?.id ?? req.ip}`,
    });
    const inWords = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
    credentialRateLimit = async (req, reply) => {
      const limit = await perAccount(req);
      if (limit.isAllowed || !limit.isExceeded) return;
      const wait = limit.ttlInSeconds < 60 ? inWords(limit.ttlInSeconds, 'second') : inWords(Math.ceil(limit.ttlInSeconds / 60), 'minute');
      reply.header('retry-after', String(limit.ttlInSeconds));
      throw new AppError('RATE_LIMITED', `Too many password change attempts for this account; try again in ${wait}`);
    };
  }
  return credentialRateLimit;
}
