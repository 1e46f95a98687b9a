import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { resetAppState } from '../../../test/utils';
import { auctionProducts } from '../../../lib/catalogue';
import { myBids } from '../../../lib/account/my-bids';
import { injectLiveEvent } from '../../../lib/live';
import { LiveNotifications } from './LiveNotifications';

const server_time = '2026-05-01T12:00:00.000Z';

/** Someone's bid on CAM-1: a room event, not a notification. */
const placed = {
  auction_id: 'A-1', product_id: 'CAM-1', bid_id: 1, highest_bid: 10, bid_count: 1, version: 1, bidder: 'a***e', amount: 10, timestamp: server_time, server_time,
  min_next_bid: 11, reserve_met: null, buy_now_available: false, auto: false,
};

function toastWith(text: string) {
  return screen.getAllByRole('status').find((el) => el.textContent?.includes(text));
}

describe('LiveNotifications', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('raises a warning toast with the new highest bid when the user is outbid', () => {
    render(<><LiveNotifications /><Toaster /></>);
    act(() => injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'A-1', product_id: 'CAM-1', product_name: 'Vintage Camera', highest_bid: 150000, server_time } }));
    const toast = toastWith('You were outbid on Vintage Camera: highest bid is now ₹1,50,000');
    expect(toast).toBeDefined();
    expect(toast?.className).toContain('toast-warning');
  });

  it('raises a success toast naming the product when the user wins', () => {
    render(<><LiveNotifications /><Toaster /></>);
    act(() => injectLiveEvent({ event: 'bid:won', data: { auction_id: 'A-1', product_id: 'CAM-1', amount: 700, server_time } }));
    const toast = toastWith('You won CAM-1');
    expect(toast?.className).toContain('toast-success');
    expect(toast?.textContent).toContain('₹700');
  });

  it('raises an info toast when a bid is reinstated', () => {
    render(<><LiveNotifications /><Toaster /></>);
    act(() => injectLiveEvent({ event: 'bid:reinstated', data: { auction_id: 'A-1', product_id: 'CAM-1', amount: 600, server_time } }));
    const toast = toastWith('is leading again');
    expect(toast?.className).toContain('toast-info');
    expect(toast?.textContent).toContain('₹600');
    expect(toast?.textContent).toContain('CAM-1');
  });

  it('one toast per lot: an outbid then a reinstatement there shows the latest; another lot has its own', () => {
    render(<><LiveNotifications /><Toaster /></>);
    act(() => {
      for (let i = 0; i < 10; i++) {
        injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'A-1', product_id: 'CAM-1', product_name: 'Vintage Camera', highest_bid: 101 + i, server_time } });
        injectLiveEvent({ event: 'bid:reinstated', data: { auction_id: 'A-1', product_id: 'CAM-1', amount: 100, server_time } });
      }
      injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'A-1', product_id: 'LAMP-2', product_name: 'Brass Lamp', highest_bid: 50, server_time } });
    });
    expect(screen.getAllByRole('status').map((el) => el.textContent)).toEqual([
      expect.stringContaining('Your bid of ₹100 on CAM-1 is leading again'), expect.stringContaining('You were outbid on Brass Lamp'),
    ]);
  });

  it('names the product when the page knows it: from the open auction, else from the user’s bids', () => {
    auctionProducts.set('A-1', [{
      id: 'CAM-1', name: 'Vintage Camera', description: '', status: 'available', auction_id: 'A-1', highest_bid: 700, bid_count: 2, version: 2,
      starting_price: 0, min_next_bid: 701, reserve_met: null, buy_now_price: null, my_status: 'leading', my_max: null, images: [],
    }]);
    myBids.set(undefined, [{
      bid_id: 1, auction_id: 'A-2', auction_name: 'Spring Sale', product_id: 'LAMP-9', product_name: 'Brass Lamp', amount: 600,
      timestamp: server_time, status: 'failed', state: 'outbid', reason: null,
      auction_valid_until: '2099-01-01T00:00:00.000Z', auction_status: 'active', auction_cancel_policy: 'until_end',
    }]);
    render(<><LiveNotifications /><Toaster /></>);
    act(() => {
      injectLiveEvent({ event: 'bid:won', data: { auction_id: 'A-1', product_id: 'CAM-1', amount: 700, server_time } });
      injectLiveEvent({ event: 'bid:reinstated', data: { auction_id: 'A-2', product_id: 'LAMP-9', amount: 600, server_time } });
    });
    expect(toastWith('You won Vintage Camera for ₹700!')).toBeDefined();
    expect(toastWith('Your bid of ₹600 on Brass Lamp is leading again')).toBeDefined();
  });

  it('an outbid by a leader’s automatic bid reads as any outbid; the automatic raise itself and extensions raise nothing', () => {
    render(<><LiveNotifications /><Toaster /></>);
    act(() => {
      injectLiveEvent({ event: 'bid:placed', data: { ...placed, highest_bid: 1600, amount: 1600, version: 2, auto: true } });
      injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'A-1', product_id: 'CAM-1', product_name: 'Vintage Camera', highest_bid: 1600, server_time } });
      injectLiveEvent({ event: 'auction:extended', data: { auction_id: 'A-1', valid_until: server_time, original_valid_until: server_time, server_time } });
    });
    expect(screen.getAllByRole('status').map((t) => t.textContent)).toEqual([expect.stringContaining('You were outbid on Vintage Camera: highest bid is now ₹1,600')]);
  });

  it('stays quiet for other events and stops listening once unmounted', () => {
    const { unmount } = render(<><LiveNotifications /><Toaster /></>);
    act(() => {
      injectLiveEvent({ event: 'wallet:updated', data: { wallet_balance: 100, server_time } });
      injectLiveEvent({ event: 'bid:placed', data: placed });
    });
    expect(screen.queryAllByRole('status')).toHaveLength(0);

    unmount();
    render(<Toaster />);
    act(() => injectLiveEvent({ event: 'bid:outbid', data: { auction_id: 'A-1', product_id: 'CAM-1', product_name: 'Camera', highest_bid: 20, server_time } }));
    expect(screen.queryAllByRole('status')).toHaveLength(0);
  });
});
