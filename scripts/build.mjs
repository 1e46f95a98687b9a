// Builds what `npm start` serves when it is missing or older than its sources: the TypeScript of
// shared/ and server/ (tsc -b is incremental) and the client bundle (Vite). `npm run build` builds both
// whatever their age. A production install (`npm ci --omit=dev` after `npm run build`) has neither tool:
// it runs what was built, and says so when the sources have changed since.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// npm may install a workspace's tools under that workspace (vite sits in client/node_modules); null
// when a production install left them out.
const tool = (name) =>
  [path.join(root, 'client', 'node_modules', '.bin', name), path.join(root, 'node_modules', '.bin', name)].find((p) => fs.existsSync(p)) ?? null;

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function run(cmd, args, quiet) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (res.status !== 0) {
    if (quiet) process.stderr.write(`${res.stdout ?? ''}${res.stderr ?? ''}`);
    throw new Error(`${path.basename(cmd)} ${args.join(' ')} failed`);
  }
}

/**
 * Where a production install cannot build: a missing build is fatal, a stale one is said and served.
 * @returns {boolean} whether `what` can be built here
 */
function canBuild(what, bin, out, stale, force) {
  if (bin !== null) return true;
  if (force) throw new Error(`${what} cannot be built here: this install has no development packages (npm ci --omit=dev). Build with \`npm ci && npm run build\`, then \`npm ci --omit=dev\`.`);
  if (!fs.existsSync(out)) {
    throw new Error(`${path.relative(root, out)} is missing and ${what} cannot be built here: this install has no development packages (npm ci --omit=dev). Run \`npm run build\` before \`npm ci --omit=dev\`, or \`npm ci\` to build here.`);
  }
  if (stale) console.warn(`Warning: ${what}'s sources changed after ${path.relative(root, out)} was built; serving the build as it is (this install cannot build: run \`npm run build\` where development packages are installed).`);
  return false;
}

/** @param {{ quiet?: boolean, client?: boolean, force?: boolean }} [options] */
export async function ensureBuilt({ quiet = false, client = true, force = false } = {}) {
  const log = (msg) => { if (!quiet) console.log(msg); };
  const serverOut = path.join(root, 'server', 'dist', 'index.js');
  const serverSources = ['shared/src', 'server/src', 'server/tsconfig.json', 'shared/tsconfig.json'].map((p) => path.join(root, p));
  const serverStale = force || newestMtime(serverOut) < Math.max(...serverSources.map(newestMtime));
  const tsc = tool('tsc');
  if (serverStale && canBuild('the server', tsc, serverOut, serverStale, force)) {
    log('Building server (tsc -b)…');
    // tsc -b trusts its .tsbuildinfo files, which live outside dist/: a deleted dist/ (or `npm run
    // build`) needs --force, or nothing is written.
    const missing = !fs.existsSync(serverOut) || !fs.existsSync(path.join(root, 'shared', 'dist', 'index.js'));
    run(tsc, ['-b', 'shared', 'server', ...(force || missing ? ['--force'] : [])], quiet);
    // tsc -b rewrites only the outputs that changed: mark the build current, or every later start
    // would build again after an edit that left index.js as it was.
    const now = new Date();
    fs.utimesSync(serverOut, now, now);
  }
  if (!client) return;
  const clientOut = path.join(root, 'client', 'dist', 'index.html');
  const clientSources = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'shared/src'].map((p) => path.join(root, p));
  const clientStale = force || newestMtime(clientOut) < Math.max(...clientSources.map(newestMtime));
  const vite = tool('vite');
  if (clientStale && canBuild('the client', vite, clientOut, clientStale, force)) {
    log('Building client (vite build)…');
    run(vite, ['build', 'client', '--logLevel', quiet ? 'error' : 'info'], quiet);
  }
}

// `node scripts/build.mjs` (`npm run build`): both, now; with `--if-stale`, what is missing or stale.
if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureBuilt({ force: !process.argv.includes('--if-stale') });
