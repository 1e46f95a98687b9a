// Lint: typescript-eslint with type-aware rules (floating promises matter on an async server),
// plus import zones: shared imports neither side; the client never imports the server; a client
// feature never imports another nor the app shell; storage stays
// behind server/src/db; domain and db know nothing of HTTP or sockets; the live channel never imports
// the Fastify plugins.
import path from 'node:path';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/no-import-cycle.js';

const STORAGE_PATHS = [
  { name: 'better-sqlite3', message: 'Only server/src/db/sqlite talks to SQLite; use the store interface (server/src/db).' },
  { name: 'pg', message: 'Only server/src/db/postgres talks to PostgreSQL; use the store interface (server/src/db).' },
  { name: 'drizzle-orm', message: 'SQL and drizzle stay inside server/src/db.' },
];
const STORAGE_PATTERNS = [
  { group: ['drizzle-orm/*', 'pg-*', '**/db/sqlite/*', '**/db/postgres/*', '**/db/unit-of-work*', '**/db/sql.js'], message: 'Storage stays behind server/src/db/index.ts.' },
];
const TRANSPORT_PATTERNS = [{ group: ['fastify', '@fastify/*', 'socket.io', '**/routes/**', '**/plugins/**'], message: 'Domain rules and the store know nothing of HTTP or sockets.' }];
const PLUGIN_PATTERNS = [{ group: ['**/plugins', '**/plugins/**'], message: 'The live channel does not import the Fastify plugins: token checks are in server/src/auth (authenticate.ts).' }];

const CLOCK_PATTERNS = [{ group: ['**/plugins', '**/plugins/**', '**/routes', '**/routes/**'], message: 'The auction clock runs commands itself: it imports no Fastify plugin nor route.' }];

const CLIENT_PATTERNS = [{ group: ['**/server/**', '@auction/server'], message: 'The client never imports the server.' }];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx'];
/**
 * The zones of a file `depth` folders below its feature's folder (client/src/features/<name>/…): no
 * other feature at all, tests and their fixtures included (what two features share lives in
 * client/src/lib; client/src/app composes features, e.g. the save star in the lot rows); and nothing
 * of client/src/app (route paths are in client/src/config). no-restricted-imports reads the import as
 * written, so the patterns count the `../` that lead from this depth up to client/src/features.
 */
function featureZone(depth, tests) {
  const dir = `client/src/features/*/${'*/'.repeat(depth)}`;
  const up = '\\.\\./'.repeat(depth + 1);
  return {
    files: tests ? [`${dir}*.test.ts`, `${dir}*.test.tsx`] : [`${dir}*.ts`, `${dir}*.tsx`],
    ...(tests ? {} : { ignores: TEST_FILES }),
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          ...CLIENT_PATTERNS,
          {
            regex: `^${up}(?:\\.\\./features/)?(?!\\.)[^/]+(?:/|$)`,
            message: 'Features never import each other: move what two features share into client/src/lib, and compose features in client/src/app.',
          },
          { regex: `^${up}\\.\\./app(?:/|$)`, message: 'Features never import client/src/app (the shell); route paths are in client/src/config/paths.ts.' },
        ],
      }],
    },
  };
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'drizzle/**', 'coverage/**', 'data/**', 'e2e/contract/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'eslint-rules/*.js', 'drizzle.config.ts', 'drizzle.postgres.config.ts'] }, tsconfigRootDir: import.meta.dirname },
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
  // No import cycles anywhere (type-only imports included: a cycle of types is still a knot to untie).
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    // Sources import './x.js' for './x.ts' (NodeNext); the client imports without extensions.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ conditionNames: ['source', 'import', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // import-x/no-cycle skips `import type` and `import { type X }`: this local rule sees those too (and
  // re-exports, `import()` and `typeof import()`), over the graph of these folders built once per run.
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { local },
    rules: { 'local/no-import-cycle': ['error', { root: import.meta.dirname, dirs: ['server/src', 'client/src', 'shared/src', 'scripts', 'e2e', 'eslint-rules'] }] },
  },
  // No source file over 400 lines, every line counted (tests excepted; dist and generated files are ignored above).
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'e2e/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  // Every package is declared by the workspace that imports it (test tools by the root, which runs the
  // tests); code that ships may not rely on a development-only package.
  ...['client', 'server', 'shared', '.'].map((workspace) => ({
    files: workspace === '.' ? ['e2e/**', 'scripts/**', '*.ts', '*.js', '*.mjs'] : [`${workspace}/**`],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-extraneous-dependencies': ['error', {
        packageDir: [...new Set([path.join(import.meta.dirname, workspace), import.meta.dirname])],
        devDependencies: ['**/*.test.ts', '**/*.test.tsx', '**/test/**', 'e2e/**', 'scripts/**', '*.config.ts', '**/vite.config.ts', '**/*.config.js', 'vitest.config.ts'],
        optionalDependencies: false,
        peerDependencies: false,
      }],
    },
  })),
  // The rules of hooks, and every value an effect or memo reads among its dependencies.
  {
    files: ['client/src/**/*.ts', 'client/src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['shared/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/client/**', '@auction/server', '@auction/client'] }] },
  },
  {
    files: ['client/src/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: CLIENT_PATTERNS }] },
  },
  // Feature zones (docs/architecture.md, "The client"), for files up to three folders below a feature's folder.
  ...[0, 1, 2, 3].flatMap((depth) => [featureZone(depth, false), featureZone(depth, true)]),
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
  // The live channel authenticates sockets with server/src/auth, never through the HTTP plugins.
  {
    files: ['server/src/live/**'],
    rules: { 'no-restricted-imports': ['error', { paths: STORAGE_PATHS, patterns: [...STORAGE_PATTERNS, ...PLUGIN_PATTERNS] }] },
  },
  // The auction clock (server/src/clock) runs commands on its own timers: storage behind the store
  // interface, and no HTTP plugin or route.
  {
    files: ['server/src/clock/**'],
    rules: { 'no-restricted-imports': ['error', { paths: STORAGE_PATHS, patterns: [...STORAGE_PATTERNS, ...CLOCK_PATTERNS] }] },
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
