import { defineConfig } from 'drizzle-kit';

// The PostgreSQL twin of drizzle.config.ts: same tables, generated from server/src/db/postgres/schema.ts
// (`npm run db:generate` generates both) and applied by the server at start; never `push`.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./server/src/db/postgres/schema.ts', './server/src/db/postgres/houses-schema.ts', './server/src/db/postgres/billing-schema.ts'],
  out: './drizzle/postgres',
});
