import { defineConfig } from 'drizzle-kit';

// Migrations are generated (`npm run db:generate`) and applied by the server at start; never `push`.
export default defineConfig({
  dialect: 'sqlite',
  schema: ['./server/src/db/sqlite/schema.ts', './server/src/db/sqlite/houses-schema.ts', './server/src/db/sqlite/billing-schema.ts'],
  out: './drizzle/sqlite',
});
