/**
 * LOG_FORMAT=pretty (`npm run dev` sets it): each pino JSON line rewritten as one short line a person
 * reads in a terminal, `12:04:05.120 INFO  req-1 GET /api/auctions`, with an error's stack below it.
 * Written synchronously, line by line: for development, not for the bid path (the JSON default is
 * buffered, see app.ts).
 */

const LEVELS: Record<number, { label: string; colour: string }> = {
  10: { label: 'TRACE', colour: '90' },
  20: { label: 'DEBUG', colour: '36' },
  30: { label: 'INFO', colour: '32' },
  40: { label: 'WARN', colour: '33' },
  50: { label: 'ERROR', colour: '31' },
  60: { label: 'FATAL', colour: '35' },
};

/** Fields shown in their own way (or not at all: pid and hostname are the same on every line). */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? String(v));

/** The local time of day with milliseconds, `HH:MM:SS.mmm`. */
function clock(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** One pino JSON line as a readable line (ending in a newline); anything that is not JSON passes unchanged. */
export function prettyLine(line: string, colour = false): string {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (!isObject(rec)) return line.endsWith('\n') ? line : `${line}\n`;
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const level = LEVELS[typeof rec.level === 'number' ? rec.level : 30] ?? { label: str(rec.level), colour: '0' };
  const parts = [paint('2', clock(typeof rec.time === 'number' ? rec.time : Date.now())), paint(level.colour, level.label.padEnd(5))];
  if (rec.reqId !== undefined) parts.push(paint('2', str(rec.reqId)));
  const { req, res, err } = rec;
  // The one line per request (app.ts): the request line, the status and the time taken.
  if (rec.msg === 'request completed' && isObject(res)) {
    if (isObject(req)) parts.push(`${str(req.method)} ${str(req.url)}`);
    parts.push(`→ ${str(res.statusCode)}${typeof rec.responseTime === 'number' ? ` in ${rec.responseTime.toFixed(1)} ms` : ''}`);
  } else if (rec.msg === 'incoming request' && isObject(req)) {
    parts.push(`${str(req.method)} ${str(req.url)}`);
  } else {
    if (rec.msg !== undefined) parts.push(str(rec.msg));
    if (isObject(req)) parts.push(`${str(req.method)} ${str(req.url)}`);
    if (isObject(res)) parts.push(`→ ${str(res.statusCode)}`);
  }
  for (const [key, value] of Object.entries(rec)) {
    if (!SHOWN_APART.has(key)) parts.push(paint('2', `${key}=${str(value)}`));
  }
  let out = parts.join(' ');
  if (isObject(err)) {
    const detail = typeof err.stack === 'string' ? err.stack : `${str(err.type ?? 'Error')}: ${str(err.message)}`;
    out += `\n${detail.split('\n').map((l) => `    ${l}`).join('\n')}`;
  } else if (err !== undefined) {
    out += ` err=${str(err)}`;
  }
  return `${out}\n`;
}

/** A pino destination writing pretty lines to stdout, in colour on a terminal (unless NO_COLOR is set). */
export function prettyStdout(): { write(line: string): void } {
  const colour = process.stdout.isTTY && !process.env.NO_COLOR;
  return { write: (line: string) => { process.stdout.write(prettyLine(line, colour)); } };
}
