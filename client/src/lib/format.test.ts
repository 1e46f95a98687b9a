import { describe, expect, it } from 'vitest';
import { countdownUrgent, formatCountdown, formatDateTime, formatDateTimeSeconds, formatDuration, formatEndTime, formatRupees, secondsLeft } from './format';

describe('countdown and money rules', () => {
  it('shows days-hours-minutes or hours-minutes from an hour up, minutes and seconds under an hour, and Ended at 0', () => {
    expect(formatCountdown(2 * 86_400 + 3 * 3600 + 5 * 60 + 59)).toBe('2d 3h 5m');
    expect(formatCountdown(86_400)).toBe('1d 0h 0m');
    expect(formatCountdown(2 * 3600 + 59 * 60 + 59)).toBe('2h 59m');
    expect(formatCountdown(3 * 3600 + 60)).toBe('3h 1m');
    expect(formatCountdown(3600)).toBe('1h 0m');
    expect(formatCountdown(3599)).toBe('59m 59s');
    expect(formatCountdown(4 * 60 + 5)).toBe('4m 05s');
    expect(formatCountdown(60)).toBe('1m 00s');
    expect(formatCountdown(59)).toBe('59s');
    expect(formatCountdown(1)).toBe('1s');
    expect(formatCountdown(0)).toBe('Ended');
    expect(formatCountdown(-5)).toBe('Ended');
  });

  it('is urgent (red) only while running with less than five minutes left', () => {
    expect(countdownUrgent(299)).toBe(true);
    expect(countdownUrgent(1)).toBe(true);
    expect(countdownUrgent(300)).toBe(false);
    expect(countdownUrgent(3600)).toBe(false);
    expect(countdownUrgent(0)).toBe(false);
  });

  it('writes a span of seconds in its largest exact unit', () => {
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(90)).toBe('90 s');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(5400)).toBe('90 min');
    expect(formatDuration(7200)).toBe('2 h');
    expect(formatDuration(30)).toBe('30 s');
    expect(formatDuration(0)).toBe('0 s');
  });

  it('counts seconds left from the server clock, never below zero', () => {
    const now = Date.parse('2026-11-24T00:00:00Z');
    expect(secondsLeft('2026-11-24T00:01:30.900Z', now)).toBe(90);
    expect(secondsLeft('2026-11-23T00:00:00Z', now)).toBe(0);
  });

  it('formats money with Indian grouping', () => {
    expect(formatRupees(100000)).toBe('₹1,00,000');
  });

  it('shows seconds for the live feed, in the same en-IN style as other date-times', () => {
    const at = '2026-03-01T10:05:07.000Z';
    // Seconds do not depend on the machine's time zone; the hour and minute may.
    expect(formatDateTimeSeconds(at)).toMatch(/^\d{1,2} Mar 2026, \d{1,2}:\d{2}:07 [ap]m$/);
    expect(formatDateTimeSeconds(at).replace(/:07 /, ' ')).toBe(formatDateTime(at));
    expect(formatDateTimeSeconds('not a date')).toBe('—');
  });
});

describe('formatEndTime', () => {
  it('shows seconds once soft close moved the end or within the last hour, else minutes', () => {
    const end = '2026-11-26T10:05:30.000Z';
    expect(formatEndTime(end, { extended: false, secondsLeft: 7200 })).toBe(formatDateTime(end));
    expect(formatEndTime(end, { extended: false, secondsLeft: 3600 })).toBe(formatDateTimeSeconds(end));
    expect(formatEndTime(end, { extended: true, secondsLeft: 7200 })).toBe(formatDateTimeSeconds(end));
    // Ended: back to minutes, unless it was extended.
    expect(formatEndTime(end, { extended: false, secondsLeft: 0 })).toBe(formatDateTime(end));
    expect(formatDateTimeSeconds(end)).not.toBe(formatDateTime(end));
  });
});
