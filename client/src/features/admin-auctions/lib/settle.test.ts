import { describe, expect, it } from 'vitest';
import { CONFIRM_SETTLE, settleWording, timeBeforeEnd } from './settle';

describe('settle wording', () => {
  it('says how long before the set end, in the unit a person reads', () => {
    expect([0, 40, 60, 61, 25 * 60, 3600, 3600 + 300, 47 * 3600, 48 * 3600, 50 * 3600 + 1].map(timeBeforeEnd))
      .toEqual(['0 s', '40 s', '1 min', '2 min', '25 min', '1 h', '1 h 5 min', '47 h', '2 days', '2 days 2 h']);
  });

  it('a running auction ends early; an ended one settles in the spec’s words', () => {
    const now = Date.parse('2026-11-26T10:00:00.000Z');
    const running = settleWording({ name: 'Coins', valid_until: '2026-11-26T10:12:00.000Z' }, now);
    expect(running).toEqual({
      label: 'End early', title: 'End Coins now, 12 min before its set end', dialogTitle: 'End Auction Early',
      message: 'Bidding stops now, 12 min before the set end; leaders win at their current price. This action cannot be undone.', confirmLabel: 'End now',
    });
    const ended = settleWording({ name: 'Coins', valid_until: '2026-11-26T10:00:00.000Z' }, now);
    expect(ended).toMatchObject({ label: 'Settle', dialogTitle: 'Settle Auction', message: CONFIRM_SETTLE, confirmLabel: 'Settle' });
  });
});
