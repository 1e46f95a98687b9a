import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent } from '../../../lib/live';
import { resetServerData } from '../../../lib/live-query';
import { makeTx, routeFetch } from '../testing';
import { WalletPage } from './WalletPage';

const RULE = 'Enter an amount between ₹10 and ₹1,00,000';

const ledger = [
  makeTx('refund', 800, { _id: 't3', notes: 'Outbid on Vase: hold released', product_id: 'P-VASE', product_name: 'Blue Vase' }),
  makeTx('bid', 800, { _id: 't2', product_id: 'P-VASE', product_name: 'Blue Vase' }),
  makeTx('topup', 5000, { _id: 't1' }),
];

function renderPage() {
  return render(
    <MemoryRouter>
      <WalletPage />
      <Toaster />
    </MemoryRouter>,
  );
}

function statCard(label: string): HTMLElement {
  return screen.getByText(label, { selector: '.stat-label' }).closest('.stat-card')!;
}

function stat(label: string): string {
  return statCard(label).querySelector('.stat-value')!.textContent ?? '';
}

async function toastWith(text: string, kind?: string) {
  await waitFor(() => {
    const hit = screen.getAllByRole('status').find((t) => t.textContent?.includes(text));
    expect(hit).toBeTruthy();
    if (kind) expect(hit!.className).toContain(`toast-${kind}`);
  });
}

function wallet(balance: number, transactions = ledger, extra: Record<string, Parameters<typeof routeFetch>[0][string]> = {}, onHold = 0) {
  return routeFetch({
    'POST /api/wallet': [jsonResponse(200, { wallet_balance: balance, on_hold: onHold })],
    'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions })],
    ...extra,
  });
}

