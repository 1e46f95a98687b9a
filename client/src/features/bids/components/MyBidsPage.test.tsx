import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, LocationProbe, resetAppState, setServerNow } from '../../../test/utils';
import { injectLiveEvent } from '../../../lib/live';
import { makeBid, routeFetch } from '../testing';
import { MyBidsPage } from './MyBidsPage';

const QUESTION = 'Are you sure you want to cancel this bid? The amount will be refunded to your wallet.';

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/user/bids']}>
      <Routes>
        <Route path="/user/bids" element={<MyBidsPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <LocationProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

async function toastWith(text: string) {
  await waitFor(() => expect(screen.getAllByRole('status').some((t) => t.textContent?.includes(text))).toBe(true));
}

function rowOf(productName: string): HTMLElement {
  return screen.getByText(productName).closest('tr')!;
}

function stat(label: string): string {
  return screen.getByText(label).parentElement!.querySelector('.stat-value')!.textContent ?? '';
}

const leading = makeBid({ bid_id: 1, product_id: 'P-VASE', product_name: 'Ming Vase', auction_id: 'A-1', auction_name: 'Spring Sale', amount: 2500, state: 'success' });
const tooLow = makeBid({ bid_id: 2, product_id: 'P-LAMP', product_name: 'Brass Lamp', amount: 100, state: 'failed', reason: 'BID_TOO_LOW' });
const won = makeBid({ bid_id: 3, product_id: 'P-CLOCK', product_name: 'Wall Clock', amount: 1200, state: 'won' });

describe('MyBidsPage', () => {
  beforeEach(resetAppState);
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the stats, the rows with their status labels and the failure reason, and Cancel only on active bids', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading, tooLow, won])] });
    renderPage();

    await screen.findByText('Ming Vase');
    expect(stat('Total Bids')).toBe('3');
    expect(stat('Active Bids')).toBe('1');
    expect(stat('Failed / Cancelled')).toBe('1');
    expect(stat('Total Amount')).toBe('₹3,700');

    const vase = rowOf('Ming Vase');
    expect(within(vase).getByText('ID: P-VASE')).toBeTruthy();
    expect(within(vase).getByRole('link', { name: 'Ming Vase' }).getAttribute('href')).toBe('/auctions/A-1/products/P-VASE');
    expect(within(vase).getByText('Spring Sale')).toBeTruthy();
    expect(within(vase).getByText('₹2,500')).toBeTruthy();
    expect(within(vase).getByText('Active').className).toContain('badge-success');
    expect(within(vase).getByRole('button', { name: /Cancel bid/ })).toBeTruthy();

    const lamp = rowOf('Brass Lamp');
    expect(within(lamp).getByText('Failed').className).toContain('badge-danger');
    expect(within(lamp).getByText('Bid was too low')).toBeTruthy();
    expect(within(lamp).getByText('N/A')).toBeTruthy();
    expect(within(lamp).queryByRole('button')).toBeNull();

    expect(within(rowOf('Wall Clock')).getByText('Won').className).toContain('badge-info');
  });

  it('shows a maximum bid’s maximum under its amount, a buy-now purchase as Bought now, and an unsold lot as a grey Reserve not met', async () => {
    const proxy = makeBid({ bid_id: 11, product_name: 'Oak Desk', amount: 1500, max_amount: 4000, state: 'success' });
    const plain = makeBid({ bid_id: 12, product_name: 'Tin Toy', amount: 300, max_amount: null, state: 'outbid' });
    const bought = makeBid({ bid_id: 13, product_name: 'Silk Rug', amount: 9000, buy_now: true, state: 'won' });
    const unsold = makeBid({ bid_id: 14, product_name: 'Old Map', amount: 700, state: 'unsold', reason: 'RESERVE_NOT_MET' });
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [proxy, plain, bought, unsold, won])] });
    renderPage();
    await screen.findByText('Oak Desk');

    const desk = rowOf('Oak Desk');
    expect(within(desk).getByText('₹1,500')).toBeTruthy();
    expect(within(desk).getByText('max ₹4,000')).toBeTruthy();
    expect(within(rowOf('Tin Toy')).queryByText(/^max /)).toBeNull();

    const rug = rowOf('Silk Rug');
    expect(within(rug).getByText('Won').className).toContain('badge-info');
    expect(within(rug).getByText('Bought now')).toBeTruthy();
    expect(within(rowOf('Wall Clock')).queryByText('Bought now')).toBeNull();
    expect(within(desk).queryByText('Bought now')).toBeNull();

    const map = rowOf('Old Map');
    expect(within(map).getByText('Reserve not met').className).toContain('badge-neutral');
    expect(within(map).getByText('Refunded')).toBeTruthy();
    expect(within(map).getByText('N/A')).toBeTruthy();
    // Not a failure, and no money kept: Total Amount is the leading and won bids.
    expect(stat('Failed / Cancelled')).toBe('0');
    expect(stat('Total Amount')).toBe('₹11,700');
  });

  it('treats a status it does not know as failed: red Failed badge, N/A, counted in Failed / Cancelled', async () => {
    const odd = makeBid({ bid_id: 9, product_name: 'Odd Vase', amount: 300, state: 'expired' as typeof leading.state, status: 'failed' });
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading, odd])] });
    renderPage();

    await screen.findByText('Odd Vase');
    const row = rowOf('Odd Vase');
    expect(within(row).getByText('Failed').className).toContain('badge-danger');
    expect(within(row).getByText('N/A')).toBeTruthy();
    expect(within(row).queryByRole('button')).toBeNull();
    expect(stat('Failed / Cancelled')).toBe('1');
    expect(stat('Total Amount')).toBe('₹2,500');
  });

  it('offers Cancel only while the bid’s auction is open (each bid names its auction’s end), and takes it away when the auction ends', async () => {
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    setServerNow(now);
    const endsIn = (ms: number) => new Date(now + ms).toISOString();
    const vase = { ...leading, auction_valid_until: endsIn(60_000) };
    const lamp = makeBid({ bid_id: 5, product_name: 'Brass Lamp', auction_id: 'A-2', state: 'success', auction_valid_until: endsIn(-1000), auction_status: 'ended' });
    const api = routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [vase, lamp])] });
    renderPage();
    await screen.findByText('Ming Vase');

    expect(within(rowOf('Brass Lamp')).getByText('N/A').getAttribute('title')).toBe('The auction has ended');
    expect(within(rowOf('Brass Lamp')).getByText('Active')).toBeTruthy();
    expect(within(rowOf('Brass Lamp')).queryByRole('button')).toBeNull();
    expect(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ })).toBeTruthy();
    // The bids' own read is all the page asks for: never the whole auction list.
    expect(api.fn.mock.calls.map(([url]) => url)).toEqual(['/api/user-bids']);

    act(() => setServerNow(now + 60_000));
    expect(within(rowOf('Ming Vase')).queryByRole('button')).toBeNull();
    expect(within(rowOf('Ming Vase')).getByText('N/A')).toBeTruthy();
  });

  it('follows a soft-close extension live: Cancel stays past the end the list was read with', async () => {
    const now = Date.parse('2026-03-01T12:00:00.000Z');
    setServerNow(now);
    const end = new Date(now + 60_000).toISOString();
    const later = new Date(now + 180_000).toISOString();
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [{ ...leading, auction_valid_until: end }])] });
    renderPage();
    await screen.findByText('Ming Vase');
    act(() => injectLiveEvent({ event: 'auction:extended', data: { server_time: end, auction_id: 'A-1', valid_until: later, original_valid_until: end } }));
    act(() => setServerNow(now + 120_000));
    expect(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ })).toBeTruthy();
    act(() => setServerNow(now + 180_000));
    expect(within(rowOf('Ming Vase')).queryByRole('button')).toBeNull();
  });

  it('says under Cancel when the bid’s auction cancels strictly (as the bid names its auction’s policy)', async () => {
    const lamp = makeBid({ bid_id: 5, product_name: 'Brass Lamp', auction_id: 'A-2', state: 'success', auction_cancel_policy: 'strict' });
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading, lamp])] });
    renderPage();
    await screen.findByText('Ming Vase');
    expect(within(rowOf('Brass Lamp')).getByText('Strict: within 10 min, not in the last hour')).toBeTruthy();
    expect(within(rowOf('Ming Vase')).queryByText(/Strict/)).toBeNull();
  });

  it('reads each bid’s full state: an outbid bid (status failed for the spec’s clients) is Outbid, and not counted as failed', async () => {
    const outbid = makeBid({ bid_id: 21, product_name: 'Tin Toy', amount: 300, state: 'outbid' });
    expect(outbid.status).toBe('failed');
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading, outbid])] });
    renderPage();
    await screen.findByText('Tin Toy');
    expect(within(rowOf('Tin Toy')).getByText('Outbid').className).toContain('badge-neutral');
    expect(within(rowOf('Tin Toy')).getByText('Refunded')).toBeTruthy();
    expect(stat('Failed / Cancelled')).toBe('0');
    expect(stat('Active Bids')).toBe('1');
  });

  it('asks first, sends nothing when the question is declined, then cancels, refunds and says so', async () => {
    const api = routeFetch({
      'GET /api/user-bids': [jsonResponse(200, [leading, tooLow]), jsonResponse(200, [{ ...leading, status: 'rolledback', state: 'rolledback', reason: 'CANCELLED' }, tooLow])],
      'POST /api/rollback-bid': [jsonResponse(200, { message: 'Bid cancelled', wallet_balance: 5000, highest_bid: 0 })],
    });
    renderPage();
    await screen.findByText('Ming Vase');

    fireEvent.click(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(QUESTION)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /api/rollback-bid')).toHaveLength(0);

    fireEvent.click(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel bid' }));

    await toastWith('Bid cancelled and amount refunded successfully!');
    expect(screen.queryByRole('dialog')).toBeNull();
    const sent = api.calls('POST /api/rollback-bid');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]![1]!.body as string)).toEqual({ bid_id: 1 });

    const vase = rowOf('Ming Vase');
    expect(within(vase).getByText('Cancelled').className).toContain('badge-warning');
    expect(within(vase).getByText('N/A')).toBeTruthy();
    expect(stat('Active Bids')).toBe('0');
    expect(stat('Failed / Cancelled')).toBe('2');
    // The list is re-read to confirm.
    await waitFor(() => expect(api.calls('GET /api/user-bids')).toHaveLength(2));
  });

  it("shows the server's error when the cancel is refused", async () => {
    routeFetch({
      'GET /api/user-bids': [jsonResponse(200, [leading])],
      'POST /api/rollback-bid': [jsonResponse(409, { error: 'This auction has ended; bids can no longer be cancelled', message: 'x', code: 'AUCTION_ENDED' })],
    });
    renderPage();
    await screen.findByText('Ming Vase');
    fireEvent.click(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel bid' }));
    await toastWith('This auction has ended; bids can no longer be cancelled');
    expect(within(rowOf('Ming Vase')).getByText('Active')).toBeTruthy();
  });

  it('falls back to "Failed to cancel bid" when the server cannot be reached', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading])], 'POST /api/rollback-bid': [new TypeError('Failed to fetch')] });
    renderPage();
    await screen.findByText('Ming Vase');
    fireEvent.click(within(rowOf('Ming Vase')).getByRole('button', { name: /Cancel bid/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel bid' }));
    await toastWith('Failed to cancel bid');
  });

  it('says "Failed to load your bids" when the list cannot be read, with dashes for the numbers', async () => {
    routeFetch({ 'GET /api/user-bids': [new Response('down', { status: 502 })] });
    renderPage();
    await toastWith('Failed to load your bids');
    expect(stat('Total Bids')).toBe('—');
  });

  it('shows the empty state with a way to Browse Auctions', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [])] });
    renderPage();
    expect(await screen.findByText('You have no bids yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: /Browse Auctions/ }));
    expect(screen.getByTestId('location').textContent).toBe('/user/auctions');
  });

  it('turns a row Outbid in place when the live outbid event arrives', async () => {
    routeFetch({ 'GET /api/user-bids': [jsonResponse(200, [leading])] });
    renderPage();
    await screen.findByText('Ming Vase');
    injectLiveEvent({
      event: 'bid:outbid',
      data: { server_time: '2026-03-01T10:00:00.000Z', auction_id: 'A-1', product_id: 'P-VASE', product_name: 'Ming Vase', highest_bid: 3000 },
    });
    await waitFor(() => expect(within(rowOf('Ming Vase')).getByText('Outbid').className).toContain('badge-neutral'));
    expect(within(rowOf('Ming Vase')).getByText('Refunded')).toBeTruthy();
    expect(within(rowOf('Ming Vase')).queryByRole('button')).toBeNull();
  });
});
