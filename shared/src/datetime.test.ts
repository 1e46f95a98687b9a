import { describe, expect, it } from 'vitest';
import { isValidTimeZone, parseDateTime } from './datetime.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('parseDateTime', () => {
  it('reads a date-time without an offset in the configured zone', () => {
    expect(iso(parseDateTime('2026-11-24T07:45', 'Asia/Kolkata'))).toBe('2026-11-24T02:15:00.000Z');
    expect(iso(parseDateTime('2026-11-24 07:45:30', 'Asia/Kolkata'))).toBe('2026-11-24T02:15:30.000Z');
    expect(iso(parseDateTime('2026-11-24T07:45', 'UTC'))).toBe('2026-11-24T07:45:00.000Z');
  });

  it('follows daylight saving time in zones that have it', () => {
    expect(iso(parseDateTime('2026-07-01T12:00', 'America/New_York'))).toBe('2026-07-01T16:00:00.000Z');
    expect(iso(parseDateTime('2026-12-01T12:00', 'America/New_York'))).toBe('2026-12-01T17:00:00.000Z');
  });

  it('honours an explicit offset or Z whatever the zone', () => {
    expect(iso(parseDateTime('2026-11-24T07:45:00Z', 'Asia/Kolkata'))).toBe('2026-11-24T07:45:00.000Z');
    expect(iso(parseDateTime('2026-11-24T07:45:00.123+05:30', 'UTC'))).toBe('2026-11-24T02:15:00.123Z');
    expect(iso(parseDateTime('2026-11-24T07:45-0100', 'UTC'))).toBe('2026-11-24T08:45:00.000Z');
  });

  it('accepts offsets up to ±14:00 and refuses any beyond, or with 60 minutes or more', () => {
    expect(iso(parseDateTime('2026-11-24T07:45+14:00', 'UTC'))).toBe('2026-11-23T17:45:00.000Z');
    expect(iso(parseDateTime('2026-11-24T07:45-14:00', 'UTC'))).toBe('2026-11-24T21:45:00.000Z');
    expect(iso(parseDateTime('2026-11-24T07:45-0959', 'UTC'))).toBe('2026-11-24T17:44:00.000Z');
    for (const bad of ['+99:99', '+14:01', '-14:01', '+15:00', '-23:00', '+05:60', '+0599', '+2400', '-99:00', '+00:60']) {
      expect(parseDateTime(`2026-11-24T07:45${bad}`, 'Asia/Kolkata'), bad).toBeNull();
    }
  });

  it('rejects what is not a real date-time', () => {
    for (const bad of ['', 'tomorrow', '2026-02-30T10:00', '2026-13-01T10:00', '2026-11-24T24:00', '2026-11-24', '1700000000', '2026-11-24T07:45+5']) {
      expect(parseDateTime(bad, 'Asia/Kolkata'), bad).toBeNull();
    }
  });

  it('knows valid zones', () => {
    expect(isValidTimeZone('Asia/Kolkata')).toBe(true);
    expect(isValidTimeZone('Nowhere/Land')).toBe(false);
  });
});