describe('WalletPage', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('shows the balance, the three numbers and the ledger with signs, descriptions and product names', async () => {
    wallet(5000);
    renderPage();
    expect(await screen.findByText('₹5,000', { selector: '.wallet-hero-value' })).toBeTruthy();
    expect(screen.getByText('Available for bidding')).toBeTruthy();
    expect(stat('Available')).toBe('₹5,000');
    expect(stat('On hold')).toBe('₹0');
    expect(stat('Total Added')).toBe('₹5,000');
    // Holds are not spending: only payments (wins, buy-nows) count, and this ledger has none.
    expect(stat('Total Spent')).toBe('₹0');

    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Refund')).toBeTruthy();
    expect(rows[0]!.querySelector('.amount-plus')!.textContent).toContain('+₹800');
    expect(within(rows[0]!).getByText('Outbid on Vase: hold released')).toBeTruthy();
    expect(within(rows[1]!).getByText('Bid placed')).toBeTruthy();
    expect(within(rows[0]!).getByText('Product: Blue Vase (P-VASE)')).toBeTruthy();
    expect(within(rows[1]!).getByText('Product: Blue Vase (P-VASE)')).toBeTruthy();
    expect(within(rows[2]!).queryByText(/^Product:/)).toBeNull();
    expect(rows[1]!.querySelector('.amount-minus')!.textContent).toContain('−₹800');
    expect(within(rows[2]!).getByText('Wallet top-up')).toBeTruthy();
  });

  it('reads a ledger with kinds in a bidder’s words: holds as holds, their release, a win as a payment; Total Spent counts payments only', async () => {
    const chair = { product_id: 'P-CHAIR', product_name: 'Teak armchair' };
    const rows = [
      makeTx('bid', 5000, { _id: 'k5', ...chair, kind: 'payment', notes: 'Won Teak armchair for ₹5,000' }),
      makeTx('refund', 8000, { _id: 'k4', ...chair, kind: 'release', notes: 'Hold released: you won Teak armchair' }),
      makeTx('bid', 8000, { _id: 'k3', ...chair, kind: 'hold', notes: 'Maximum bid on Teak armchair: up to ₹8,000 held' }),
      makeTx('topup', 10000, { _id: 'k1', kind: 'topup' }),
    ];
    routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 5000, on_hold: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: rows, next_before: null, totals: { topup: 10000, bid: 13000, refund: 8000, count: 4, spent: 5000 } })],
    });
    renderPage();
    await waitFor(() => expect(stat('Total Spent')).toBe('₹5,000'));
    const shown = screen.getAllByRole('row').slice(1);
    expect(shown.map((r) => r.querySelector('.wallet-desc-main')?.textContent)).toEqual([
      'Won: Teak armchair', 'Released: bid on Teak armchair', 'On hold: bid on Teak armchair', 'Added to wallet',
    ]);
    expect(shown.map((r) => r.querySelector('.badge')?.textContent)).toEqual(['Payment', 'Released', 'On hold', 'Top-up']);
    expect(shown[0]!.querySelector('.amount-minus')!.textContent).toContain('−₹5,000');
    expect(within(shown[1]!).getByText('Hold released: you won Teak armchair')).toBeTruthy();
    expect(stat('Total Added')).toBe('₹10,000');
  });

  it('shows Available and On hold from the wallet answer, with what On hold means', async () => {
    wallet(3200, [makeTx('bid', 1800, { _id: 'b1', product_id: 'P-VASE' }), makeTx('topup', 5000, { _id: 't1' })], {}, 1800);
    renderPage();
    await waitFor(() => expect(stat('On hold')).toBe('₹1,800'));
    expect(stat('Available')).toBe('₹3,200');
    expect(stat('Total Added')).toBe('₹5,000');
    expect(statCard('On hold').querySelector('.stat-hint')!.textContent).toBe('Held by your leading bids; back in your wallet when you’re outbid');
  });

  it('sets the balance at once on wallet:updated and reads the wallet again, so On hold follows', async () => {
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 3200, on_hold: 1800 }), jsonResponse(200, { wallet_balance: 5000, on_hold: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: ledger })],
    });
    renderPage();
    await waitFor(() => expect(stat('On hold')).toBe('₹1,800'));

    // Outbid: the hold came back to the wallet.
    act(() => injectLiveEvent({ event: 'wallet:updated', data: { server_time: '2026-03-01T10:00:00.000Z', wallet_balance: 5000 } }));
    expect(stat('Available')).toBe('₹5,000');
    expect(screen.getByText('₹5,000', { selector: '.wallet-hero-value' })).toBeTruthy();
    await waitFor(() => expect(stat('On hold')).toBe('₹0'));
    expect(api.calls('POST /api/wallet')).toHaveLength(2);
  });

  it('shows a dash when the balance is unknown and the empty message when there are no transactions', async () => {
    routeFetch({ 'POST /api/wallet': [new TypeError('offline')], 'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [] })] });
    renderPage();
    expect(await screen.findByText('No transactions found. Add funds to start bidding!')).toBeTruthy();
    // Fallback from an empty ledger is ₹0; with no ledger either it is a dash. What is held is not in the ledger.
    expect(screen.getByText('₹0', { selector: '.wallet-hero-value' })).toBeTruthy();
    expect(stat('Available')).toBe('₹0');
    expect(stat('On hold')).toBe('—');
  });

  it('shows a dash for the balance when nothing loads', async () => {
    routeFetch({ 'POST /api/wallet': [new TypeError('offline')], 'GET /api/wallet/transactions?limit=50': [new TypeError('offline')] });
    renderPage();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('—', { selector: '.wallet-hero-value' })).toBeTruthy();
  });

  it('checks the amount in the Add Funds modal before sending, then adds and says so', async () => {
    const tx = makeTx('topup', 1000, { _id: 't9' });
    const api = wallet(5000, ledger, { 'POST /api/wallet/topup': [jsonResponse(200, { message: 'ok', wallet_balance: 6000, transaction: tx })] });
    renderPage();
    await screen.findByText('₹5,000', { selector: '.wallet-hero-value' });

    fireEvent.click(screen.getByRole('button', { name: 'Add Funds' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Funds' });
    const input = within(dialog).getByLabelText('Amount (₹)');
    const add = within(dialog).getByRole('button', { name: 'Add' });

    for (const bad of ['5', '100001', '10.555', '']) {
      fireEvent.change(input, { target: { value: bad } });
      fireEvent.click(add);
      expect(within(dialog).getByText(RULE)).toBeTruthy();
    }
    expect(api.calls('POST /api/wallet/topup')).toHaveLength(0);

    fireEvent.click(within(dialog).getByRole('button', { name: '₹1,000' }));
    expect((input as HTMLInputElement).value).toBe('1000');
    expect(within(dialog).queryByText(RULE)).toBeNull();
    fireEvent.click(add);

    await toastWith('Added ₹1,000 to your wallet', 'success');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(JSON.parse(api.calls('POST /api/wallet/topup')[0]![1]!.body as string)).toEqual({ amount: 1000 });
    expect(screen.getByText('₹6,000', { selector: '.wallet-hero-value' })).toBeTruthy();
  });

  it("keeps the modal open and shows the server's words when the top-up is refused", async () => {
    wallet(5000, ledger, { 'POST /api/wallet/topup': [jsonResponse(403, { error: 'This account has been deactivated', message: 'x', code: 'FORBIDDEN' })] });
    renderPage();
    await screen.findByText('₹5,000', { selector: '.wallet-hero-value' });
    fireEvent.click(screen.getByRole('button', { name: 'Add Funds' }));
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Amount (₹)'), { target: { value: '250.75' } });
    fireEvent.submit(within(dialog).getByLabelText('Amount (₹)').closest('form')!);
    await toastWith('This account has been deactivated', 'error');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('asks before a quick-add card adds money: Cancel adds nothing, the confirmation adds that amount', async () => {
    const tx = makeTx('topup', 2000, { _id: 't10' });
    const api = wallet(5000, ledger, { 'POST /api/wallet/topup': [jsonResponse(200, { message: 'ok', wallet_balance: 7000, transaction: tx }), new TypeError('offline')] });
    renderPage();
    await screen.findByText('₹5,000', { selector: '.wallet-hero-value' });

    fireEvent.click(screen.getByRole('button', { name: '₹2,000 Add to wallet' }));
    let dialog = screen.getByRole('dialog', { name: 'Confirm top-up' });
    expect(within(dialog).getByText('Add ₹2,000 to your wallet? The money is available for bidding at once; a top-up cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /api/wallet/topup')).toHaveLength(0);
    expect(screen.getByText('₹5,000', { selector: '.wallet-hero-value' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '₹2,000 Add to wallet' }));
    dialog = screen.getByRole('dialog', { name: 'Confirm top-up' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add ₹2,000' }));
    await toastWith('Added ₹2,000 to your wallet', 'success');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls('POST /api/wallet/topup')).toHaveLength(1);
    expect(JSON.parse(api.calls('POST /api/wallet/topup')[0]![1]!.body as string)).toEqual({ amount: 2000 });
    expect(screen.getByText('₹7,000', { selector: '.wallet-hero-value' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '₹500 Add to wallet' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Confirm top-up' })).getByRole('button', { name: 'Add ₹500' }));
    await toastWith('Top-up failed', 'error');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('downloads transactions.csv with a header for people and signed amounts, or warns when there is nothing to export', async () => {
    const blobs: Blob[] = [];
    let filename = '';
    vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, {
      createObjectURL: (b: Blob) => { blobs.push(b); return 'blob:test'; },
      revokeObjectURL: () => undefined,
    }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) { filename = this.download; });

    wallet(5000, [makeTx('topup', 5000, { _id: 'a1', notes: '=1+1', timestamp: '2026-03-01T10:00:00.000Z' })]);
    renderPage();
    await screen.findByText('₹5,000', { selector: '.wallet-hero-value' });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await toastWith('CSV downloaded', 'success');
    expect(filename).toBe('transactions.csv');
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    // A UTF-8 byte-order mark, then the CSV.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes)).toBe(
      "id,date (UTC),type,description,product id,product name,amount (₹),signed amount (₹),balance after (₹)\r\na1,2026-03-01 10:00:00,Top-up,'=1+1,,,5000,5000,5000",
    );

    cleanup();
    resetServerData();
    wallet(5000, []);
    renderPage();
    await screen.findByText('No transactions found. Add funds to start bidding!');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await toastWith('No transactions to export', 'warning');
    expect(blobs).toHaveLength(1);
    click.mockRestore();
  });

  describe('a ledger longer than a page', () => {
    // Five rows, ids 1–5; the server sends two at a time, newest first, with the whole ledger's totals.
    const rows = [5, 4, 3, 2, 1].map((id) => makeTx(id === 1 ? 'topup' : id % 2 === 0 ? 'bid' : 'refund', id === 1 ? 9000 : 100 * id, { _id: String(id) }));
    const totals = { topup: 9000, bid: 600, refund: 800, count: 5 };
    const pageOf = (from: number, before: string | null) => jsonResponse(200, { transactions: rows.slice(from, from + 2), next_before: before, totals });

    function paged(extra: Record<string, Parameters<typeof routeFetch>[0][string]> = {}) {
      return routeFetch({
        'POST /api/wallet': [jsonResponse(200, { wallet_balance: 9200, on_hold: 0 })],
        'GET /api/wallet/transactions?limit=50': [pageOf(0, '4')],
        'GET /api/wallet/transactions?before=4': [pageOf(2, '2')],
        'GET /api/wallet/transactions?before=2': [pageOf(4, null)],
        ...extra,
      });
    }

    it('the totals are the server’s, not the sum of the rows loaded', async () => {
      paged();
      renderPage();
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(2));
      expect(stat('Total Added')).toBe('₹9,000');
      expect(screen.getByText('Showing 2 of 5 transactions')).toBeTruthy();
    });

    it('Load more (a button the keyboard reaches) adds the next page below, then says all are shown and keeps the focus there', async () => {
      const api = paged();
      renderPage();
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(2));
      const more = screen.getByRole('button', { name: 'Load more' });
      expect(more.tagName).toBe('BUTTON');
      more.focus();
      fireEvent.click(more);
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(4));
      // The rows can land a turn before the button stops saying "Loading…".
      const again = await screen.findByRole('button', { name: 'Load more' });
      expect(screen.getByText('Showing 4 of 5 transactions')).toBeTruthy();
      expect(document.activeElement).toBe(again);
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(5));
      expect(screen.getAllByRole('row').slice(1).map((r) => r.querySelector('.wallet-amount')!.textContent)).toEqual(
        ['Credit +₹500', 'Debit −₹400', 'Credit +₹300', 'Debit −₹200', 'Credit +₹9,000'],
      );
      expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
      const end = screen.getByText('All 5 transactions shown');
      expect(document.activeElement).toBe(end);
      expect(api.calls('GET /api/wallet/transactions?before=4')).toHaveLength(1);
      expect(api.calls('GET /api/wallet/transactions?before=2')).toHaveLength(1);
    });

    it('a live change reads the newest page again and keeps the older rows loaded below it', async () => {
      const newer = makeTx('topup', 50, { _id: '6' });
      paged({ 'GET /api/wallet/transactions?limit=50': [pageOf(0, '4'), jsonResponse(200, { transactions: [newer, rows[0]], next_before: '5', totals: { ...totals, topup: 9050, count: 6 } })] });
      renderPage();
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(2));
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(4));
      act(() => injectLiveEvent({ event: 'wallet:updated', data: { wallet_balance: 9250, server_time: '2026-03-01T10:00:00.000Z' } }));
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(5));
      expect(stat('Total Added')).toBe('₹9,050');
      expect(screen.getByText('Showing 5 of 6 transactions')).toBeTruthy();
    });

    it('Download CSV writes every row, reading the pages not loaded', async () => {
      const blobs: Blob[] = [];
      vi.stubGlobal('URL', Object.assign(Object.create(URL) as typeof URL, {
        createObjectURL: (b: Blob) => { blobs.push(b); return 'blob:test'; },
        revokeObjectURL: () => undefined,
      }));
      const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      const api = paged({
        'GET /api/wallet/transactions?limit=100': [jsonResponse(200, { transactions: rows.slice(0, 3), next_before: '3', totals })],
        'GET /api/wallet/transactions?before=3&limit=100': [jsonResponse(200, { transactions: rows.slice(3), next_before: null, totals })],
      });
      renderPage();
      await waitFor(() => expect(screen.getAllByRole('row').slice(1)).toHaveLength(2));
      fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
      await toastWith('CSV downloaded', 'success');
      const text = new TextDecoder().decode(new Uint8Array(await blobs[0]!.arrayBuffer()));
      expect(text.split('\r\n').slice(1).map((line) => line.split(',')[0])).toEqual(['5', '4', '3', '2', '1']);
      expect(api.calls('GET /api/wallet/transactions?before=3&limit=100')).toHaveLength(1);
      click.mockRestore();
    });
  });
});
