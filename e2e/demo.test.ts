/**
 * `npm run demo` against the real server process, with the demo's minute shortened to a
 * second: the simulated bidders bid with accounts of their own (a visitor signed in as one of the
 * README's bidders is never outbid on a bid she did not place), and every auction that ends is listed
 * again: the first KEEP_SETTLED settled, later ones replaced (deleted unsettled, their lots listed
 * anew), so the Ended tab holds a few. Every lot has its generated photo and a starting price. A
 * taken port is one line and exit 1, before the demo database is touched.
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
  // A server that leaves settling to the demo, as the demo's own does (AUTO_SETTLE=false).
  beforeAll(async () => { server = await startServer({ AUTO_SETTLE: 'false' }); });
  afterAll(async () => { await server.stop('SIGKILL'); server.cleanup(); });

  it('simulated bidders never bid as a visitor, visitors can bid on every listing, and ended auctions are listed again', async () => {
    // 15 demo minutes of a second each: Vintage Cameras (2 min) ends and is listed again several times.
    const demo = await runDemo(['--url', server.url, '--minutes', '15'], { DEMO_MINUTE_MS: '1000' });
    expect(demo.code, demo.output).toBe(0);
    expect(demo.output).toMatch(/Vintage Cameras ended \(CAMERAS-1-\w+, settled\); listed again as CAMERAS-2-/);
    // Past the first three settled, an ended auction is replaced: its lots listed again.
    expect(demo.output).toMatch(/Vintage Cameras ended \(CAMERAS-\d+-\w+, replaced \(its lots listed again\)\)/);
    expect(demo.output.match(/Vintage Cameras ended/g)?.length ?? 0).toBeGreaterThanOrEqual(4);

    const db = await inspectDb(path.join(server.dataDir, 'auction.db'));
    try {
      const bidders = await db.rows<{ username: string; n: number }>('select u.username, count(*) as n from bids b join users u on u.id = b.user_id group by u.username');
      expect(bidders.length).toBeGreaterThan(0);
      for (const b of bidders) expect(b.username, 'a bid not from a simulated bidder').toMatch(/^sim_/);
      // The ended lots were settled: simulated bidders won them; only the first three auctions to end were settled.
      expect(await db.count("select count(*) as n from bids where status = 'won'")).toBeGreaterThan(0);
      expect(await db.count('select count(*) as n from auctions where settled_at is not null')).toBe(3);
      // Every lot has its photo, and opens at its own starting price.
      expect(await db.count('select count(*) as n from products p where not exists (select 1 from product_images i where i.product_id = p.id)')).toBe(0);
      expect(await db.count("select count(*) as n from products where id like 'LEICA-M3%' and starting_price = 4500000")).toBeGreaterThan(0);
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
        // Each catalogue entry (ending in 2, 4, 7 and 12 demo minutes) is listed and open now; the
        // ended ones shown are the three settled and at most one per entry waiting to be replaced.
        for (const name of ['Vintage Cameras', 'Mughal Miniatures', 'Classic Watches', 'Handloom Textiles']) expect(auctions.some((a) => a.name === name), name).toBe(true);
        expect(auctions.filter((a) => a.status === 'settled').length).toBe(3);
        expect(auctions.filter((a) => a.status !== 'active').length).toBeLessThanOrEqual(3 + 4);
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
