// Lint: typescript-eslint with type-aware rules (floating promises matter on an async server),
// plus one import direction: shared imports neither side; the client never imports the server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const STORAGE_PATHS = [
  { name: 'better-sqlite3', message: 'Only server/src/db/sqlite talks to SQLite; use the store interface (server/src/db).' },
  { name: 'pg', message: 'Only server/src/db/postgres talks to PostgreSQL; use the store interface (server/src/db).' },
  { name: 'drizzle-orm', message: 'SQL and drizzle stay inside server/src/db.' },
];
const STORAGE_PATTERNS = [
  { group: ['drizzle-orm/*', 'pg-*', '**/db/sqlite/*', '**/db/postgres/*', '**/db/unit-of-work*', '**/db/sql.js'], message: 'Storage stays behind server/src/db/index.ts.' },
];
const TRANSPORT_PATTERNS = [{ group: ['fastify', '@fastify/*', 'socket.io', '**/routes/**', '**/plugins/**'], message: 'Domain rules and the store know nothing of HTTP or sockets.' }];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'drizzle/**', 'coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'drizzle.config.ts', 'drizzle.postgres.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/require-await': 'off',
      'no-console': 'off',
    },
  },
  {
    files: ['shared/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/client/**', '@auction/server', '@auction/client'] }] },
  },
  {
    files: ['client/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '@auction/server'] }] },
  },
  // Storage stays behind server/src/db (docs/architecture.md): no driver, dialect or drizzle module anywhere
  // else on the server (routes, domain, live, the scheduler, presenters, plugins), nor in the scripts
  // and end-to-end tests, which use the store interface too. Only the stores and their own tests may.
  {
    files: ['server/src/**', 'scripts/**', 'e2e/**'],
    ignores: ['server/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { paths: STORAGE_PATHS, patterns: STORAGE_PATTERNS }] },
  },
  // Domain rules and the store know nothing of HTTP or sockets.
  {
    files: ['server/src/domain/**'],
    rules: { 'no-restricted-imports': ['error', { paths: STORAGE_PATHS, patterns: [...STORAGE_PATTERNS, ...TRANSPORT_PATTERNS] }] },
  },
  {
    files: ['server/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: TRANSPORT_PATTERNS }] },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'server/src/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
