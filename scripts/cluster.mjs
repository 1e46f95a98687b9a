// `npm run cluster -- --workers N`: build what is missing or stale, then run N server processes on one
// port, on PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). See server/src/cluster.ts and docs/deploy.md.
import { ensureBuilt } from './build.mjs';

await ensureBuilt();
await import('../server/dist/cluster.js');
