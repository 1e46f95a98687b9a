import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { auctionTimeStatus, StatusBadge, statusBadge, type StatusKind } from './StatusBadge';

const look = (kind: StatusKind, status: string) => {
  const { label, tone } = statusBadge(kind, status);
  return `${label}/${tone}`;
};

describe('status badges', () => {
  afterEach(cleanup);

  it('labels and colours bid statuses, unknown ones as a red Failed', () => {
    expect(['success', 'outbid', 'failed', 'rolledback', 'won', '???'].map((s) => look('bid', s)))
      .toEqual(['Active/success', 'Outbid/neutral', 'Failed/danger', 'Cancelled/warning', 'Won/info', 'Failed/danger']);
  });

  it("reads 'unsold' (led below the reserve at the close, refunded) as a grey Reserve not met", () => {
    expect(look('bid', 'unsold')).toBe('Reserve not met/neutral');
    render(<StatusBadge kind="bid" status="unsold" />);
    expect(screen.getByText('Reserve not met').className).toBe('badge badge-neutral');
  });

  it('colours the auction badge by time: red when ended, amber under an hour, green otherwise', () => {
    expect(look('auction', auctionTimeStatus(0))).toBe('Ended/danger');
    expect(look('auction', auctionTimeStatus(-5))).toBe('Ended/danger');
    expect(look('auction', auctionTimeStatus(3599))).toBe('Active/warning');
    expect(look('auction', auctionTimeStatus(3600))).toBe('Active/success');
    expect(look('auction', 'settled')).toBe('Settled/info');
  });

  it('gives each status one colour wherever it is shown: Sold is blue, like Won and Settled', () => {
    expect(['available', 'sold', 'unassigned'].map((s) => look('product', s))).toEqual(['Available/success', 'Sold/info', 'Unassigned/neutral']);
    expect(['active', 'inactive'].map((s) => look('user', s))).toEqual(['Active/success', 'Inactive/danger']);
    expect(['topup', 'bid', 'refund'].map((s) => look('transaction', s))).toEqual(['Top-up/success', 'Bid/info', 'Refund/neutral']);
  });

  it('reads a status it does not know as the safe one of its kind', () => {
    expect(look('auction', 'paused')).toBe('Ended/danger');
    expect(look('product', 'reserved')).toBe('Available/success');
    expect(look('user', 'banned')).toBe('Inactive/danger');
    expect(look('transaction', 'fee')).toBe('Bid/info');
    expect(look('bid', 'toString')).toBe('Failed/danger');
  });

  it('renders the badge with its tone class', () => {
    render(<StatusBadge kind="bid" status="rolledback" />);
    expect(screen.getByText('Cancelled').className).toBe('badge badge-warning');
  });
});
