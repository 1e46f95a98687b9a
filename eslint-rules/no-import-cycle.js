// An ESLint rule that sees every import cycle, type-only imports included.
//
// eslint-plugin-import-x's no-cycle skips `import type` and `import { type X }`, so a knot made of
// types goes unseen. This rule builds the whole import graph of the given folders once per lint run
// (typescript's preProcessFile reads each file's imports, re-exports, `import()` calls and
// `typeof import()` types without parsing it), finds its strongly connected components (Tarjan) and
// reports, in every file of a component, each import that leads back into it, with the component's
// files. Resolution follows the sources: './x.js' → './x.ts' or './x.tsx', extensionless imports,
// index files, and the workspace packages through their package.json "exports" ("source" condition
// first), "source" or "main".
//
// Run it alone with `node eslint-rules/no-import-cycle.js [root]`: it prints every cycle and exits 1
// if there is one.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** The folders whose files make the graph, relative to the root. */
export const DEFAULT_DIRS = ['server/src', 'client/src', 'shared/src', 'scripts', 'e2e', 'eslint-rules'];
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.git']);
/** What an import written with a JavaScript extension may stand for, in the order TypeScript tries. */
const EXTENSION_ALIASES = { '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'], '.jsx': ['.tsx', '.jsx'], '.mjs': ['.mts', '.d.mts', '.mjs'], '.cjs': ['.cts', '.d.cts', '.cjs'] };
const CONDITIONS = new Set(['source', 'import', 'node', 'default']);
/** How long a built graph is trusted (an editor's ESLint server lives long; a CLI run is one build). */
const GRAPH_TTL_MS = 10_000;

function isSourceFile(name) {
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

function walk(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.') || SKIPPED_FOLDERS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile() && isSourceFile(entry.name)) out.push(full);
  }
  return out;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The workspaces' package.json files: name → { dir, manifest }. */
function workspacePackages(root) {
  const manifest = readJson(path.join(root, 'package.json'));
  const patterns = Array.isArray(manifest?.workspaces) ? manifest.workspaces : manifest?.workspaces?.packages ?? [];
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
    const parent = path.join(root, pattern.slice(0, -2));
    try {
      return fs.readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(parent, e.name));
    } catch {
      return [];
    }
  });
  const packages = new Map();
  for (const dir of dirs) {
    const pkg = readJson(path.join(dir, 'package.json'));
    if (pkg?.name) packages.set(pkg.name, { dir, manifest: pkg });
  }
  return packages;
}

/** The target of a conditional export: the first condition (in the object's order) that applies. */
function conditionTarget(value) {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const target = conditionTarget(item);
      if (target) return target;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [condition, target] of Object.entries(value)) {
      if (CONDITIONS.has(condition)) {
        const found = conditionTarget(target);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** A package's file for `subpath` ('.' or './x'), from "exports", else "source" or "main". */
function packageTarget(manifest, subpath) {
  const { exports } = manifest;
  if (exports !== undefined && exports !== null) {
    const isSubpathMap = typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
    if (!isSubpathMap) return subpath === '.' ? conditionTarget(exports) : undefined;
    if (subpath in exports) return conditionTarget(exports[subpath]);
    for (const [key, value] of Object.entries(exports)) {
      const star = key.indexOf('*');
      if (star < 0) continue;
      const prefix = key.slice(0, star);
      const suffix = key.slice(star + 1);
      if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
        const target = conditionTarget(value);
        return target?.replaceAll('*', subpath.slice(prefix.length, subpath.length - suffix.length));
      }
    }
    return undefined;
  }
  if (subpath !== '.') return subpath;
  return manifest.source ?? manifest.module ?? manifest.main ?? './index.js';
}

/** Makes `resolve(fromFile, specifier)` → a file of the graph, or undefined (a package, a built file, a JSON file…). */
export function createResolver(files, packages) {
  const known = new Set(files);
  const firstKnown = (candidates) => candidates.find((candidate) => known.has(candidate));
  const resolvePath = (base) => {
    const ext = path.extname(base);
    const aliases = EXTENSION_ALIASES[ext];
    if (aliases) {
      const stem = base.slice(0, -ext.length);
      const found = firstKnown(aliases.map((alias) => stem + alias));
      if (found) return found;
    }
    if (known.has(base)) return base;
    return firstKnown(SOURCE_EXTENSIONS.map((e) => base + e)) ?? firstKnown(SOURCE_EXTENSIONS.map((e) => path.join(base, `index${e}`)));
  };
  return (fromFile, specifier) => {
    if (specifier.startsWith('.') || path.isAbsolute(specifier)) return resolvePath(path.resolve(path.dirname(fromFile), specifier));
    const parts = specifier.split('/');
    const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
    const pkg = packages.get(name);
    if (!pkg) return undefined;
    const rest = specifier.slice(name.length);
    const target = packageTarget(pkg.manifest, rest ? `.${rest}` : '.');
    return target ? resolvePath(path.resolve(pkg.dir, target)) : undefined;
  };
}

/** The imports of one file's text: { specifier, target, pos, end } (pos/end: the specifier's text). */
export function importsOf(file, text, resolve) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const out = [];
  for (const ref of importedFiles) {
    const target = resolve(file, ref.fileName);
    if (target) out.push({ specifier: ref.fileName, target, pos: ref.pos, end: ref.end });
  }
  return out;
}

