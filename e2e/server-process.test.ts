import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ROOT, signUp, startServer, waitFor, type RunningServer } from './server.js';

/** A GET with exactly this Accept-Encoding (fetch would choose its own and decompress). */
function rawGet(url: string, acceptEncoding: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the production server process', () => {
  let server: RunningServer;
  beforeAll(async () => { server = await startServer(); });
  afterAll(async () => { await server.stop('SIGKILL'); server.cleanup(); });

  it('serves the landing page at /', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(await res.text()).toContain('<div id="root">');
  });

  it('serves the app for a deep link (history fallback) but JSON 404 for unknown API paths', async () => {
    for (const page of ['/user/dashboard', '/admin/auctions/A-1', '/no/such/page']) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status, page).toBe(200);
      expect(await res.text()).toContain('<div id="root">');
    }
    const api = await fetch(`${server.url}/api/no-such-route`);
    expect(api.status).toBe(404);
    expect((await api.json()).code).toBe('NOT_FOUND');
    const asset = await fetch(`${server.url}/assets/missing-file.js`);
    expect(asset.status).toBe(404);
  });

  it('caches fingerprinted assets for good and the page never', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const res = await fetch(`${server.url}${script}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/`)).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the build’s precompressed assets (brotli, else gzip) to a browser that accepts them', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const plain = await rawGet(`${server.url}${script}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await rawGet(`${server.url}${script}`, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    // The file written at build, sent as it is: a third of the script or less.
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gzip = await rawGet(`${server.url}${script}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  });

  it('answers /api/health', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(await res.json()).toEqual({ status: 'ok', db: 'ok', store: 'sqlite', redis: 'off', draining: false, scheduler: 'active' });
  });
});

describe('graceful shutdown', () => {
  it('finishes in-flight requests on SIGTERM, exits 0, and loses nothing', async () => {
    const first = await startServer();
    const names = Array.from({ length: 6 }, (_, i) => `graceful_${i}`);
    const inFlight = names.map((username) =>
      fetch(`${first.url}/api/register`, json({ name: 'G', username, password: 'secret1', mobile_number: '9876543210' })));
    await new Promise((r) => setTimeout(r, 30));
    const code = await first.stop('SIGTERM');
    const statuses = await Promise.all(inFlight.map(async (p) => (await p).status));
    expect(statuses).toEqual(names.map(() => 201));
    expect(code).toBe(0);
    await expect(fetch(`${first.url}/api/health`)).rejects.toThrow();

    const second = await startServer({}, first.dataDir);
    try {
      for (const username of names) {
        const res = await fetch(`${second.url}/api/login`, json({ username, password: 'secret1' }));
        expect(res.status, username).toBe(200);
      }
    } finally {
      await second.stop();
      second.cleanup();
    }
  });
});

describe('the production server log (info, the default level)', () => {
  it('logs /api/ws?token=… with the token redacted, and no token or password anywhere', async () => {
    const server = await startServer({ LOG_LEVEL: 'info' });
    try {
      const token = await signUp(server.url, 'user', 'logged_user', 'hunter22');
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/ws?token=${token}`);
      const ready = await new Promise<string>((resolve, reject) => {
        ws.once('message', (raw: Buffer) => resolve(raw.toString()));
        ws.once('error', reject);
      });
      expect(JSON.parse(ready)).toMatchObject({ type: 'ready', role: 'user' });
      ws.close();
      // Whatever the logger still buffers is written on the way out.
      expect(await server.stop('SIGTERM')).toBe(0);
      const log = server.output();
      expect(log).toContain('/api/ws?token=[redacted]');
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.split('.')[2]);
      expect(log).not.toContain('hunter22');
    } finally {
      await server.stop('SIGKILL');
      server.cleanup();
    }
  });
});

describe('npm start in a terminal', () => {
  it('says where to open it once listening (the JSON log too), and a second server on the taken port says so in one line and exits 1', async () => {
    const first = await startServer({ LOG_LEVEL: 'info' });
    try {
      // Not held back by the buffered log until exit: both lines arrive while the server runs.
      await waitFor(() => first.output().includes(`Auction platform at ${first.url}\n`), 2000, 'the listening line');
      await waitFor(() => first.output().includes('"msg":"Server listening at'), 2000, "Fastify's listening log line");
      const port = new URL(first.url).port;
      const otherDb = path.join(first.dataDir, 'second.db');
      const second = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: ROOT, env: { ...process.env, PORT: port, HOST: '127.0.0.1', DATABASE_URL: otherDb }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      second.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      second.stderr.on('data', (d: Buffer) => { out += d.toString(); });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code, out).toBe(1);
      // One line (after start.mjs's own "Building…" when a source changed meanwhile), no stack trace.
      expect(out.trim().split('\n').at(-1)).toBe(`Port ${port} is in use: stop what uses it or start on another port, e.g. PORT=${Number(port) + 1} npm start`);
      expect(out).not.toMatch(/^\s+at /m);
      // Found out before opening its store: nothing was created or settled.
      expect(fs.existsSync(otherDb)).toBe(false);
    } finally {
      await first.stop('SIGKILL');
      first.cleanup();
    }
  });
});
