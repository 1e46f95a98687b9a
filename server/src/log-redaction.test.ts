/**
 * No log line holds a token. The plain WebSocket feed takes its JWT as
 * `/api/ws?token=…`, and Fastify logs every request's URL at `info`: the request serializer logs the
 * URL with every `token` query parameter's value replaced, the rest of the request line unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactTokens } from './app.js';
import type { App } from './context.js';
import { connectWs, listen } from './test/live-helpers.js';
import { call, makeApp, signUpUser } from './test/helpers.js';

describe('request logs at the default level (info)', () => {
  const lines: string[] = [];
  let app: App;
  let base: string;
  beforeAll(async () => {
    app = await makeApp({ logLevel: 'info' }, { logStream: { write: (line: string) => { lines.push(line); } } });
    base = await listen(app);
  });
  afterAll(async () => { await app.close(); });

  const logged = () => lines.map((l) => JSON.parse(l) as { msg?: string; req?: Record<string, unknown> });
  const requestLines = (pathname: string) => logged().filter((l) => typeof l.req?.url === 'string' && l.req.url.startsWith(pathname));

  it('a WebSocket connection with ?token=<jwt> is logged with its path and token=[redacted], never the token', async () => {
    const u = await signUpUser(app);
    const ws = await connectWs(base, u.token);
    await new Promise((r) => setTimeout(r, 100));
    ws.ws.close();
    await ws.closed;
    const text = lines.join('');
    expect(text).not.toContain(u.token);
    // Not even the signature alone.
    expect(text).not.toContain(u.token.split('.')[2]);
    const seen = requestLines('/api/ws');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.req!.url).toBe('/api/ws?token=[redacted]');
    // The rest of the request line as Fastify logs it.
    expect(seen[0]!.msg).toBe('websocket upgrade');
    expect(seen[0]!.req).toMatchObject({ method: 'GET', host: expect.stringMatching(/^127\.0\.0\.1:\d+$/), remoteAddress: '127.0.0.1', remotePort: expect.any(Number) });
    // Nor the password of the sign-up, nor the bearer header of any request.
    expect(text).not.toContain(u.password);
  });

  it('any URL: every parameter named token (any case, percent-encoded) is redacted; other parameters stay', async () => {
    const secret = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2VjcmV0LXNpZ25hdHVyZQ';
    const cases: [string, string][] = [
      [`/api/anything?token=${secret}`, '/api/anything?token=[redacted]'],
      [`/api/anything?a=1&TOKEN=${secret}&b=2`, '/api/anything?a=1&TOKEN=[redacted]&b=2'],
      [`/api/ws?Token=${secret}`, '/api/ws?Token=[redacted]'],
      [`/api/health?%74oken=${secret}&token=${secret}`, '/api/health?%74oken=[redacted]&token=[redacted]'],
      [`/api/time?tokens=1&my_token=2`, '/api/time?tokens=1&my_token=2'],
    ];
    for (const [url] of cases) await app.inject({ method: 'GET', url });
    // Through a real socket as well: the URL as the HTTP parser hands it over.
    await fetch(`${base}/api/anything?x=y&token=${secret}`);
    const text = lines.join('');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.split('.')[2]);
    const urls = logged().map((l) => l.req?.url);
    for (const [, want] of cases) expect(urls).toContain(want);
    expect(urls).toContain('/api/anything?x=y&token=[redacted]');
  });

  it('an error whose message or stack quotes such a URL is logged without the token; other values pass as they are', () => {
    const err = new Error('Reply was already sent in the "/api/ws?token=SECRET-IN-ERROR" (GET) route');
    app.log.warn({ err }, 'reply sent twice');
    app.log.error({ err: 'not an error object' }, 'odd value');
    const text = lines.join('');
    expect(text).not.toContain('SECRET-IN-ERROR');
    const entries = logged() as { msg?: string; err?: { message?: string; stack?: string } | string }[];
    const warned = entries.find((l) => l.msg === 'reply sent twice')?.err as { message: string; stack: string };
    expect(warned.message).toContain('/api/ws?token=[redacted]');
    expect(warned.stack).toContain('/api/ws?token=[redacted]');
    expect(entries.find((l) => l.msg === 'odd value')?.err).toBe('not an error object');
  });

  it('a bearer token in the authorization header and passwords in bodies never appear', async () => {
    const u = await signUpUser(app);
    await call(app, 'POST', '/api/change-password', { password: 'wrong-password', new_password: 'brand-new-pw' }, u.token);
    const text = lines.join('');
    expect(text).not.toContain(u.token);
    expect(text).not.toContain('brand-new-pw');
    expect(text).not.toContain('wrong-password');
  });
});

describe('one log line per request', () => {
  it('each request answered writes one line with its request line, status and time; no "incoming request" line', async () => {
    const lines: string[] = [];
    const app = await makeApp({ logLevel: 'info' }, { logStream: { write: (line: string) => { lines.push(line); } } });
    try {
      await call(app, 'GET', '/api/time');
      await call(app, 'POST', '/api/login', { username: 'nobody', password: 'wrong-pw' });
      const requests = lines.map((l) => JSON.parse(l) as { msg?: string; req?: { method: string; url: string }; res?: { statusCode: number }; responseTime?: number })
        .filter((l) => l.req !== undefined);
      expect(requests.map((l) => [l.msg, l.req!.method, l.req!.url, l.res?.statusCode])).toEqual([
        ['request completed', 'GET', '/api/time', 200],
        ['request completed', 'POST', '/api/login', 400],
      ]);
      expect(requests.every((l) => typeof l.responseTime === 'number')).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('redactTokens', () => {
  it.each([
    ['/api/ws?token=abc.def.ghi', '/api/ws?token=[redacted]'],
    ['/api/ws', '/api/ws'],
    ['/api/ws?token=', '/api/ws?token=[redacted]'],
    ['/a?x=1&token=a?b&y=2', '/a?x=1&token=[redacted]&y=2'],
    ['/a?x=b?token=secret', '/a?x=b?token=[redacted]'],
    ['/a?to%6Ben=secret', '/a?to%6Ben=[redacted]'],
    ['/a?token=secret#frag', '/a?token=[redacted]#frag'],
    ['Reply was already sent in the "/api/ws?token=secret" (GET) route', 'Reply was already sent in the "/api/ws?token=[redacted] (GET) route'],
  ])('%s → %s', (input, want) => {
    expect(redactTokens(input)).toBe(want);
  });
});
