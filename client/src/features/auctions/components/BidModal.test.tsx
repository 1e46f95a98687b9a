import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent } from '../../live';
import { auctionList, auctionProducts } from '../store/auctions-store';
import { NOW, callsTo, inHours, makeAuction, makeProduct, routeFetch, setUpUser, tearDownStores } from '../test/fixtures';
import { BidModal } from './BidModal';
import { BrowseAuctionsPage } from './BrowseAuctionsPage';

const T = new Date(NOW).toISOString();
const auction = makeAuction({ id: 'AUC-1', registered: true, registrations: [7], valid_until: inHours(5) });
const rolex = makeProduct({ id: 'P-1', name: 'Rolex Datejust', highest_bid: 100000, bid_count: 3 });

function seed(product = rolex) {
  auctionList.set(undefined, [auction]);
  auctionProducts.set('AUC-1', [product]);
}

function renderModal(onClose = vi.fn()) {
  render(
    <>
      <BidModal auctionId="AUC-1" productId="P-1" onClose={onClose} />
      <Toaster />
    </>,
  );
  return onClose;
}

const dialog = () => within(screen.getByRole('dialog', { name: 'Place Bid' }));
const amountInput = () => dialog().getByLabelText<HTMLInputElement>('Your bid (₹)');
const submit = () => dialog().getByRole<HTMLButtonElement>('button', { name: /Place Bid|Placing bid/ });
const toasts = () => [...document.querySelectorAll('.toast-message')].map((n) => n.textContent);

function bid(amount: string) {
  fireEvent.change(amountInput(), { target: { value: amount } });
  fireEvent.click(submit());
}

describe('BidModal', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
    seed();
  });
  afterEach(() => {
    cleanup();
    tearDownStores();
    resetAppState();
  });

  it('shows the product, the current highest bid and a number input starting at highest + 1', () => {
    renderModal();
    expect(dialog().getByText('Rolex Datejust')).toBeTruthy();
    expect(dialog().getByText('₹1,00,000')).toBeTruthy();
    const input = amountInput();
    expect(input.type).toBe('number');
    expect(input.min).toBe('100001');
    expect(input.step).toBe('0.01');
    expect(document.activeElement).toBe(input);
    expect(dialog().getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('asks for a valid amount when the field is empty, without calling the server', () => {
    const fetchMock = routeFetch({});
    renderModal();
    fireEvent.click(submit());
    expect(dialog().getByText('Please enter a valid bid amount')).toBeTruthy();
    expect(amountInput().getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses an amount not above the highest bid, naming it in en-IN format', () => {
    const fetchMock = routeFetch({});
    renderModal();
    bid('100000');
    expect(dialog().getByText('Bid must be higher than current highest bid of ₹1,00,000')).toBeTruthy();
    bid('99999.99');
    expect(dialog().getByText('Bid must be higher than current highest bid of ₹1,00,000')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('places a bid: POST /api/bid as the user, success toast, new highest, dialog closed', async () => {
    const fetchMock = routeFetch({ 'POST /api/bid': jsonResponse(201, { message: 'Bid placed successfully!', highest_bid: 100500.5, wallet_balance: 10 }) });
    const onClose = renderModal();
    bid('100500.50');

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = callsTo(fetchMock, 'POST', '/api/bid');
    expect(call?.body).toEqual({ product_id: 'P-1', bid_amount: 100500.5 });
    expect(call?.headers.authorization).toBe('Bearer u-tok');
    expect(toasts()).toContain('Bid placed successfully!');
    expect(auctionProducts.get('AUC-1').data?.[0]).toMatchObject({ highest_bid: 100500.5, bid_count: 4 });
  });

  it('on refusal shows the server’s message field and stays open', async () => {
    routeFetch({
      'POST /api/bid': jsonResponse(402, { error: 'Not enough money', message: 'Insufficient wallet balance: ₹200 available for this bid', code: 'INSUFFICIENT_FUNDS' }),
    });
    const onClose = renderModal();
    bid('200000');
    await waitFor(() => expect(toasts()).toContain('Insufficient wallet balance: ₹200 available for this bid'));
    expect(toasts()).not.toContain('Not enough money');
    expect(onClose).not.toHaveBeenCalled();
    expect(submit().disabled).toBe(false);
  });

  it('falls back to "Failed to place bid" when the answer carries no message', async () => {
    routeFetch({ 'POST /api/bid': new Response('bad gateway', { status: 502 }) });
    renderModal();
    bid('200000');
    await waitFor(() => expect(toasts()).toContain('Failed to place bid'));
  });

  it('disables Place Bid while the bid is on its way', async () => {
    let answer!: (r: Response) => void;
    routeFetch({ 'POST /api/bid': () => new Promise<Response>((r) => { answer = r; }) });
    const onClose = renderModal();
    bid('150000');
    expect(submit().disabled).toBe(true);
    expect(submit().textContent).toBe('Placing bid…');
    fireEvent.click(submit());
    await act(async () => answer(jsonResponse(201, { message: 'Bid placed successfully!', highest_bid: 150000, wallet_balance: 0 })));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('follows the highest bid live while open, so the minimum moves with it', () => {
    routeFetch({});
    renderModal();
    act(() => injectLiveEvent({
      event: 'bid:placed',
      data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 8, highest_bid: 120000, bid_count: 4, version: 4, bidder: 'k***r', amount: 120000, timestamp: T, server_time: T },
    }));
    expect(dialog().getByText('₹1,20,000')).toBeTruthy();
    expect(amountInput().min).toBe('120001');
    bid('110000');
    expect(dialog().getByText('Bid must be higher than current highest bid of ₹1,20,000')).toBeTruthy();
  });

  it('cannot be sent once the product is sold', () => {
    seed({ ...rolex, status: 'sold' });
    renderModal();
    expect(dialog().getByText('This product has been sold.')).toBeTruthy();
    expect(submit().disabled).toBe(true);
  });
});

describe('bidding from the page', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
  });
  afterEach(() => {
    cleanup();
    tearDownStores();
    resetAppState();
  });

  it('opens the dialog from Place Bid, places the bid and shows the new highest in the list', async () => {
    routeFetch({
      'GET /api/auctions': jsonResponse(200, [auction]),
      'GET /api/auctions/AUC-1/products': jsonResponse(200, [{ ...rolex, highest_bid: 0, bid_count: 0, version: 0 }]),
      'POST /api/bid': jsonResponse(201, { message: 'Bid placed successfully!', highest_bid: 2500, wallet_balance: 2500 }),
    });
    render(
      <MemoryRouter initialEntries={['/user/auctions']}>
        <Routes><Route path="/user/auctions" element={<BrowseAuctionsPage />} /></Routes>
        <Toaster />
      </MemoryRouter>,
    );
    fireEvent.click(within(await screen.findByRole('article', { name: 'Vintage Watches' })).getByRole('button', { name: 'View Products' }));
    const row = await screen.findByRole('listitem', { name: 'Rolex Datejust' });
    expect(within(row).getByText('₹0')).toBeTruthy();

    fireEvent.click(within(row).getByRole('button', { name: 'Place Bid' }));
    expect(amountInput().min).toBe('1');
    bid('0');
    expect(dialog().getByText('Please enter a valid bid amount')).toBeTruthy();
    bid('2500');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row).getByText('₹2,500')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
    expect(toasts()).toContain('Bid placed successfully!');
  });
});
