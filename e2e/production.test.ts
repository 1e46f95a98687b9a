/**
 * A production install (README "Installing for production"): `npm run build`, then `npm ci --omit=dev`,
 * then `npm start`. The tree is made as that install makes it, without the time a real `npm ci` takes
 * here (better-sqlite3 compiles from source): the repository's files and builds, and in node_modules
 * exactly the packages `npm ls --omit=dev` names, copied (hard links) rather than linked, so that
 * nothing resolves back into the development tree. No TypeScript, Vite, tsx or test tool is there.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../server/src/test/live-helpers.js';
import { ROOT, freePort, waitFor } from './server.js';

const exec = promisify(execFile);
let tree: string;

/** The packages a production install holds, as paths relative to the repository (node_modules/…). */
async function productionPackages(): Promise<string[]> {
  const { stdout } = await exec('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').map((line) => path.relative(ROOT, line.trim())).filter((rel) => rel.includes('node_modules'));
}

/** The repository as a checkout has it, with the builds, and node_modules as `npm ci --omit=dev` leaves it. */
async function productionTree(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-production-'));
  const keep = (rel: string) => !/(^|\/)node_modules(\/|$)/.test(rel);
  for (const entry of ['package.json', 'package-lock.json', 'scripts', 'drizzle', 'shared', 'server', 'client']) {
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true, preserveTimestamps: true, filter: (src) => keep(path.relative(ROOT, src)) });
  }
  // Outer packages first, so that a nested one lands in its copied parent only when the parent lacks it.
  for (const rel of (await productionPackages()).sort((a, b) => a.length - b.length)) {
    const to = path.join(dir, rel);
    if (fs.existsSync(to)) continue;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (rel.startsWith('node_modules/@auction/')) {
      fs.symlinkSync(path.join('..', '..', path.basename(rel)), to);
      continue;
    }
    // Hard links where /tmp is on the same file system, copies where it is not (a tmpfs).
    await exec('cp', ['-al', path.join(ROOT, rel), to]).catch(() => exec('cp', ['-a', path.join(ROOT, rel), to]));
  }
  return dir;
}

/** `node <args>` in the tree, with no development tool on the PATH either. */
function run(args: string[], env: Record<string, string> = {}) {
  const PATH = (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules')).join(path.delimiter);
  let out = '';
  const proc = spawn(process.execPath, args, { cwd: tree, env: { ...process.env, PATH, LOG_LEVEL: 'warn', RATE_LIMIT: 'off', PASSWORD_HASH_COST: '10', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, exited, output: () => out };
}

beforeAll(async () => { tree = await productionTree(); }, 120_000);
afterAll(() => { if (tree) fs.rmSync(tree, { recursive: true, force: true }); });

describe('a production install (npm run build, then npm ci --omit=dev)', () => {
  it('has none of the development tools, and npm run build says it cannot build there', async () => {
    // What npm itself leaves out (not what this test removes): none of them is a dependency of what runs.
    const names = new Set((await productionPackages()).map((rel) => rel.slice(rel.lastIndexOf('node_modules/') + 'node_modules/'.length)));
    for (const dev of ['typescript', 'vite', 'tsx', 'vitest', 'eslint', '@vitejs/plugin-react', 'drizzle-kit', 'jsdom', 'playwright-core']) {
      expect(names.has(dev), dev).toBe(false);
      expect(fs.existsSync(path.join(tree, 'node_modules', dev)), dev).toBe(false);
      expect(fs.existsSync(path.join(tree, 'client', 'node_modules', dev)), `client/${dev}`).toBe(false);
    }
    expect(fs.existsSync(path.join(tree, 'node_modules', 'fastify'))).toBe(true);
    expect(fs.existsSync(path.join(tree, 'node_modules', '.bin', 'tsc'))).toBe(false);
    // `npm run build` in the wrong place fails loudly instead of leaving the old build looking new.
    const build = run(['scripts/build.mjs']);
    expect(await build.exited).toBe(1);
    expect(build.output()).toContain('the server cannot be built here: this install has no development packages');
  });

  it('npm start serves the app, the API, the live channel and /metrics without building; npm run backup works', async () => {
    const port = await freePort();
    const data = path.join(tree, 'data-test');
    const s = run(['scripts/start.mjs'], { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: path.join(data, 'auction.db') });
    try {
      await waitFor(() => s.output().includes('Auction platform at') || s.proc.exitCode !== null, 30_000, 'the server to listen');
      expect(s.output()).toContain('Auction platform at');
      expect(s.output()).not.toMatch(/Building|Warning/);
      const url = `http://127.0.0.1:${port}`;
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const json = async (p: string, body?: unknown, token?: string) => {
        const res = await fetch(`${url}/api${p}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: await res.json() as Record<string, unknown> };
      };
      expect((await json('/admin/register', { name: 'Owner', username: 'owner', password: 'secret1', mobile_number: '9876543210', role: 'admin' })).status).toBe(201);
      const login = await json('/admin/login', { username: 'owner', password: 'secret1', role: 'admin' });
      expect(login.status).toBe(200);
      const admin = login.body.token as string;
      expect((await json('/admin/product', { id: 'P1', name: 'Lamp', description: 'brass' }, admin)).status).toBe(201);
      const auction = await json('/admin/auction', { id: 'A1', name: 'Evening sale', valid_until: new Date(Date.now() + 3_600_000).toISOString(), product_ids: ['P1'] }, admin);
      expect(auction.status).toBe(201);
      const lot = await json('/products/P1');
      expect(lot.status).toBe(200);
      expect(lot.body.name).toBe('Lamp');
      const live = await connect(url, admin);
      live.close();
      const metrics = await fetch(`${url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('auction_bids_total');

      const backup = run(['scripts/backup.mjs', path.join(data, 'backup.db')], { DATABASE_URL: path.join(data, 'auction.db') });
      expect(await backup.exited, backup.output()).toBe(0);
      expect(backup.output()).toContain('integrity ok, money invariant ok');
    } finally {
      s.proc.kill('SIGTERM');
      await s.exited;
    }
  });

  it('a build older than its sources is served with a warning; a missing one stops with one line saying what to do', async () => {
    const source = path.join(tree, 'server', 'src', 'config.ts');
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(source, later, later);
    const port = await freePort();
    const stale = run(['scripts/start.mjs'], { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: ':memory:' });
    try {
      await waitFor(() => stale.output().includes('Auction platform at') || stale.proc.exitCode !== null, 30_000, 'the server to listen');
      expect(stale.output()).toContain("Warning: the server's sources changed after server/dist/index.js was built; serving the build as it is");
      expect(stale.output()).toContain('Auction platform at');
    } finally {
      stale.proc.kill('SIGTERM');
      await stale.exited;
    }
    fs.rmSync(path.join(tree, 'client', 'dist', 'index.html'));
    const missing = run(['scripts/start.mjs'], { PORT: String(await freePort()), DATABASE_URL: ':memory:' });
    expect(await missing.exited).toBe(1);
    expect(missing.output()).toContain('client/dist/index.html is missing and the client cannot be built here');
    expect(missing.output()).toContain('Run `npm run build` before `npm ci --omit=dev`');
    expect(missing.output()).not.toMatch(/\n\s+at /);
  });
});
