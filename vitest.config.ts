import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresMissing, redisMissing, TEST_POSTGRES_URL, TEST_REDIS_URL } from './server/src/db/testing.js';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const shared = fileURLToPath(new URL('./shared/src/index.ts', import.meta.url));

/**
 * The server suites that run on BOTH stores (docs/architecture.md): the API integration tests, the access
 * matrix, the fuzzer, the money property test, the live channel, the auction clock and the read caches. The `server` project runs them on
 * SQLite; `server-postgres` runs the same files with TEST_STORE=postgres (a fresh schema per app).
 */
const BOTH_STORES = ['server/src/routes/**/*.test.ts', 'server/src/auth/session-cache.test.ts', 'server/src/cache/**/*.test.ts', 'server/src/domain/money.property.test.ts', 'server/src/domain/cancel-replay.property.test.ts', 'server/src/live/**/*.test.ts', 'server/src/clock/**/*.test.ts', 'server/src/mail/**/*.test.ts'];

const POSTGRES_URL = TEST_POSTGRES_URL;

/**
 * The client files that must have modules of their own: those that mock a module (`vi.mock`) or freeze
 * the shared clock, whose effects would otherwise reach the files after them in the same worker. The
 * rest share their worker's modules (isolate: false), which saves loading React, the router and jsdom's
 * globals again for each of them.
 */
const CLIENT_SRC = fileURLToPath(new URL('./client/src/', import.meta.url));
const CLIENT_TESTS = readdirSync(CLIENT_SRC, { recursive: true, encoding: 'utf8' }).filter((f) => /\.test\.tsx?$/.test(f)).map((f) => f.split(sep).join('/'));
const CLIENT_ISOLATED = CLIENT_TESTS.filter((f) => /\bvi\.(do)?[mM]ock\(|\bfreezeClock\(/.test(readFileSync(CLIENT_SRC + f, 'utf8'))).map((f) => `client/src/${f}`);

const missing = await postgresMissing();
if (missing) {
  const why = `PostgreSQL suites skipped: ${POSTGRES_URL} is not reachable (${missing})`;
  // CI sets REQUIRE_POSTGRES=1: there a missing database is a failure, not a skip.
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`${why}; REQUIRE_POSTGRES=1 makes this fatal`);
  console.warn(`\n${why}. Set TEST_POSTGRES_URL or start PostgreSQL to run them.\n`);
}

// Redis joins several processes (docs/architecture.md): the multi-process suites need it and PostgreSQL.
const redisGone = await redisMissing();
if (redisGone) {
  const why = `Multi-process suites skipped: Redis at ${TEST_REDIS_URL} is not reachable (${redisGone})`;
  if (process.env.REQUIRE_REDIS === '1') throw new Error(`${why}; REQUIRE_REDIS=1 makes this fatal`);
  console.warn(`\n${why}. Set TEST_REDIS_URL or start Redis to run them.\n`);
}
const redisEnv = { TEST_REDIS: redisGone ? 'missing' : 'available', TEST_REDIS_URL, TEST_POSTGRES_URL: POSTGRES_URL, TEST_POSTGRES: missing ? 'missing' : 'available' };

const E2E = { globalSetup: ['./scripts/test-global-setup.ts'], include: ['e2e/**/*.test.ts'], environment: 'node', env: redisEnv, testTimeout: 60_000, hookTimeout: 60_000 };
/**
 * End-to-end files that time things (p99s, CPU per request, slow readers), storm the server, kill or
 * reload processes, or run several servers: alone, so that nothing else on the machine skews them.
 */
const E2E_ALONE = ['e2e/bench.test.ts', 'e2e/mail.test.ts', 'e2e/slow-consumer.test.ts', 'e2e/crash.test.ts', 'e2e/cluster.test.ts', 'e2e/nginx.test.ts', 'e2e/backup.test.ts', 'e2e/server-process.test.ts', 'e2e/production.test.ts'];

const POSTGRES_PROJECT: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'server-postgres', include: [...BOTH_STORES, 'server/src/db/postgres/**/*.test.ts'],
    isolate: false,
    environment: 'node', testTimeout: 30_000, hookTimeout: 30_000, env: { ...redisEnv, TEST_STORE: 'postgres' },
  },
};

export default defineConfig({
  resolve: { alias: { '@auction/shared': shared } },
  test: {
    // Vitest's default (one worker less than the cores) is a single worker on a two-core machine, where
    // the server suites spend much of their time waiting on PostgreSQL and timers: two at once there.
    // The e2e files run after the rest: two at a time, then those that must be alone (E2E_ALONE).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'server', include: ['shared/src/**/*.test.ts', 'server/src/**/*.test.ts', 'eslint-rules/*.test.js'],
          // PostgreSQL-only suites run in server-postgres (several processes need a shared store).
          exclude: ['server/src/db/postgres/**', 'server/src/live/multi-process.test.ts', 'server/src/mail/multi-process.test.ts'],
          // Each file builds its own apps and databases: its worker's modules need not be loaded again
          // for it (the server files share no state but what they set up themselves), which halves the run.
          isolate: false,
          environment: 'node', testTimeout: 20_000, env: redisEnv,
        },
      },
      ...(missing ? [] : [POSTGRES_PROJECT]),
      {
        extends: true,
        test: { name: 'client', include: ['client/src/**/*.test.{ts,tsx}'], exclude: CLIENT_ISOLATED, isolate: false, environment: 'jsdom', setupFiles: ['./client/src/test/setup.ts'] },
      },
      {
        extends: true,
        test: { name: 'client-isolated', include: CLIENT_ISOLATED, environment: 'jsdom', setupFiles: ['./client/src/test/setup.ts'] },
      },
      // The journeys in Chromium and the other end-to-end files, two at a time once the suites above
      // are done (each starts its own server on a free port, database and folder).
      {
        extends: true,
        test: { ...E2E, name: 'e2e', exclude: E2E_ALONE, sequence: { groupOrder: 1 } },
      },
      // Those that measure time or load, or load the machine themselves: one at a time, last.
      {
        extends: true,
        test: { ...E2E, name: 'e2e-alone', include: E2E_ALONE, fileParallelism: false },
      },
    ],
  },
});
