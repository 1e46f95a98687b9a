// The cycle rule can fail: a cycle made only of type imports is reported, a folder without one is clean.
// Run with the server project: `npx vitest run eslint-rules --project server`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterEach, describe, expect, it } from 'vitest';
import plugin, { analyse } from './no-import-cycle.js';

const made = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary root with `files` (path → text) and a package.json naming `workspaces`. */
function tree(files, workspaces = []) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'no-import-cycle-'));
  made.push(root);
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces }));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

const rel = (root, files) => files.map((f) => path.relative(root, f).split(path.sep).join('/'));

function lint(root, name) {
  const linter = new Linter({ cwd: root });
  const config = [{
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser },
    plugins: { local: plugin },
    rules: { 'local/no-import-cycle': ['error', { root, dirs: ['src', 'pkg/src'] }] },
  }];
  const file = path.join(root, name);
  return linter.verify(fs.readFileSync(file, 'utf8'), config, { filename: file });
}

const TYPE_CYCLE = {
  'src/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
  'src/b.ts': "import { type A } from './a.js';\nexport interface B { a?: A }\n",
};

describe('no-import-cycle', () => {
  it('reports a cycle of two files that import only types of each other', () => {
    const root = tree(TYPE_CYCLE);
    expect(analyse({ root, dirs: ['src'] }).components.map((c) => rel(root, c))).toEqual([['src/a.ts', 'src/b.ts']]);
    const messages = lint(root, 'src/a.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ ruleId: 'local/no-import-cycle', line: 1 });
    expect(messages[0].message).toContain('src/a.ts → src/b.ts → src/a.ts');
    expect(lint(root, 'src/b.ts')).toHaveLength(1);
  });

  it('finds nothing where imports go one way', () => {
    const root = tree({
      'src/a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'src/b.ts': 'export interface B { n: number }\n',
    });
    expect(analyse({ root, dirs: ['src'] }).components).toEqual([]);
    expect(lint(root, 'src/a.ts')).toEqual([]);
    expect(lint(root, 'src/b.ts')).toEqual([]);
  });

  it('follows re-exports, extensionless and index imports, and workspace packages by their "source" export', () => {
    const root = tree({
      'pkg/package.json': JSON.stringify({ name: '@x/pkg', exports: { '.': { source: './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' } } }),
      'pkg/src/index.ts': "export type { Thing } from './thing';\n",
      'pkg/src/thing.ts': "import type { User } from '../../src/users';\nexport interface Thing { owner?: User }\n",
      'src/users/index.tsx': "export * from './user.js';\n",
      'src/users/user.ts': "import type { Thing } from '@x/pkg';\nexport interface User { things: Thing[] }\n",
    }, ['pkg']);
    const [cycle, ...rest] = analyse({ root, dirs: ['src', 'pkg/src'] }).components;
    expect(rest).toEqual([]);
    expect(rel(root, cycle)).toEqual(['pkg/src/index.ts', 'pkg/src/thing.ts', 'src/users/index.tsx', 'src/users/user.ts']);
    expect(lint(root, 'src/users/user.ts')[0].message).toContain('The 4 files of this cycle');
  });

  it('judges the linted text, not the file on disk, for the file being linted', () => {
    const root = tree(TYPE_CYCLE);
    const linter = new Linter({ cwd: root });
    const file = path.join(root, 'src/b.ts');
    const config = [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { local: plugin }, rules: { 'local/no-import-cycle': ['error', { root, dirs: ['src'] }] } }];
    expect(linter.verify('export interface B { n: number }\n', config, { filename: file })).toEqual([]);
  });
});
