// `npm start`: build what is missing or stale, then run the production server in this process.
import { ensureBuilt } from './build.mjs';

try {
  await ensureBuilt();
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
await import('../server/dist/index.js');
