// `npm run dev`: the server with reload on change (tsx watch, :3000) and the Vite dev server
// (:5173, proxying /api and /socket.io to :3000). Ctrl-C stops both. The server logs readable lines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// npm may install a workspace's tools under that workspace (vite sits in client/node_modules).
const bin = (name) =>
  [path.join(root, 'client', 'node_modules', '.bin', name), path.join(root, 'node_modules', '.bin', name)].find((p) => fs.existsSync(p)) ?? name;
// The server's log as readable lines rather than JSON (LOG_FORMAT=json keeps the JSON).
const serverEnv = { ...process.env, LOG_FORMAT: process.env.LOG_FORMAT ?? 'pretty' };
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/src/index.ts'], { cwd: root, stdio: 'inherit', env: serverEnv }),
  spawn(bin('vite'), ['client'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => { for (const c of children) c.kill('SIGTERM'); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
console.log('Dev servers: app on http://localhost:5173 (API on http://localhost:3000)');
