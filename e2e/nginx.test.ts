/**
 * The deployment files that ship (docs/deploy.md): Debian's nginx on docs/nginx.conf in front of the
 * command docs/auction.service starts, with two workers on PostgreSQL and Redis. Through nginx: the HTTP
 * contract, photos, body limits, compression, /metrics hidden, nginx's own request ids, live watchers
 * on both transports; then the service's reload (SIGHUP to its main process) under bids and reads, and
 * its stop. The service logs every request (LOG_LEVEL=info): its lines say which worker answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDatabase, redisAvailable, TEST_REDIS_URL, type TestDatabase } from '../server/src/db/testing.js';
import { connect, connectWs } from '../server/src/test/live-helpers.js';
import { NGINX, nginxConfForTest, readServiceUnit, spawnExecStart, startNginx, type NginxProcess, type ServiceUnit } from './nginx.js';
import { ROOT, api, freePort, openMarket, waitFor, type Market } from './server.js';

const SECRET = 'nginx-test-secret-that-is-long-enough-0123456789';
/** The contract's smoke test beside the repository, else this repository's copy of it. */
const SMOKE = [path.resolve(ROOT, '../shared/contract/smoke.mjs'), path.join(ROOT, 'e2e/contract/smoke.mjs')].find((p) => fs.existsSync(p))!;
const servicesUp = process.env.TEST_POSTGRES === 'available' && redisAvailable;
const nginxUp = fs.existsSync(NGINX);

/** A GET with exactly this Accept-Encoding (fetch would choose its own and decompress). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/**
 * Whether the application answered (it echoes the request's id, nginx's own `$request_id` through
 * nginx); nginx's own refusals carry none.
 */
const fromApplication = (res: Response) => res.headers.has('x-request-id');

/** nginx's `$request_id`: 32 hexadecimal digits. */
const NGINX_REQUEST_ID = /^[0-9a-f]{32}$/;

/** The service's main process, with its output as timed lines. */
interface Service {
  proc: ChildProcess;
  lines: { at: number; text: string }[];
  output(): string;
  exited: Promise<number | null>;
  /** Worker pids in the order they said they listen, with when. */
  listening(): { pid: number; at: number }[];
  /** The request lines logged so far: each answered request's id, with the pid of the worker that answered it. */
  requests(): Map<string, number>;
}

