// `npm start`: build what is missing or stale, then run the production server in this process.
import { ensureBuilt } from './build.mjs';

await ensureBuilt();
await import('../server/dist/index.js');
