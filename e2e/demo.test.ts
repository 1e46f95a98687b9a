/**
 * `npm run demo` (issue 16) against the real server process, with the demo's minute shortened to a
 * second: the simulated bidders bid with accounts of their own (a visitor signed in as one of the
 * README's bidders is never outbid on a bid she did not place), and every auction that ends is listed
 * again. A taken port is one line and exit 1, before the demo database is touched.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, inspectDb, ROOT, startServer, type RunningServer } from './server.js';

/** The accounts the README offers visitors (DEMO_BIDDERS in scripts/demo.ts). */
const VISITORS = ['asha', 'ravi', 'meera', 'kabir', 'zoya'];
const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function runDemo(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const proc = spawn(tsx, ['scripts/demo.ts', ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    proc.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    proc.once('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run demo', () => {
  let server: RunningServer;
  beforeAll(async () => { server = await startServer(); });
  afterAll(async () => { await server.stop('SIGKILL'); server.cleanup(); });

  it('simulated bidders never bid as a visitor, visitors can bid on every listing, and ended auctions are listed again', async () => {
    // 15 demo minutes of a second each: Vintage Cameras (2 min) ends and is listed again several times.
    const demo = await runDemo(['--url', server.url, '--minutes', '15'], { DEMO_MINUTE_MS: '1000' });
    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toMatch(/Vintage Cameras ended \(DEMO-\S+\); listed again as DEMO-/);

    const db = await inspectDb(path.join(server.dataDir, 'auction.db'));
    try {
      const bidders = await db.rows<{ username: string; n: number }>('select u.username, count(*) as n from bids b join users u on u.id = b.user_id group by u.username');
      expect(bidders.length).toBeGreaterThan(0);
      for (const b of bidders) expect(b.username, 'a bid not from a simulated bidder').toMatch(/^sim_/);
      // The ended lots were settled: simulated bidders won them.
      expect(await db.count("select count(*) as n from bids where status = 'won'")).toBeGreaterThan(0);
    } finally {
      await db.close();
    }

    for (const username of VISITORS) {
      const login = await api(server.url, 'POST', '/login', { username, password: 'demo1234' });
      expect(login.status, username).toBe(200);
      const token = login.body.token as string;
      // Funded, untouched by the simulation, and registered for every listing (so for the live ones).
      expect((await api(server.url, 'POST', '/wallet', {}, token)).body.wallet_balance).toBe(100_000);
      const auctions = (await api(server.url, 'GET', '/auctions', undefined, token)).body as { name: string; status: string; registered: boolean }[];
      expect(auctions.every((a) => a.registered), username).toBe(true);
      if (username === VISITORS[0]) {
        // Each catalogue entry (ending in 2, 4, 7 and 12 demo minutes) was listed again at least once.
        const listings = (name: string) => auctions.filter((a) => a.name === name).length;
        expect(listings('Vintage Cameras')).toBeGreaterThanOrEqual(4);
        for (const name of ['Mughal Miniatures', 'Classic Watches', 'Handloom Textiles']) expect(listings(name), name).toBeGreaterThanOrEqual(2);
        expect(auctions.filter((a) => a.status === 'settled').length).toBeGreaterThanOrEqual(4);
      }
    }
  });

  it('a taken port: one line naming another port, exit 1, and the demo database left alone', async () => {
    const dbFile = path.join(ROOT, 'data', 'demo.db');
    const before = fs.existsSync(dbFile) ? fs.statSync(dbFile).mtimeMs : null;
    const port = Number(new URL(server.url).port);
    const demo = await runDemo(['--port', String(port)], { HOST: '127.0.0.1' });
    expect(demo.code).toBe(1);
    expect(demo.output.trim()).toBe(`Port ${port} is in use: stop what uses it or run npm run demo -- --port ${port + 1}`);
    expect(fs.existsSync(dbFile) ? fs.statSync(dbFile).mtimeMs : null).toBe(before);
  });
});
