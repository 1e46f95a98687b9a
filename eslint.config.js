// Lint: typescript-eslint with type-aware rules (floating promises matter on an async server),
// plus the import direction of STYLE.md: shared imports neither side; the client never imports the server.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'drizzle/**', 'coverage/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'drizzle.config.ts'] }, tsconfigRootDir: import.meta.dirname },
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
  {
    files: ['server/src/domain/**', 'server/src/db/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['fastify', '@fastify/*', 'socket.io', '**/routes/**', '**/plugins/**'] }] },
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
