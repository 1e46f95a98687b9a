import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { makeTx, routeFetch } from '../testing';
import { useTopUp, useWalletView, walletBalance, walletLedger } from './wallet-store';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const stamp = { server_time: '2026-03-01T10:00:00.000Z' };

describe('wallet store', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  /** The wallet as a page shows it (mounting reads balance and ledger). */
  async function showWallet() {
    const view = renderHook(() => useWalletView());
    await vi.waitFor(() => expect(view.result.current.loading).toBe(false));
    return view;
  }

  it('loads the balance and the ledger', async () => {
    const ledger = [makeTx('topup', 5000)];
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 4200, on_hold: 800 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: ledger })],
    });
    const { result } = await showWallet();
    await vi.waitFor(() => expect(result.current).toMatchObject({ balance: 4200, balanceSource: 'server', onHold: 800, transactions: ledger, loaded: true, loading: false, error: null }));
    expect(api.calls('POST /api/wallet')[0]![1]!.body).toBe('{}');
  });

  it('derives the balance from the ledger when the balance call fails (Σ topup + Σ refund − Σ bid)', async () => {
    routeFetch({
      'POST /api/wallet': [jsonResponse(500, { error: 'Internal error', message: 'Internal error', code: 'INTERNAL' })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [makeTx('topup', 5000), makeTx('bid', 1200), makeTx('refund', 200)] })],
    });
    const { result } = await showWallet();
    // The ledger cannot tell held from paid: On hold stays unknown.
    await vi.waitFor(() => expect(result.current).toMatchObject({ balance: 4000, balanceSource: 'ledger', onHold: null }));
  });

  it('leaves On hold unknown, not ₹0, when the answer does not carry it', async () => {
    routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 4200 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [] })],
    });
    const { result } = await showWallet();
    await vi.waitFor(() => expect(result.current).toMatchObject({ balance: 4200, balanceSource: 'server', onHold: null }));
  });

  it('leaves the balance unknown when neither call answers', async () => {
    routeFetch({ 'POST /api/wallet': [new TypeError('offline')], 'GET /api/wallet/transactions?limit=50': [new TypeError('offline')] });
    const { result } = await showWallet();
    await vi.waitFor(() => expect(result.current).toMatchObject({ balance: null, loaded: false, error: 'Could not load your transactions' }));
  });

  it('wallet:updated sets the balance at once, then re-reads balance and holds (On hold follows) and the ledger, once per burst', async () => {
    const first = [makeTx('topup', 5000)];
    const after = [makeTx('refund', 700, { notes: 'Outbid on Vase: hold released' }), ...first];
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 4300, on_hold: 700 }), jsonResponse(200, { wallet_balance: 5000, on_hold: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: first }), jsonResponse(200, { transactions: after })],
    });
    const { result } = await showWallet();
    await vi.waitFor(() => expect(result.current.onHold).toBe(700));

    act(() => {
      injectLiveEvent({ event: 'wallet:updated', data: { ...stamp, wallet_balance: 4900 } });
      injectLiveEvent({ event: 'wallet:updated', data: { ...stamp, wallet_balance: 5000 } });
    });
    // The balance at once; the holds as they were until the re-read answers.
    expect(result.current).toMatchObject({ balance: 5000, onHold: 700 });
    await vi.waitFor(() => expect(result.current.onHold).toBe(0));
    await vi.waitFor(() => expect(result.current.transactions).toEqual(after));
    expect(result.current.balance).toBe(5000);
    await new Promise((r) => setTimeout(r, 350));
    expect(api.calls('POST /api/wallet')).toHaveLength(2);
    expect(api.calls('GET /api/wallet/transactions?limit=50')).toHaveLength(2);
  });

  it('keeps a live balance over a balance answer read before it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 100 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [] })],
    });
    // The balance call (the first request) answers only after the live event.
    api.fn.mockImplementationOnce(async () => {
      await gate;
      return jsonResponse(200, { wallet_balance: 100 });
    });
    const loading = walletBalance.load();
    injectLiveEvent({ event: 'wallet:updated', data: { ...stamp, wallet_balance: 900 } });
    release();
    await loading;
    expect(walletBalance.get().data).toEqual({ wallet_balance: 900, on_hold: null });
  });

  it('tops up: new balance, the new row first, no request for an amount out of bounds', async () => {
    const tx = makeTx('topup', 500, { _id: 'new' });
    const api = routeFetch({
      'POST /api/wallet/topup': [jsonResponse(200, { message: 'ok', wallet_balance: 1500, transaction: tx })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [tx] })],
    });
    walletBalance.set(undefined, { wallet_balance: 1000, on_hold: 250 });
    walletLedger.set(undefined, { transactions: [makeTx('topup', 1000)], nextBefore: null, totals: { topup: 1000, bid: 0, refund: 0, count: 1, spent: 0 } });

    expect(await useTopUp.getState().topUp(5)).toEqual({ ok: false, error: 'Enter an amount between ₹10 and ₹1,00,000' });
    expect(api.calls('POST /api/wallet/topup')).toHaveLength(0);

    expect(await useTopUp.getState().topUp(500)).toEqual({ ok: true });
    expect(JSON.parse(api.calls('POST /api/wallet/topup')[0]![1]!.body as string)).toEqual({ amount: 500 });
    // A top-up moves no hold: On hold is kept, and the balance is not read again for it.
    expect(walletBalance.get().data).toEqual({ wallet_balance: 1500, on_hold: 250 });
    expect(walletLedger.get().data!.transactions[0]).toEqual(tx);
    expect(walletLedger.get().data!.transactions).toHaveLength(2);
    // The totals follow the new row at once (the re-read confirms them).
    expect(walletLedger.get().data!.totals).toEqual({ topup: 1500, bid: 0, refund: 0, count: 2, spent: 0 });
  });

  it('keeps a live balance that arrived while a top-up was on its way', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const tx = makeTx('topup', 500, { _id: 'slow' });
    const api = routeFetch({ 'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [tx] })] });
    api.fn.mockImplementationOnce(async () => {
      await gate;
      return jsonResponse(200, { message: 'ok', wallet_balance: 1500, transaction: tx });
    });
    const pending = useTopUp.getState().topUp(500);
    // Someone else's bid refunded this user meanwhile: the event carries the newer balance.
    injectLiveEvent({ event: 'wallet:updated', data: { ...stamp, wallet_balance: 2300 } });
    release();
    expect(await pending).toEqual({ ok: true });
    expect(walletBalance.get().data?.wallet_balance).toBe(2300);
  });

  it("reports the server's top-up error, else 'Top-up failed'", async () => {
    routeFetch({
      'POST /api/wallet/topup': [
        jsonResponse(400, { error: 'Enter an amount between ₹10 and ₹1,00,000', message: 'x', code: 'VALIDATION' }),
        new TypeError('offline'),
      ],
    });
    expect(await useTopUp.getState().topUp(50)).toEqual({ ok: false, error: 'Enter an amount between ₹10 and ₹1,00,000' });
    expect(await useTopUp.getState().topUp(50)).toEqual({ ok: false, error: 'Top-up failed' });
    expect(useTopUp.getState().toppingUp).toBe(false);
  });

  it('reads balance and ledger again after a reconnect (updates sent while down are lost), not on the first connect', async () => {
    const before = [makeTx('topup', 5000)];
    const after = [makeTx('refund', 700), ...before];
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 4300, on_hold: 700 }), jsonResponse(200, { wallet_balance: 5000, on_hold: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: before }), jsonResponse(200, { transactions: after })],
    });
    const { result } = await showWallet();
    useLive.getState().connect('u-tok');
    lastSocket().open();
    await new Promise((r) => setTimeout(r, 10));
    expect(api.calls('POST /api/wallet')).toHaveLength(1);

    act(() => reconnect());
    await vi.waitFor(() => expect(result.current).toMatchObject({ balance: 5000, onHold: 0, transactions: after, loading: false }));
    expect(api.calls('POST /api/wallet')).toHaveLength(2);
  });

  it('keeps a live balance over a reconnect re-read answered before it', async () => {
    let release!: (r: Response) => void;
    const slow = new Promise<Response>((r) => { release = r; });
    const api = routeFetch({
      'POST /api/wallet': [jsonResponse(200, { wallet_balance: 4300 }), () => jsonResponse(200, { wallet_balance: 0 })],
      'GET /api/wallet/transactions?limit=50': [jsonResponse(200, { transactions: [] })],
    });
    const { result } = await showWallet();
    useLive.getState().connect('u-tok');
    lastSocket().open();
    api.fn.mockImplementationOnce(() => slow);
    act(() => reconnect());
    await vi.waitFor(() => expect(api.calls('POST /api/wallet')).toHaveLength(2));
    act(() => injectLiveEvent({ event: 'wallet:updated', data: { ...stamp, wallet_balance: 6100 } }));
    release(jsonResponse(200, { wallet_balance: 5000 }));
    await vi.waitFor(() => expect(result.current.loading).toBe(false));
    await new Promise((r) => setTimeout(r, 10));
    expect(result.current.balance).toBe(6100);
  });

  it('does not read a wallet no one shows after a reconnect', async () => {
    const api = routeFetch({});
    useLive.getState().connect('u-tok');
    lastSocket().open();
    reconnect();
    await new Promise((r) => setTimeout(r, 10));
    expect(api.fn).not.toHaveBeenCalled();
  });
});
