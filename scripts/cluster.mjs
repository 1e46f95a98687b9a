// `npm run cluster -- --workers N`: build what is missing or stale, then run N server processes on one
// port, on PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). See server/src/cluster.ts and docs/deploy.md.
// The workers run this file too (node:cluster forks it): only the primary builds.
import cluster from 'node:cluster';
import { ensureBuilt } from './build.mjs';

if (cluster.isPrimary) {
  try {
    await ensureBuilt();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
await import('../server/dist/cluster.js');
