import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const shared = fileURLToPath(new URL('./shared/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@auction/shared': shared } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'server', include: ['shared/src/**/*.test.ts', 'server/src/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      {
        extends: true,
        test: { name: 'client', include: ['client/src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        extends: true,
        test: { name: 'e2e', globalSetup: ['./scripts/test-global-setup.ts'], include: ['e2e/**/*.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000, fileParallelism: false },
      },
    ],
  },
});
