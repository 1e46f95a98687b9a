// `npm run backup -- <file> [--force]`: build the server if it is missing or stale (where it can be built),
// then run its backup command (server/src/backup.ts), which works in a production install too.
import { ensureBuilt } from './build.mjs';

try {
  await ensureBuilt({ quiet: true, client: false });
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
await import('../server/dist/backup.js');
