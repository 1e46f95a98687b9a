/**
 * Slow clients and connection limits (docs/deploy.md#slow-clients-and-connection-limits), through a
 * real listening server and raw sockets. The timeouts are shortened (REQUEST_TIMEOUT_S=2,
 * KEEP_ALIVE_TIMEOUT_S=1) to keep the tests quick; the last test checks the defaults the server runs with.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it, type TestContext } from 'vitest';
import { createProducts, makeApp, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connect, connectWs } from '../test/live-helpers.js';
import { multipart } from '../test/photo-helpers.js';
import { addressKey, isLoopback, maxConnectionsOf, openFileLimit } from './connections.js';

/** An app listening on 127.0.0.1, closed when the test ends. */
async function serve(t: TestContext, overrides: Parameters<typeof makeApp>[0] = {}, options: Parameters<typeof makeApp>[1] = {}) {
  const app = await makeApp(overrides, options);
  t.onTestFinished(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}

/** A raw connection: what it received, and when (ms after it opened) the server closed it. */
function raw(port: number, localAddress = '127.0.0.1') {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  const opened = performance.now();
  let received = '';
  socket.on('data', (d: Buffer) => { received += d.toString('latin1'); });
  socket.on('error', () => { /* a reset is a close too */ });
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - opened)));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, connected, received: () => received };
}

/** Resolves with the close time, or with Infinity if the server has not closed it within `ms`. */
const closedWithin = (c: { closed: Promise<number> }, ms: number) =>
  Promise.race([c.closed, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), ms))]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET /api/health from `localAddress` on a fresh connection: its status, or the error's code. */
function health(port: number, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/health', localAddress, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
  });
}

