/** LOG_FORMAT=pretty: pino's JSON lines as one readable line each, for `npm run dev`. */
import { describe, expect, it } from 'vitest';
import { prettyLine } from './log-format.js';

const at = new Date(2026, 10, 24, 9, 5, 7, 42).getTime();
const line = (rec: Record<string, unknown>) => `${JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', ...rec })}\n`;

describe('prettyLine', () => {
  it('a request line: local time, level, request id, method and URL; no pid or hostname', () => {
    expect(prettyLine(line({ reqId: 'req-1', req: { method: 'GET', url: '/api/auctions', remoteAddress: '127.0.0.1' }, msg: 'incoming request' })))
      .toBe('09:05:07.042 INFO  req-1 GET /api/auctions\n');
  });

  it('a completed request: the request line, status and time taken', () => {
    expect(prettyLine(line({ reqId: 'req-1', req: { method: 'POST', url: '/api/bid', remoteAddress: '127.0.0.1' }, res: { statusCode: 201 }, responseTime: 3.456, msg: 'request completed' })))
      .toBe('09:05:07.042 INFO  req-1 POST /api/bid → 201 in 3.5 ms\n');
    expect(prettyLine(line({ reqId: 'req-1', res: { statusCode: 201 }, responseTime: 3.456, msg: 'request completed' })))
      .toBe('09:05:07.042 INFO  req-1 → 201 in 3.5 ms\n');
  });

  it('other fields as key=value, and an error with its stack on the lines below', () => {
    const out = prettyLine(line({ level: 50, signal: 'SIGTERM', drainMs: 5, err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (a.ts:1:1)' }, msg: 'live channel' }));
    expect(out).toBe('09:05:07.042 ERROR live channel signal=SIGTERM drainMs=5\n    Error: boom\n        at x (a.ts:1:1)\n');
  });

  it('colours only when asked; anything that is not JSON passes unchanged', () => {
    expect(prettyLine(line({ msg: 'hello' }))).not.toContain('\u001b[');
    expect(prettyLine(line({ level: 40, msg: 'hello' }), true)).toContain('\u001b[33mWARN \u001b[0m');
    expect(prettyLine('not json')).toBe('not json\n');
    expect(prettyLine('[1,2]\n')).toBe('[1,2]\n');
  });
});
