/**
 * Date-times arrive as ISO-8601 strings, with or without an offset. One without an offset
 * (`2026-11-24T07:45`, what a datetime-local input gives) is a wall-clock time in `timeZone`.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** The largest UTC offset a date-time may carry, either way: ±14:00. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** Milliseconds since the epoch, or null when `input` is not a valid date-time. */
export function parseDateTime(input: string, timeZone: string): number | null {
  const m = ISO.exec(input.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] ? Number(m[6]) : 0;
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > daysInMonth(year, month)) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const offset = m[8];
  if (offset) {
    if (offset.toUpperCase() === 'Z') return wall;
    const sign = offset.startsWith('-') ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    const [hh, mm] = [Number(digits.slice(0, 2)), Number(digits.slice(2))];
    // Real offsets lie within ±14:00 (Kiribati is +14:00); `+99:99` or `+05:60` is not a time zone.
    const minutes = hh * 60 + mm;
    if (mm > 59 || minutes > MAX_OFFSET_MINUTES) return null;
    return wall - sign * minutes * 60_000;
  }
  // First guess with the zone's offset at `wall`, then correct once for a DST change in between.
  const guess = wall - zoneOffsetMs(wall, timeZone);
  return wall - zoneOffsetMs(guess, timeZone);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset of `timeZone` from UTC at instant `at`, in ms (Asia/Kolkata: +19_800_000). */
export function zoneOffsetMs(at: number, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
