// The rules' own tests, which no project of the root's vitest.config.ts includes:
// `npx vitest run --config eslint-rules/vitest.config.js`.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { root: import.meta.dirname, include: ['*.test.js'], environment: 'node' } });