describe('slow requests are cut off', () => {
  it('a login body trickled a byte every 200 ms gets 408 REQUEST_TIMEOUT and is closed within REQUEST_TIMEOUT_S + 1 s', async (t) => {
    const { port } = await serve(t, { requestTimeoutS: 2 });
    const c = raw(port);
    await c.connected;
    const body = JSON.stringify({ username: 'someone', password: 'secret123' });
    c.socket.write(`POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    let sent = 0;
    const trickle = setInterval(() => { if (!c.socket.destroyed && sent < body.length) c.socket.write(body[sent++]!); }, 200);
    const at = await closedWithin(c, 8000);
    clearInterval(trickle);
    expect(at).toBeLessThan(3000 + 500);
    expect(at).toBeGreaterThan(1900);
    expect(sent).toBeLessThan(body.length);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(c.received().slice(c.received().indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'The request took too long to arrive', message: 'The request took too long to arrive', code: 'REQUEST_TIMEOUT',
    });
  });

  it('headers trickled a byte at a time, or nothing sent at all: closed within REQUEST_TIMEOUT_S + 1 s', async (t) => {
    const { port } = await serve(t, { requestTimeoutS: 2 });
    const [headers, silent] = [raw(port), raw(port)];
    await Promise.all([headers.connected, silent.connected]);
    const head = 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Padding: ' + 'a'.repeat(200);
    let sent = 0;
    const trickle = setInterval(() => { if (!headers.socket.destroyed) headers.socket.write(head[sent++ % head.length]!); }, 100);
    const [a, b] = await Promise.all([closedWithin(headers, 8000), closedWithin(silent, 8000)]);
    clearInterval(trickle);
    expect(a).toBeLessThan(3000 + 500);
    expect(b).toBeLessThan(3000 + 500);
    expect(headers.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a photo arriving at 64 KiB/s (MIN_BODY_RATE_KB_S is 16) keeps its connection past REQUEST_TIMEOUT_S and is stored; one at 4 KiB/s is cut', async (t) => {
    const { app, port } = await serve(t, { requestTimeoutS: 1 });
    const admin = await signUpAdmin(app);
    const [fast, slow] = await createProducts(app, admin.token, 2);
    // Noise does not compress: a PNG of ~190 KB.
    const png = await sharp(randomBytes(250 * 250 * 3), { raw: { width: 250, height: 250, channels: 3 } }).png().toBuffer();
    const send = (productId: string, bytesPerS: number) => {
      const { payload, headers } = multipart([{ field: 'image', bytes: png, filename: 'noise.png', contentType: 'image/png' }]);
      const c = raw(port);
      c.socket.write(`POST /api/admin/products/${productId}/images HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\n`
        + `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`);
      const chunk = bytesPerS / 10;
      let at = 0;
      const pace = setInterval(() => {
        if (c.socket.destroyed || at >= payload.length) return clearInterval(pace);
        c.socket.write(payload.subarray(at, at += chunk));
      }, 100);
      return { c, stop: () => clearInterval(pace), sent: () => at, total: payload.length };
    };
    const quick = send(fast!, 64 * 1024);
    const crawl = send(slow!, 4 * 1024);
    // 1 s, then a second more for every 16 KiB: at 4 KiB/s the deadline runs out after ~1.3 s.
    const crawlClosed = await closedWithin(crawl.c, 6000);
    crawl.stop();
    expect(crawlClosed).toBeLessThan(3500);
    expect(crawl.c.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(crawl.sent()).toBeLessThan(crawl.total);
    // ~3 s for the quick one, three times REQUEST_TIMEOUT_S: answered 201 on an open connection.
    for (let i = 0; i < 100 && !quick.c.received().includes('\r\n\r\n'); i++) await sleep(100);
    quick.stop();
    expect(quick.c.received()).toMatch(/^HTTP\/1\.1 201 /);
    quick.c.socket.destroy();
  });

  it('an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_S; until then it serves the next request', async (t) => {
    const { port } = await serve(t, { keepAliveTimeoutS: 1 });
    const c = raw(port);
    await c.connected;
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(500);
    c.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    const at = await closedWithin(c, 6000);
    expect(c.received().match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
    expect(at).toBeGreaterThan(1400);
    expect(at).toBeLessThan(3000);
  });

  it('websockets (socket.io and /api/ws) stay open well past REQUEST_TIMEOUT_S and KEEP_ALIVE_TIMEOUT_S', async (t) => {
    const { app, port } = await serve(t, { requestTimeoutS: 1, keepAliveTimeoutS: 1 });
    const user = await signUpUser(app);
    const base = `http://127.0.0.1:${port}`;
    const [io, ws] = await Promise.all([connect(base, user.token), connectWs(base, user.token)]);
    await sleep(3500);
    expect(io.socket.connected).toBe(true);
    expect(ws.closeCode()).toBeNull();
    // Both still answer.
    expect(await io.socket.emitWithAck('auction:watch', 'no-such-auction')).toMatchObject({ status: 'error' });
    ws.send({ type: 'watch', auction_id: 'no-such-auction' });
    await sleep(200);
    expect(ws.messages.length).toBeGreaterThan(0);
    expect(ws.closeCode()).toBeNull();
    io.close();
    ws.close();
  });
});

describe('what Node refuses before any route', () => {
  it('is answered in the error shape, then the connection closed: malformed HTTP 400 VALIDATION, headers over 16 KiB 431 HEADERS_TOO_LARGE', async (t) => {
    const { port } = await serve(t);
    const answer = async (request: string) => {
      const c = raw(port);
      await c.connected;
      c.socket.write(request);
      expect(await closedWithin(c, 3000)).toBeLessThan(1000);
      const text = c.received();
      return { status: text.slice(9, 12), body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown };
    };
    expect(await answer('THIS IS NOT HTTP\r\n\r\n')).toEqual({ status: '400', body: { error: 'The request is not valid HTTP', message: 'The request is not valid HTTP', code: 'VALIDATION' } });
    expect(await answer(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toEqual({
      status: '431', body: { error: 'The request headers are too large', message: 'The request headers are too large', code: 'HEADERS_TOO_LARGE' },
    });
  });
});

/** The answer a refused connection got: status, headers (lower-case names) and the parsed body. */
function answerOf(text: string) {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { statusLine, headers, body: JSON.parse(text.slice(split + 4)) as unknown };
}

/** `count` GETs of /api/health at once (fetch opens a connection for each one in flight): how many were answered 200, and the failures. */
async function concurrentFetches(port: number, count: number) {
  const answers = await Promise.all(Array.from({ length: count }, () => fetch(`http://127.0.0.1:${port}/api/health`)
    .then(async (res) => { await res.arrayBuffer(); return res.status; }, (err: Error) => err.message)));
  return { ok: answers.filter((a) => a === 200).length, failed: answers.filter((a) => a !== 200) };
}

describe('connections per client address', () => {
  it('past MAX_CONNECTIONS_PER_IP exactly the excess are answered 503 UNAVAILABLE (Retry-After, Connection: close) and closed; none dropped silently; logged once', async (t) => {
    const CAP = 5;
    const EXTRA = 3;
    const lines: { level: number; msg: string; refused?: number; cap?: number }[] = [];
    const { port } = await serve(t, { maxConnectionsPerIp: CAP, capLoopback: true, logLevel: 'warn' }, { logStream: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
    const all = Array.from({ length: CAP + EXTRA }, () => raw(port));
    await Promise.all(all.map((c) => c.connected));
    const outcomes = await Promise.all(all.map((c) => closedWithin(c, 1500)));
    const refused = all.filter((_, i) => outcomes[i] !== Infinity);
    const held = all.filter((_, i) => outcomes[i] === Infinity);
    expect([refused.length, held.length]).toEqual([EXTRA, CAP]);
    for (const h of held) expect(h.received()).toBe('');
    for (const r of refused) {
      const answer = answerOf(r.received());
      expect(answer.statusLine).toBe('HTTP/1.1 503 Service Unavailable');
      expect(answer.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'retry-after': '5', connection: 'close' });
      expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(r.received().slice(r.received().indexOf('\r\n\r\n') + 4)));
      expect(answer.body).toEqual({ error: expect.stringContaining(`${CAP}`), message: expect.stringContaining(`${CAP}`), code: 'UNAVAILABLE' });
    }
    // One warning for the burst (a flood would not flood the log), with what it was about.
    await sleep(100);
    const warnings = lines.filter((l) => /connection refused/.test(l.msg));
    expect(warnings).toEqual([expect.objectContaining({ level: 40, refused: 1, cap: CAP })]);
    for (const h of held) h.socket.destroy();
  });

  it('a request sent on a refused connection never reaches a route: its only answer is the 503', async (t) => {
    const CAP = 2;
    const { app, port } = await serve(t, { maxConnectionsPerIp: CAP, capLoopback: true });
    let routed = 0;
    app.server.on('request', () => { routed++; });
    const held = [raw(port), raw(port)];
    await Promise.all(held.map((h) => h.connected));
    await sleep(50);
    const extra = raw(port);
    await extra.connected;
    extra.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await closedWithin(extra, 2000)).toBeLessThan(1500);
    expect(extra.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(answerOf(extra.received()).statusLine).toMatch(/^HTTP\/1\.1 503 /);
    await sleep(100);
    expect(routed).toBe(0);
    for (const h of held) h.socket.destroy();
  });

  it('websockets count toward the cap, the connections within it are served, another address is served, and a closed one makes room', async (t) => {
    const CAP = 6;
    const { app, port } = await serve(t, { maxConnectionsPerIp: CAP, capLoopback: true });
    const user = await signUpUser(app);
    // A websocket and five idle connections fill 127.0.0.1's cap.
    const ws = await connectWs(`http://127.0.0.1:${port}`, user.token);
    const held = Array.from({ length: CAP - 1 }, () => raw(port));
    await Promise.all(held.map((h) => h.connected));
    await sleep(100);
    expect(await health(port, '127.0.0.1')).toBe(503);
    // Another address is served meanwhile, and the connections within the cap still are.
    expect(await health(port, '127.0.0.2')).toBe(200);
    held[0]!.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(300);
    expect(held[0]!.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(ws.closeCode()).toBeNull();
    // One closed makes room for one more.
    held[1]!.socket.destroy();
    await held[1]!.closed;
    await sleep(50);
    expect(await health(port, '127.0.0.1')).toBe(200);
    ws.close();
    for (const h of held) h.socket.destroy();
  });

  it('loopback is not capped unless configured to: 800 fetches at once from 127.0.0.1 are all answered, with the default cap and with a cap of 5', async (t) => {
    const byDefault = await serve(t);
    expect(await concurrentFetches(byDefault.port, 800)).toEqual({ ok: 800, failed: [] });
    const small = await serve(t, { maxConnectionsPerIp: 5 });
    expect(await concurrentFetches(small.port, 200)).toEqual({ ok: 200, failed: [] });
  });

  it('past MAX_CONNECTIONS the process closes new connections at accept, from any address; room again once one closes', async (t) => {
    const { port } = await serve(t, { maxConnections: 4 });
    const held = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'].map((a) => raw(port, a));
    await Promise.all(held.map((h) => h.connected));
    await sleep(100);
    const extra = raw(port, '127.0.0.5');
    expect(await closedWithin(extra, 2000)).toBeLessThan(1000);
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await sleep(50);
    expect(await health(port, '127.0.0.5')).toBe(200);
    for (const h of held) h.socket.destroy();
  });

  it('behind a proxy (TRUST_PROXY) every connection comes from the proxy: no cap per address here', async (t) => {
    const { port } = await serve(t, { maxConnectionsPerIp: 3, capLoopback: true, trustProxy: true });
    const held = Array.from({ length: 5 }, () => raw(port));
    await Promise.all(held.map((h) => h.connected));
    expect(await health(port, '127.0.0.1')).toBe(200);
    for (const h of held) h.socket.destroy();
  });

  it('addresses are counted by IPv4 address (mapped or not) or IPv6 /64; loopback is 127.0.0.0/8 and ::1, mapped or not', () => {
    expect(addressKey('127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('2001:db8:85a3:0001:1:2:3:4')).toBe('2001:db8:85a3:1::/64');
    expect(addressKey('2001:db8:85a3:1::99')).toBe('2001:db8:85a3:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    for (const a of ['127.0.0.1', '127.200.3.4', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '::2', '192.168.1.127']) expect(isLoopback(a), a).toBe(false);
  });
});

describe('the defaults the server runs with (docs/deploy.md)', () => {
  it('headers and bodies 20 s (checked every second), bodies 16 KiB/s more, kept-alive idle 10 s, 4,096 connections per address (loopback not capped), the open-file limit less 256 in all', async (t) => {
    const app = await makeApp();
    t.onTestFinished(() => app.close());
    const s = app.server;
    expect({ headers: s.headersTimeout, checked: (s as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval, keepAlive: s.keepAliveTimeout })
      .toEqual({ headers: 20_000, checked: 1000, keepAlive: 10_000 });
    // Node's own ceiling for any request: the largest photo (8 MB and its wrapping) at 16 KiB/s, after the 20 s.
    expect(s.requestTimeout).toBe(20_000 + Math.ceil((9 * 1024) / 16) * 1000);
    expect(app.ctx.config).toMatchObject({ requestTimeoutS: 20, minBodyRateKbS: 16, keepAliveTimeoutS: 10, maxConnectionsPerIp: 4096, capLoopback: false, maxConnections: null });
    const fds = openFileLimit();
    expect(s.maxConnections).toBe(fds === null ? 10_000 : fds - 256);
    expect(maxConnectionsOf({ maxConnections: null }, 20_000)).toBe(19_744);
    expect(maxConnectionsOf({ maxConnections: 500 }, 20_000)).toBe(500);
  });
});
