import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { injectLiveEvent } from '../../../lib/live';
import { auctionById } from '../../../lib/catalogue';
import { auctionProducts } from '../store/auctions-store';
import { bidPlaced, callsTo, catalogueRoutes, inHours, makeAuction, makeProduct, placedEvent, routeFetch, setUpUser, tearDownStores } from '../test/fixtures';
import { BidModal } from './BidModal';
import { BrowseAuctionsPage } from './BrowseAuctionsPage';

const auction = makeAuction({ id: 'AUC-1', registered: true, registrations: [7], valid_until: inHours(5) });
const rolex = makeProduct({ id: 'P-1', name: 'Rolex Datejust', highest_bid: 100000, bid_count: 3 });

function seed(product = rolex, theAuction = auction) {
  auctionById.set('AUC-1', theAuction);
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
const maxInput = () => dialog().getByLabelText<HTMLInputElement>('Maximum bid (₹, optional)');
const quickAmounts = () => within(dialog().getByRole('group', { name: 'Quick bid amounts' })).getAllByRole<HTMLButtonElement>('button');
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

  it('shows the product, the current highest bid and a number input filled with the minimum (highest + 1 on a flat auction)', () => {
    renderModal();
    expect(dialog().getByText('Rolex Datejust')).toBeTruthy();
    expect(dialog().getByText('₹1,00,000')).toBeTruthy();
    const input = amountInput();
    expect(input.type).toBe('number');
    expect(input.value).toBe('100001');
    expect(input.min).toBe('100001');
    expect(input.step).toBe('0.01');
    expect(document.activeElement).toBe(input);
    expect(dialog().getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('asks for a valid amount when the field is emptied, without calling the server', () => {
    const fetchMock = routeFetch({});
    renderModal();
    bid('');
    expect(dialog().getByText('Please enter a valid bid amount')).toBeTruthy();
    expect(amountInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(amountInput());
    expect(callsTo(fetchMock, 'POST', '/api/bid')).toHaveLength(0);
  });

  it('refuses an amount not above the highest bid, naming it in en-IN format', () => {
    const fetchMock = routeFetch({});
    renderModal();
    bid('100000');
    expect(dialog().getByText('Bid must be higher than current highest bid of ₹1,00,000')).toBeTruthy();
    bid('99999.99');
    expect(dialog().getByText('Bid must be higher than current highest bid of ₹1,00,000')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/bid')).toHaveLength(0);
  });

  it('places a bid: POST /api/bid as the user, success toast, new highest, dialog closed', async () => {
    const fetchMock = routeFetch({ 'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 100500.5, wallet_balance: 10, version: 4 })) });
    const onClose = renderModal();
    bid('100500.50');

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = callsTo(fetchMock, 'POST', '/api/bid');
    expect(call?.body).toEqual({ product_id: 'P-1', bid_amount: 100500.5 });
    expect(call?.headers.authorization).toBe('Bearer u-tok');
    expect(toasts()).toContain('Bid placed successfully!');
    expect(auctionProducts.get('AUC-1').data?.[0]).toMatchObject({ highest_bid: 100500.5, bid_count: 4, my_status: 'leading', my_max: null });
  });

  it('on refusal shows the server’s message field and stays open', async () => {
    routeFetch({
      'POST /api/bid': jsonResponse(402, { error: 'Not enough money', message: 'Insufficient wallet balance: ₹200 available for this bid', code: 'INSUFFICIENT_FUNDS' }),
    });
    const onClose = renderModal();
    bid('200000');
    await waitFor(() => expect(toasts()).toContain('Insufficient wallet balance: ₹200 available for this bid'));
    expect(toasts()).not.toContain('Not enough money');
    await waitFor(() => expect(submit().disabled).toBe(false));
    expect(onClose).not.toHaveBeenCalled();
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
    // The bid is a mutation: its request goes out a few microtasks after the click.
    await waitFor(() => expect(answer).toBeTypeOf('function'));
    await act(async () => answer(jsonResponse(201, bidPlaced({ highest_bid: 150000, version: 4 }))));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('follows the highest bid live while open, so the minimum moves with it', () => {
    routeFetch({});
    renderModal();
    act(() => injectLiveEvent(placedEvent({ bid_id: 8, highest_bid: 120000, bid_count: 4, version: 4 })));
    expect(dialog().getByText('₹1,20,000')).toBeTruthy();
    expect(amountInput().min).toBe('120001');
    // The amount the bidder has not touched follows the minimum.
    expect(amountInput().value).toBe('120001');
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

describe('BidModal: minimum, one-tap amounts, maximum bids and the balance', () => {
  // A ladder auction with a lot at ₹980: ₹10 steps below ₹1,000, ₹50 from there.
  const ladder = makeAuction({ id: 'AUC-1', registered: true, registrations: [7], valid_until: inHours(5), increment_rule: 'ladder' });
  const lamp = makeProduct({ id: 'P-1', name: 'Brass Lamp', highest_bid: 980, bid_count: 2, min_next_bid: 990 });

  beforeEach(() => {
    resetAppState();
    setUpUser();
    seed(lamp, ladder);
  });
  afterEach(() => {
    cleanup();
    tearDownStores();
    resetAppState();
  });

  it('pre-fills the minimum and offers the next three steps of the ladder, across its ₹1,000 threshold', () => {
    routeFetch({});
    renderModal();
    expect(amountInput().value).toBe('990');
    expect(dialog().getByText('Minimum bid')).toBeTruthy();
    expect(quickAmounts().map((b) => b.textContent)).toEqual(['₹990', '₹1,000', '₹1,050']);
    expect(quickAmounts()[0]!.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(quickAmounts()[2]!);
    expect(amountInput().value).toBe('1050');
    expect(quickAmounts()[2]!.getAttribute('aria-pressed')).toBe('true');
    expect(quickAmounts()[0]!.getAttribute('aria-pressed')).toBe('false');
  });

  it('checks the ladder’s step with the server’s words, and sends a one-tap amount', async () => {
    const fetchMock = routeFetch({ 'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 1050, version: 3 })) });
    const onClose = renderModal();
    bid('985');
    expect(dialog().getByText('Bid must be at least ₹990')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/bid')).toHaveLength(0);
    fireEvent.click(quickAmounts()[2]!);
    // Choosing an amount clears the error.
    expect(dialog().queryByText('Bid must be at least ₹990')).toBeNull();
    fireEvent.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(fetchMock, 'POST', '/api/bid')).toHaveLength(1);
    expect(callsTo(fetchMock, 'POST', '/api/bid')[0]?.body).toEqual({ product_id: 'P-1', bid_amount: 1050 });
  });

  it('sends a maximum as max_amount, and shows the caller leading with their maximum', async () => {
    const fetchMock = routeFetch({ 'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 990, max_amount: 5000, version: 3, min_next_bid: 1000 })) });
    const onClose = renderModal();
    expect(maxInput().getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(maxInput().getAttribute('aria-describedby')!)?.textContent)
      .toBe("We'll bid for you up to this amount; all of it is held while you lead.");
    fireEvent.change(maxInput(), { target: { value: '5000' } });
    fireEvent.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(fetchMock, 'POST', '/api/bid')[0]?.body).toEqual({ product_id: 'P-1', bid_amount: 990, max_amount: 5000 });
    expect(auctionProducts.get('AUC-1').data?.[0]).toMatchObject({ my_status: 'leading', my_max: 5000, min_next_bid: 1000 });
  });

  it('says, under the maximum, that a maximum reaching an unmet reserve lifts the price straight to it; not once the reserve is met or without one', () => {
    routeFetch({});
    seed({ ...lamp, reserve_met: false }, ladder);
    const view = renderModal;
    view();
    expect(dialog().getByTestId('reserve-note').textContent).toContain('a maximum that reaches it lifts the price straight to the reserve');
    cleanup();
    for (const reserve of [true, null]) {
      seed({ ...lamp, reserve_met: reserve }, ladder);
      view();
      expect(dialog().queryByTestId('reserve-note')).toBeNull();
      cleanup();
    }
  });

  it('refuses a maximum below the bid, or not a valid amount, on the maximum field', () => {
    const fetchMock = routeFetch({});
    renderModal();
    fireEvent.change(maxInput(), { target: { value: '985' } });
    fireEvent.click(submit());
    expect(dialog().getByText('Your maximum bid must be at least your bid')).toBeTruthy();
    expect(maxInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(maxInput());
    fireEvent.change(maxInput(), { target: { value: '12.345' } });
    fireEvent.click(submit());
    expect(dialog().getByText('Please enter a valid maximum bid')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/bid')).toHaveLength(0);
  });

  it('lets the leader raise their maximum alone', async () => {
    seed({ ...lamp, my_status: 'leading', my_max: 2000 }, ladder);
    const fetchMock = routeFetch({ 'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 980, max_amount: 3000, version: 3, min_next_bid: 990 })) });
    const onClose = renderModal();
    expect(dialog().getByText(/You're the highest bidder · your maximum ₹2,000/)).toBeTruthy();
    fireEvent.change(maxInput(), { target: { value: '2000' } });
    fireEvent.click(submit());
    expect(dialog().getByText('Your new maximum must be more than your current maximum of ₹2,000')).toBeTruthy();
    fireEvent.change(maxInput(), { target: { value: '3000' } });
    fireEvent.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(callsTo(fetchMock, 'POST', '/api/bid')[0]?.body).toEqual({ product_id: 'P-1', max_amount: 3000 });
    expect(auctionProducts.get('AUC-1').data?.[0]).toMatchObject({ my_status: 'leading', my_max: 3000 });
  });

  it('an answer beaten at once by an automatic bid says so, stays open and starts again from the new minimum', async () => {
    routeFetch({ 'POST /api/bid': jsonResponse(201, bidPlaced({ leading: false, highest_bid: 1100, min_next_bid: 1150, version: 4 })) });
    const onClose = renderModal();
    fireEvent.change(maxInput(), { target: { value: '1050' } });
    fireEvent.click(submit());
    const alert = await dialog().findByRole('alert');
    expect(alert.textContent).toBe('You were outbid by an automatic bid. The highest bid is now ₹1,100; bid at least ₹1,150 to lead.');
    expect(onClose).not.toHaveBeenCalled();
    expect(toasts()).not.toContain('Bid placed successfully!');
    // The dialog follows: the new highest and minimum, the amount and one-tap amounts from there, the maximum cleared.
    expect(dialog().getByText('₹1,100')).toBeTruthy();
    expect(amountInput().value).toBe('1150');
    expect(maxInput().value).toBe('');
    expect(quickAmounts().map((b) => b.textContent)).toEqual(['₹1,150', '₹1,200', '₹1,250']);
    expect(submit().disabled).toBe(false);
    expect(document.activeElement).toBe(amountInput());
    expect(auctionProducts.get('AUC-1').data?.[0]).toMatchObject({ highest_bid: 1100, min_next_bid: 1150, my_status: 'outbid', my_max: null });
  });

  it('shows the available balance from the wallet, and what the leading bids hold', async () => {
    routeFetch({ 'POST /api/wallet': jsonResponse(200, { wallet_balance: 5000, on_hold: 1200 }) });
    renderModal();
    expect(dialog().getByText('Available balance')).toBeTruthy();
    expect(await dialog().findByText('₹5,000')).toBeTruthy();
    expect(dialog().getByText('₹1,200 held by your leading bids')).toBeTruthy();
  });

  it('keeps the order of the form for the keyboard: amount, one-tap amounts, maximum, then the buttons', () => {
    routeFetch({});
    renderModal();
    const order = [...screen.getByRole('dialog').querySelectorAll<HTMLElement>('input, button')]
      .map((el) => el.getAttribute('aria-label') ?? (el.tagName === 'INPUT' ? (el as HTMLInputElement).labels?.[0]?.textContent : el.textContent));
    expect(order).toEqual(['Close', 'Your bid (₹)', '₹990', '₹1,000', '₹1,050', 'Maximum bid (₹, optional)', 'Cancel', 'Place Bid']);
    expect(document.activeElement).toBe(amountInput());
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
      ...catalogueRoutes({ auctions: [auction], products: { 'AUC-1': [makeProduct({ id: 'P-1', name: 'Rolex Datejust' })] } }),
      'POST /api/bid': jsonResponse(201, bidPlaced({ highest_bid: 2500, wallet_balance: 2500, version: 1 })),
    });
    render(
      <MemoryRouter initialEntries={['/user/auctions']}>
        <Routes><Route path="/user/auctions" element={<BrowseAuctionsPage />} /></Routes>
        <Toaster />
      </MemoryRouter>,
    );
    fireEvent.click(within(await screen.findByRole('article', { name: 'Vintage Watches' })).getByRole('button', { name: 'View Products' }));
    const row = await screen.findByRole('listitem', { name: 'Rolex Datejust' });
    // No bid yet: the starting bid, not "Highest bid ₹0".
    expect(within(row).getByText('Starting bid')).toBeTruthy();
    expect(within(row).getByText('₹1')).toBeTruthy();
    expect(within(row).queryByText('Highest bid')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Place Bid' }));
    expect(amountInput().min).toBe('1');
    bid('0');
    expect(dialog().getByText('Please enter a valid bid amount')).toBeTruthy();
    bid('2500');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(row).getByText('₹2,500')).toBeTruthy();
    expect(within(row).getByText('Highest bid')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
    expect(within(row).getByText("You're the highest bidder")).toBeTruthy();
    expect(toasts()).toContain('Bid placed successfully!');
  });
});

describe('BidModal: the seller’s steps', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
  });
  afterEach(() => {
    cleanup();
    tearDownStores();
    resetAppState();
  });

  it('flat ₹50: the minimum and the one-tap amounts go up in ₹50, and the dialog says so', () => {
    seed(
      makeProduct({ id: 'P-1', name: 'Brass Lamp', highest_bid: 1200, bid_count: 2, min_next_bid: 1250 }),
      makeAuction({ id: 'AUC-1', registered: true, registrations: [7], valid_until: inHours(5), increment_rule: 'flat', increment_amount: 50 }),
    );
    routeFetch({});
    renderModal();
    expect(amountInput().value).toBe('1250');
    expect(quickAmounts().map((b) => b.textContent)).toEqual(['₹1,250', '₹1,300', '₹1,350']);
    expect(dialog().getByTestId('bid-steps').textContent).toBe('Bids go up in ₹50 steps.');
    bid('1249');
    expect(dialog().getByText('Bid must be at least ₹1,250')).toBeTruthy();
    expect(dialog().queryByTestId('strict-cancel')).toBeNull();
  });

  it('custom tiers: one-tap amounts cross a band as the tiers say; a strict cancel policy is stated', () => {
    seed(
      makeProduct({ id: 'P-1', name: 'Brass Lamp', highest_bid: 4900, bid_count: 2, min_next_bid: 5000 }),
      makeAuction({
        id: 'AUC-1', registered: true, registrations: [7], valid_until: inHours(5), cancel_policy: 'strict',
        increment_rule: 'custom', increment_tiers: [{ below: 5000, step: 100 }, { below: null, step: 500 }],
      }),
    );
    routeFetch({});
    renderModal();
    expect(amountInput().value).toBe('5000');
    expect(quickAmounts().map((b) => b.textContent)).toEqual(['₹5,000', '₹5,500', '₹6,000']);
    expect(dialog().getByTestId('bid-steps').textContent).toBe('Bids go up in steps of ₹100 below ₹5,000, then ₹500.');
    expect(dialog().getByTestId('strict-cancel').textContent).toMatch(/only within 10 minutes of placing it, and never in the auction’s last hour/);
  });
});