/** The unit's ExecStart with two workers (its own default is one per core). */
function startService(unit: ServiceUnit, env: Record<string, string>): Service {
  const proc = spawnExecStart(unit, ['--workers', '2'], env);
  const lines: Service['lines'] = [];
  let partial = '';
  const take = (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop()!;
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  proc.stdout!.on('data', take);
  proc.stderr!.on('data', take);
  return {
    proc,
    lines,
    output: () => lines.map((l) => l.text).join('\n') + partial,
    exited: new Promise((resolve) => proc.once('exit', (code) => resolve(code))),
    // A worker's first line is its shared port (the primary logs every server a worker opens).
    listening: () => {
      const seen = new Map<number, number>();
      for (const l of lines) {
        const pid = Number(/worker (\d+) listening on/.exec(l.text)?.[1]);
        if (pid && !seen.has(pid)) seen.set(pid, l.at);
      }
      return [...seen].map(([pid, at]) => ({ pid, at }));
    },
    // The workers' JSON lines share one pipe: a line two writes tore apart is skipped.
    requests: () => {
      const ids = new Map<string, number>();
      for (const l of lines) {
        if (!l.text.startsWith('{') || !l.text.includes('"request completed"')) continue;
        try {
          const line = JSON.parse(l.text) as { msg?: string; reqId?: unknown; pid?: unknown };
          if (line.msg === 'request completed' && typeof line.reqId === 'string' && typeof line.pid === 'number') ids.set(line.reqId, line.pid);
        } catch { /* torn */ }
      }
      return ids;
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// CI installs nginx (.ci/run): there a missing one is a failure, not a reason to skip (as REQUIRE_POSTGRES).
it.runIf(process.env.CI === 'true')('has nginx, as CI must', () => {
  expect(nginxUp, `${NGINX} is missing: apt-get install nginx`).toBe(true);
});

describe.runIf(servicesUp && nginxUp)('docs/nginx.conf in front of docs/auction.service', () => {
  let unit: ServiceUnit;
  let database: TestDatabase | undefined;
  let service: Service | undefined;
  let nginx: NginxProcess | undefined;
  let dir: string | undefined;
  let direct: string;
  let market: Market;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    unit = readServiceUnit();
    database = freshTestDatabase('postgres');
    const port = await freePort();
    direct = `http://127.0.0.1:${port}`;
    service = startService(unit, {
      DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, JWT_SECRET: SECRET, PORT: String(port), HOST: '127.0.0.1',
      TRUST_PROXY: 'true', LOG_LEVEL: 'info', RATE_LIMIT: 'off', PASSWORD_HASH_COST: '10',
    });
    const s = service;
    await waitFor(() => s.listening().length >= 2 || s.proc.exitCode !== null, 30_000, `two workers listening:\n${s.output()}`);
    if (s.proc.exitCode !== null) throw new Error(`the service exited (${s.proc.exitCode}):\n${s.output()}`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'auction-nginx-'));
    const listenPort = await freePort();
    const conf = nginxConfForTest(fs.readFileSync(path.join(ROOT, 'docs', 'nginx.conf'), 'utf8'), { upstreamPort: port, listenPort, dir });
    nginx = await startNginx(dir, conf, listenPort, '/api/health');
    market = await openMarket(nginx.url, 'ngx', { products: 2, bidders: 4 });
  });

  afterAll(async () => {
    for (const close of closers) close();
    await nginx?.stop();
    // Whatever the service left (its process group, as systemd's final SIGKILL to the control group).
    if (service?.proc.pid) {
      try {
        process.kill(-service.proc.pid, 'SIGKILL');
      } catch { /* every process of it has exited */ }
      if (service.proc.exitCode === null && service.proc.signalCode === null) await service.exited;
    }
    await database?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the unit runs from a folder with an environment file, restarts, and reloads and stops by signal', () => {
    const one = (key: string) => unit.service.get(key)?.at(-1);
    expect(one('WorkingDirectory')).toMatch(/^\//);
    expect(one('EnvironmentFile')).toMatch(/^-?\/\S+$/);
    expect(one('Restart')).toBe('always');
    expect(one('TimeoutStopSec')).toMatch(/^\d+s?$/);
    expect(one('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(unit.execStart.slice(1)).toEqual(['scripts/cluster.mjs']);
  });

  it('passes the HTTP contract smoke test', async () => {
    expect(fs.existsSync(SMOKE), `the contract's smoke test at ${SMOKE}`).toBe(true);
    const smoke = spawn(process.execPath, [SMOKE, nginx!.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    smoke.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    smoke.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const code = await new Promise<number | null>((resolve) => smoke.once('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toMatch(/contract: \d+ passed, 0 failed/);
  });

  it('takes photos up to MEDIA_MAX_MB and CSV imports, and refuses other bodies over 64 KiB itself', async () => {
    const token = market.adminToken;
    const product = 'ngx-photo';
    expect((await api(nginx!.url, 'POST', '/admin/product', { id: product, name: 'Noisy lamp', description: 'photo' }, token)).status).toBe(201);
    const upload = (bytes: Buffer, type: string) => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type }), 'photo');
      return fetch(`${nginx!.url}/api/admin/products/${product}/images`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    };
    // A 2 MB photo (noise does not compress) is stored.
    const side = 830;
    const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png().toBuffer();
    expect(png.length).toBeGreaterThan(2_000_000);
    const stored = await upload(png, 'image/png');
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect((await stored.json()).image).toMatchObject({ width: side, height: side });
    // A body of MEDIA_MAX_MB reaches the application (which finds it is no picture).
    const mb = (await api(nginx!.url, 'GET', '/admin/settings', undefined, token)).body.media_max_mb as number;
    const largest = await upload(randomBytes(mb * 1024 * 1024 - 4096), 'image/jpeg');
    expect(fromApplication(largest), 'answered by the application').toBe(true);
    expect([largest.status, (await largest.json()).code]).toEqual([400, 'VALIDATION']);
    // So does a CSV import over 64 KiB (its columns are wrong: refused by the application, by line).
    const csv = `colour\n${'x\n'.repeat(50_000)}`;
    const imported = await fetch(`${nginx!.url}/api/admin/products/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csv });
    expect(fromApplication(imported), 'answered by the application').toBe(true);
    expect([imported.status, (await imported.json()).code]).toEqual([400, 'VALIDATION']);
    // 100 KB of JSON anywhere else: nginx answers 413 itself, in the application's error shape.
    const big = await fetch(`${nginx!.url}/api/wallet/topup`, {
      method: 'POST', headers: { authorization: `Bearer ${market.bidders[0]!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 10, note: 'x'.repeat(100_000) }),
    });
    expect(big.status).toBe(413);
    expect(fromApplication(big), 'refused by nginx, before the application').toBe(false);
    expect(big.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String), message: expect.any(String) });
  });

  it('compresses: the built assets as the application sent them, and JSON it sent uncompressed', async () => {
    const html = (await rawGet(`${nginx!.url}/`, { 'accept-encoding': 'gzip' }));
    expect(html.headers['content-encoding']).toBe('gzip');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec((await (await fetch(`${nginx!.url}/`)).text()))![1]!;
    const js = await rawGet(`${nginx!.url}${script}`, { 'accept-encoding': 'gzip' });
    expect([js.status, js.headers['content-encoding']]).toEqual([200, 'gzip']);
    // An auction's two lots (between 256 bytes and 1 KiB) leave the application as they are; nginx gzips them.
    const lots = (base: string, headers: Record<string, string> = {}) =>
      rawGet(`${base}/api/auctions/${market.auctionId}/products`, { 'accept-encoding': 'gzip', authorization: `Bearer ${market.bidders[0]!.token}`, ...headers });
    const plain = await lots(direct);
    expect(plain.headers['content-encoding'], 'the application leaves an answer under 1 KiB uncompressed').toBeUndefined();
    expect(plain.body.length).toBeGreaterThanOrEqual(256);
    const viaNginx = await lots(nginx!.url);
    expect([viaNginx.status, viaNginx.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(viaNginx.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(zlib.gunzipSync(viaNginx.body).toString())).toEqual(JSON.parse(plain.body.toString()));
    // Also for a request that came through another proxy (it carries Via).
    expect((await lots(nginx!.url, { via: '1.1 cdn' })).headers['content-encoding']).toBe('gzip');
  });

  it('hides /metrics from the public (the application answers it on loopback)', async () => {
    const own = await fetch(`${direct}/metrics`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('# HELP');
    for (const p of ['/metrics', '/metrics?x=1', '//metrics', '/%6Detrics']) {
      const res = await fetch(`${nginx!.url}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('# HELP');
    }
  });

  it('sets its own X-Request-Id toward the application: the id a client sends is not the one the application logs and echoes', async () => {
    const chosen = 'chosen-by-the-client-1';
    // Directly, the application keeps an id that looks like one (a balancer's), so a client there could choose it.
    const own = await fetch(`${direct}/api/time`, { headers: { 'x-request-id': chosen } });
    expect(own.headers.get('x-request-id')).toBe(chosen);
    // Through nginx: nginx's own id, a new one for every request, whatever the client sent.
    const via = await Promise.all([1, 2].map(() => fetch(`${nginx!.url}/api/time`, { headers: { 'x-request-id': chosen } })));
    const ids = via.map((res) => res.headers.get('x-request-id') ?? '');
    expect(via.map((res) => res.status)).toEqual([200, 200]);
    for (const id of ids) expect(id).toMatch(NGINX_REQUEST_ID);
    expect(new Set(ids).size).toBe(2);
    // The application's log has each under nginx's id; the client's id is only on the direct request's line.
    const s = service!;
    await waitFor(() => {
      const logged = s.requests();
      return logged.has(chosen) && ids.every((id) => logged.has(id));
    }, 5000, 'the request lines of these requests');
    const mentions = s.lines.filter((l) => l.text.includes(chosen)).map((l) => l.text);
    expect(mentions, 'one request line under the id the client chose: the direct one').toHaveLength(1);
    expect(JSON.parse(mentions[0]!)).toMatchObject({ msg: 'request completed', reqId: chosen });
  });

  it('passes both live sockets: a bid placed through nginx reaches a socket.io and an /api/ws watcher', async () => {
    const watcher = market.bidders[1]!.token;
    const io = await connect(nginx!.url, watcher);
    closers.push(io.close);
    expect(io.socket.io.engine.transport.name).toBe('websocket');
    expect(await io.watch(market.auctionId)).toMatchObject({ status: 'ok' });
    const ws = await connectWs(nginx!.url, watcher);
    closers.push(ws.close);
    ws.send({ type: 'watch', auction_id: market.auctionId });
    await waitFor(() => ws.messages.some((m) => m.type === 'watching'), 5000, 'the /api/ws watch answer');
    const bid = await api(nginx!.url, 'POST', '/bid', { product_id: market.productIds[0], bid_amount: 500 }, market.bidders[3]!.token);
    expect(bid.status).toBe(201);
    const id = bid.body.bid.bid_id as number;
    const placed = (events: { event: string; data: unknown }[]) => events.some((e) => e.event === 'bid:placed' && (e.data as { bid_id: number }).bid_id === id);
    await waitFor(() => placed(io.roomEvents()) && placed(ws.frames().flatMap((f) => f.events)), 5000, 'bid:placed on both sockets');
  });

  it('reloads (SIGHUP to the main process, as ExecReload) one worker at a time under bids and reads through nginx', async () => {
    const s = service!;
    const before = s.listening().map((l) => l.pid).filter(alive);
    expect(before).toHaveLength(2);
    const answers: { kind: 'bid' | 'read'; at: number; status: number; id: string | null }[] = [];
    const failures: string[] = [];
    let running = true;
    const call = async (kind: 'bid' | 'read', p: string, init: RequestInit, ok: number) => {
      try {
        const res = await fetch(`${nginx!.url}/api${p}`, { ...init, signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        answers.push({ kind, at: Date.now(), status: res.status, id: res.headers.get('x-request-id') });
        if (res.status !== ok) failures.push(`${kind} ${res.status} ${text.slice(0, 200)}`);
      } catch (err) {
        failures.push(`${kind}: ${(err as Error).message}`);
      }
    };
    // Every bid valid: each lot's amount rises by ₹1 a round, from two bidders taking turns.
    const bids = (async () => {
      for (let i = 0; running; i++) {
        const lot = i % 2;
        const round = Math.floor(i / 2);
        const bidder = market.bidders[lot + 2 * (round % 2)]!;
        const body = JSON.stringify({ product_id: market.productIds[lot], bid_amount: 1000 + round });
        await call('bid', '/bid', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bidder.token}` }, body }, 201);
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const reads = (async () => {
      while (running) {
        await call('read', `/auctions/${market.auctionId}/products`, { headers: { authorization: `Bearer ${market.bidders[0]!.token}` } }, 200);
        await new Promise((r) => setTimeout(r, 40));
      }
    })();
    await new Promise((r) => setTimeout(r, 1000));
    const sighupAt = Date.now();
    const exits = new Map<number, number>();
    const watchExits = setInterval(() => { for (const pid of before) if (!exits.has(pid) && !alive(pid)) exits.set(pid, Date.now()); }, 10);
    s.proc.kill('SIGHUP');
    try {
      await waitFor(() => s.output().includes('SIGHUP: every worker replaced'), 40_000, 'the reload to finish')
        .catch((err: Error) => { throw new Error(`${err.message}:\n${s.output()}`); });
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      running = false;
      clearInterval(watchExits);
      await Promise.all([bids, reads]);
    }
    const doneAt = s.lines.find((l) => l.text.includes('every worker replaced'))!.at;

    expect(failures, 'no request failed through nginx during the reload').toEqual([]);
    const during = answers.filter((a) => a.at > sighupAt && a.at < doneAt);
    expect(during.filter((a) => a.kind === 'bid').length, 'bids answered during the reload').toBeGreaterThan(5);
    expect(during.filter((a) => a.kind === 'read').length, 'reads answered during the reload').toBeGreaterThan(20);

    // Every worker replaced: two new ones, the old ones gone.
    const fresh = s.listening().filter((l) => l.at > sighupAt);
    expect(fresh).toHaveLength(2);
    expect(fresh.map((l) => l.pid).filter((pid) => before.includes(pid))).toEqual([]);
    expect(before.filter(alive)).toEqual([]);
    // One at a time: a new worker listens, then an old one goes; only then the next new one starts.
    const [gone1, gone2] = [...exits.values()].sort((a, b) => a - b) as [number, number];
    expect(fresh[0]!.at).toBeLessThan(gone1);
    expect(gone1).toBeLessThan(fresh[1]!.at);
    expect(fresh[1]!.at).toBeLessThan(gone2);
    // And the workers seen answering (their request lines, by nginx's request id): only the old ones
    // before the reload, only the new ones after it. Old workers write their last lines as they exit.
    let logged = s.requests();
    const pidOf = (a: (typeof answers)[number]) => (a.id === null ? undefined : logged.get(a.id));
    await waitFor(() => {
      logged = s.requests();
      return answers.filter((a) => pidOf(a) !== undefined).length >= answers.length * 0.95;
    }, 5000, 'the request lines of the answers');
    const seen = (from: number, to: number) => new Set(answers.filter((a) => a.at > from && a.at < to).map(pidOf).filter((pid) => pid !== undefined));
    const seenBefore = seen(0, sighupAt);
    const seenAfter = seen(doneAt, Infinity);
    expect([...seenBefore].filter((pid) => !before.includes(pid))).toEqual([]);
    expect(seenAfter.size).toBeGreaterThan(0);
    expect([...seenAfter].filter((pid) => !fresh.some((f) => f.pid === pid))).toEqual([]);
  });

  it('stops on SIGTERM to the main process alone (KillMode=mixed): every worker drains and exits, then the primary', async () => {
    expect(unit.service.get('KillMode')).toEqual(['mixed']);
    const signal = (unit.service.get('KillSignal')?.[0] ?? 'SIGTERM') as NodeJS.Signals;
    const timeoutS = Number(unit.service.get('TimeoutStopSec')?.[0] ?? 90);
    const s = service!;
    const workers = s.listening().map((l) => l.pid).filter(alive);
    expect(workers).toHaveLength(2);
    s.proc.kill(signal);
    const code = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r('timed out'), Math.min(timeoutS, 20) * 1000))]);
    expect(code, s.output()).toBe(0);
    expect(workers.filter(alive)).toEqual([]);
    // With no machine answering, nginx says so in the application's error shape.
    const down = await fetch(`${nginx!.url}/api/time`);
    expect([down.status, down.headers.get('retry-after'), (await down.json()).code]).toEqual([503, '5', 'UNAVAILABLE']);
  });
});
