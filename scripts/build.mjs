// Builds what `npm start` serves when it is missing or older than its sources: the TypeScript of
// shared/ and server/ (tsc -b is incremental) and the client bundle (Vite).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// npm may install a workspace's tools under that workspace (vite sits in client/node_modules).
const bin = (name) =>
  [path.join(root, 'client', 'node_modules', '.bin', name), path.join(root, 'node_modules', '.bin', name)].find((p) => fs.existsSync(p)) ?? name;

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

/** @param {{ quiet?: boolean, client?: boolean }} [options] */
export async function ensureBuilt({ quiet = false, client = true } = {}) {
  const log = (msg) => { if (!quiet) console.log(msg); };
  const serverOut = path.join(root, 'server', 'dist', 'index.js');
  const serverSources = ['shared/src', 'server/src', 'server/tsconfig.json', 'shared/tsconfig.json'].map((p) => path.join(root, p));
  if (newestMtime(serverOut) < Math.max(...serverSources.map(newestMtime))) {
    log('Building server (tsc -b)…');
    run(bin('tsc'), ['-b', 'shared', 'server'], quiet);
    // tsc -b rewrites only the outputs that changed: mark the build current, or every later start
    // would build again after an edit that left index.js as it was.
    const now = new Date();
    fs.utimesSync(serverOut, now, now);
  }
  if (!client) return;
  const clientOut = path.join(root, 'client', 'dist', 'index.html');
  const clientSources = ['client/src', 'client/public', 'client/index.html', 'client/vite.config.ts', 'shared/src'].map((p) => path.join(root, p));
  if (newestMtime(clientOut) < Math.max(...clientSources.map(newestMtime))) {
    log('Building client (vite build)…');
    run(bin('vite'), ['build', 'client', '--logLevel', quiet ? 'error' : 'info'], quiet);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ensureBuilt();