/** Tarjan's strongly connected components of `edges` (Map file → Set of files), iteratively. */
export function stronglyConnected(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  for (const start of edges.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, targets: [...(edges.get(start) ?? [])], i: 0 }];
    index.set(start, next);
    low.set(start, next);
    next += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.i < frame.targets.length) {
        const target = frame.targets[frame.i];
        frame.i += 1;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, targets: [...(edges.get(target) ?? [])], i: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.get(frame.node)?.has(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The shortest path of imports from `from` to `to` inside `members`, both ends included. */
export function shortestPath(edges, from, to, members) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head];
    if (node === to && head > 0) break;
    for (const target of edges.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === to) {
        const pathBack = [to, node];
        for (let at = previous.get(node); at !== undefined; at = previous.get(at)) pathBack.push(at);
        return pathBack.reverse();
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [from, to];
}

function edgeMap(imports) {
  const edges = new Map();
  for (const [file, list] of imports) edges.set(file, new Set(list.map((i) => i.target)));
  return edges;
}

/**
 * The import graph of `dirs` under `root`: { root, files, imports (file → its imports), edges
 * (file → Set of files), components (the cycles: sorted lists of files), resolve }.
 */
export function analyse({ root, dirs = DEFAULT_DIRS }) {
  const files = dirs.flatMap((dir) => walk(path.resolve(root, dir), []));
  const resolve = createResolver(files, workspacePackages(root));
  const imports = new Map();
  for (const file of files) imports.set(file, importsOf(file, fs.readFileSync(file, 'utf8'), resolve));
  const edges = edgeMap(imports);
  return { root, files, imports, edges, components: stronglyConnected(edges), resolve };
}

const cache = new Map();
function cachedAnalysis(root, dirs) {
  const key = JSON.stringify([root, dirs]);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < GRAPH_TTL_MS) return hit.graph;
  const graph = analyse({ root, dirs });
  cache.set(key, { at: Date.now(), graph });
  return graph;
}

const rel = (root, file) => path.relative(root, file).split(path.sep).join('/');

/** The rule. Options: { root (default: ESLint's cwd), dirs (default: DEFAULT_DIRS) }. */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports and re-exports included' },
    schema: [{
      type: 'object',
      properties: { root: { type: 'string' }, dirs: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    }],
    messages: {
      cycle: "Import cycle (type-only imports count): {{path}}. The {{count}} files of this cycle: {{files}}.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const root = path.resolve(options.root ?? context.cwd);
    const dirs = options.dirs ?? DEFAULT_DIRS;
    const file = path.resolve(context.physicalFilename ?? context.filename);
    return {
      Program() {
        const graph = cachedAnalysis(root, dirs);
        if (!graph.imports.has(file)) return;
        // The text being linted may differ from the disk (an editor's unsaved buffer): its own imports count.
        const own = importsOf(file, context.sourceCode.text, graph.resolve);
        const ownTargets = new Set(own.map((i) => i.target));
        const onDisk = graph.edges.get(file);
        let { edges, components } = graph;
        if (ownTargets.size !== onDisk.size || [...ownTargets].some((t) => !onDisk.has(t))) {
          edges = new Map(graph.edges);
          edges.set(file, ownTargets);
          components = stronglyConnected(edges);
        }
        const component = components.find((c) => c.includes(file));
        if (!component) return;
        const members = new Set(component);
        const files = component.map((f) => rel(root, f)).join(', ');
        const reported = new Set();
        for (const { target, pos, end } of own) {
          if (!members.has(target) || reported.has(target)) continue;
          reported.add(target);
          const cycle = target === file ? [file, file] : [file, ...shortestPath(edges, target, file, members)];
          context.report({
            loc: { start: context.sourceCode.getLocFromIndex(pos), end: context.sourceCode.getLocFromIndex(end) },
            messageId: 'cycle',
            data: { path: cycle.map((f) => rel(root, f)).join(' → '), count: String(component.length), files },
          });
        }
      },
    };
  },
};

/** The plugin, for eslint.config.js: `plugins: { local: plugin }`, rule 'local/no-import-cycle'. */
const plugin = { meta: { name: 'local' }, rules: { 'no-import-cycle': noImportCycle } };
export default plugin;

/** Prints every cycle of the graph under `root`; returns their number. */
export function printCycles(root, dirs = DEFAULT_DIRS, log = console.log) {
  const started = Date.now();
  const graph = analyse({ root, dirs });
  for (const [n, component] of graph.components.entries()) {
    const members = new Set(component);
    const first = component[0];
    const next = [...graph.edges.get(first)].find((t) => members.has(t) && t !== first);
    const loop = next ? [first, ...shortestPath(graph.edges, next, first, members)] : [first, first];
    log(`cycle ${n + 1} (${component.length} files): ${loop.map((f) => rel(root, f)).join(' → ')}`);
    for (const f of component) log(`  ${rel(root, f)}`);
  }
  log(`${graph.components.length} import cycle(s) among ${graph.files.length} files (${Date.now() - started} ms)`);
  return graph.components.length;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(process.argv[2] ?? '.');
  process.exitCode = printCycles(root) > 0 ? 1 : 0;
}
