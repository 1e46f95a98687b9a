/**
 * The rate limiter's counters (rate-limit-store.ts) as two processes see them, with the real Redis
 * behind a proxy the test cuts: cluster-wide while Redis answers; per process, and at once, while it
 * is away or hung; cluster-wide again once it is back.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterEach, describe, expect, it } from 'vitest';
import { redisAvailable, TEST_REDIS_URL } from '../db/testing.js';
import { eventually } from '../test/live-helpers.js';
import { redisProxy } from '../test/redis-proxy.js';
import { LIMIT_DEADLINE_MS, RateLimitCounters } from './rate-limit-store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A "process": an app with one route limited to 3 a minute per `x-key`, counting through `url`. */
async function limitedApp(url: string, prefix: string) {
  const changes: boolean[] = [];
  const counters = await RateLimitCounters.open({ url, prefix, name: 'test-limits', onError: () => undefined, onChange: (degraded) => changes.push(degraded) });
  const app: FastifyInstance = Fastify();
  cleanups.push(async () => { await app.close(); await counters.close(); });
  await app.register(rateLimit, { global: false, store: counters.store, skipOnError: true });
  app.get('/limited', { config: { rateLimit: { max: 3, timeWindow: 60_000, keyGenerator: (req) => String(req.headers['x-key']) } } }, async () => ({ ok: true }));
  await app.ready();
  const hit = async (key: string) => {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: '/limited', headers: { 'x-key': key } });
    return { status: res.statusCode, ms: performance.now() - started };
  };
  return { hit, changes };
}

describe.runIf(redisAvailable)('rate-limit counters when Redis goes away', () => {
  it('hold over both processes with Redis, per process (answering at once) while it is cut or hung, and over both again once it is back', async () => {
    const proxy = await redisProxy(TEST_REDIS_URL);
    cleanups.push(() => proxy.close());
    const prefix = `test-rl-${randomUUID()}:`;
    const [a, b] = [await limitedApp(proxy.url, prefix), await limitedApp(proxy.url, prefix)];
    const statuses = async (p: typeof a, key: string, n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const r = await p.hit(key);
        expect(r.ms, `answered in ${r.ms.toFixed(0)} ms`).toBeLessThan(LIMIT_DEADLINE_MS + 50);
        out.push(r.status);
      }
      return out;
    };

    // Redis answers: three through one process use up the key for both.
    expect(await statuses(a, 'k1', 3)).toEqual([200, 200, 200]);
    expect(await statuses(b, 'k1', 1)).toEqual([429]);

    // Redis hangs (connections open, nothing answers): each process counts on its own, within the deadline.
    proxy.hang();
    expect(await statuses(a, 'k2', 4)).toEqual([200, 200, 200, 429]);
    expect(await statuses(b, 'k2', 4)).toEqual([200, 200, 200, 429]);
    // Redis is gone (connections dropped and refused): the same, and what a process counted before still counts.
    proxy.restore();
    proxy.cut();
    expect(await statuses(a, 'k1', 1)).toEqual([429]);
    expect(await statuses(b, 'k3', 4)).toEqual([200, 200, 200, 429]);
    expect(a.changes[0]).toBe(true);

    // Back: counted in Redis again, over both processes.
    proxy.restore();
    let round = 0;
    await eventually(async () => {
      const key = `k4-${++round}`;
      expect(await statuses(a, key, 3)).toEqual([200, 200, 200]);
      expect(await statuses(b, key, 1)).toEqual([429]);
    }, 5000, 100);
    expect(a.changes.at(-1)).toBe(false);
  });
});
