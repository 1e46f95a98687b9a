/**
 * Request ids (docs/deploy.md#request-ids): every answer carries `X-Request-Id`, the same id is on the
 * request's log line, ids do not repeat across processes, and a balancer's own id is kept when it looks
 * like one (at most 64 letters, digits and . _ : -).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from './context.js';
import { call, makeApp } from './test/helpers.js';

const apps: App[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function logged() {
  const lines: { reqId?: string; msg?: string; res?: { statusCode: number } }[] = [];
  const app = await makeApp({ logLevel: 'info' }, { logStream: { write: (line: string) => { lines.push(JSON.parse(line)); } } });
  apps.push(app);
  return { app, lines };
}

describe('request ids', () => {
  it('every answer carries one, errors included, and the request’s log line has the same', async () => {
    const { app, lines } = await logged();
    for (const [url, status] of [['/api/health', 200], ['/api/nope', 404], ['/api/me', 401]] as const) {
      const res = await call(app, 'GET', url);
      expect(res.statusCode).toBe(status);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
      expect(lines.filter((l) => l.msg === 'request completed' && l.reqId === id)).toHaveLength(1);
    }
  });

  it('do not repeat across processes', async () => {
    const ids = new Set<string>();
    for (let p = 0; p < 3; p++) {
      const { app } = await logged();
      for (let i = 0; i < 20; i++) ids.add(String((await call(app, 'GET', '/api/time')).headers['x-request-id']));
    }
    expect(ids.size).toBe(60);
  });

  it('keep a balancer’s id that looks like one (at most 64 letters, digits and . _ : -), and replace one that does not', async () => {
    const { app, lines } = await logged();
    const kept = await app.inject({ method: 'GET', url: '/api/time', headers: { 'x-request-id': 'lb-7f3a.91:x_2' } });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.91:x_2');
    expect(lines.some((l) => l.reqId === 'lb-7f3a.91:x_2')).toBe(true);
    for (const bad of ['has space', 'x'.repeat(65), '<script>', '']) {
      const res = await app.inject({ method: 'GET', url: '/api/time', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).not.toBe(bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    }
  });
});
