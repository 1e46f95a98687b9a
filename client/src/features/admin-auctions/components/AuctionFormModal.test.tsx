import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { useAdminAuctions } from '../store/admin-auctions-store';
import { makeAdminAuction, makeProduct, routeFetch } from '../testing';
import { AuctionFormModal } from './AuctionFormModal';

const MESSAGE = 'Please fill all fields and select at least one product';

function renderCreate() {
  const onClose = vi.fn();
  render(<><AuctionFormModal mode="create" onClose={onClose} /><Toaster /></>);
  return { onClose, dialog: screen.getByRole('dialog', { name: 'Create Auction' }) };
}

const unassigned = [makeProduct({ id: 'P-1', name: 'Ming Vase', auction_id: null }), makeProduct({ id: 'P-2', name: 'Brass Lamp', auction_id: null })];

describe('Create Auction modal', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('refuses an incomplete form with the spec’s sentence and sends nothing', async () => {
    const api = routeFetch({ 'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)] });
    const { dialog } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    const submit = within(dialog).getByRole('button', { name: 'Create Auction' });

    // Nothing filled.
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    // Every field but no product.
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'spring' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    // A product but an empty end.
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));
    fireEvent.change(within(dialog).getByLabelText(/Valid Until/), { target: { value: '' } });
    fireEvent.click(submit);
    expect(within(dialog).getByRole('alert').textContent).toContain(MESSAGE);

    expect(api.calls('POST /api/admin/auction')).toHaveLength(0);
  });

  it('creates with the selected products and the local end as an ISO instant, and the auction joins the list', async () => {
    const api = routeFetch({
      'GET /api/admin/auctions/my': [jsonResponse(200, [makeAdminAuction({ id: 'older' })])],
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'POST /api/admin/auction': [(body) => jsonResponse(201, { message: 'Auction created successfully!', auction: makeAdminAuction({ ...(body as object), product_count: 1 }) })],
    });
    await useAdminAuctions.getState().load();
    const { dialog, onClose } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Brass Lamp/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: ' spring ' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.change(within(dialog).getByLabelText(/Valid Until/), { target: { value: '2030-05-01T18:30' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Brass Lamp/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.body('POST /api/admin/auction')).toEqual({
      id: 'spring', name: 'Spring Sale', valid_until: new Date('2030-05-01T18:30').toISOString(), product_ids: ['P-2'], increment_rule: 'flat',
      increment_amount: 1, cancel_policy: 'until_end',
    });
    expect(screen.getByText('Auction created successfully!')).toBeTruthy();
    expect(useAdminAuctions.getState().auctions.map((a) => a.id)).toEqual(['spring', 'older']);
  });

  it('keeps the form open and shows the server’s error when creating fails', async () => {
    routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'POST /api/admin/auction': [jsonResponse(409, { error: 'An auction with this id already exists', message: 'x', code: 'ID_TAKEN' })],
    });
    const { dialog, onClose } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'spring' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Spring Sale' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    expect(await screen.findByText('An auction with this id already exists')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends the increment rule and soft close chosen (a preset or a number), and leaves a blank max extension to the server', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'POST /api/admin/auction': [(body) => jsonResponse(201, { message: 'Auction created successfully!', auction: makeAdminAuction({ ...(body as object) }) })],
    });
    const { dialog, onClose } = renderCreate();
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'ladder-sale' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Ladder Sale' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));

    const rule = within(dialog).getByLabelText<HTMLSelectElement>('Increment rule');
    expect([...rule.options].map((o) => o.text)).toEqual(['Flat (one step)', 'Ladder (grows with the price)', 'Custom (your price bands)']);
    expect(rule.value).toBe('flat');
    fireEvent.change(rule, { target: { value: 'ladder' } });
    const soft = within(dialog).getByLabelText<HTMLInputElement>('Soft close (seconds)');
    // Blank: the server's default.
    expect(soft.value).toBe('');
    fireEvent.click(within(dialog).getByRole('button', { name: '1 min' }));
    expect(soft.value).toBe('60');
    expect(within(dialog).getByText('Bids in the last 60 s extend the auction (to 60 s after the bid).')).toBeTruthy();

    // Out of range: refused here, nothing sent.
    fireEvent.change(soft, { target: { value: '4000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Soft close must be a whole number of seconds from 0 to 3600');
    expect(api.calls('POST /api/admin/auction')).toHaveLength(0);

    fireEvent.change(soft, { target: { value: '45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.body('POST /api/admin/auction')).toEqual({
      id: 'ladder-sale', name: 'Ladder Sale', valid_until: expect.any(String), product_ids: ['P-1'], increment_rule: 'ladder', cancel_policy: 'until_end', soft_close_s: 45,
    });
  });

  it('says what a blank soft close means, from the server’s settings, and sends no rule seconds for it', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
      'GET /api/admin/settings': [jsonResponse(200, { auto_settle: true, admin_signup: 'open', min_increment: 1, live_frame_ms: 100, timezone: 'Asia/Kolkata', soft_close_s: 90, max_extension_s: 1800 })],
      'POST /api/admin/auction': [(body) => jsonResponse(201, { message: 'Auction created successfully!', auction: makeAdminAuction({ ...(body as object) }) })],
    });
    const { dialog, onClose } = renderCreate();
    expect(await within(dialog).findByText('Blank: the server’s default. Bids in the last 90 s extend the auction (to 90 s after the bid).')).toBeTruthy();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Soft close (seconds)').placeholder).toBe('90');
    expect(within(dialog).getByText('Blank: the server’s default. The end never moves more than 30 min past the end you set.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'plain' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Plain Sale' } });
    fireEvent.click(await within(dialog).findByRole('checkbox', { name: /Ming Vase/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const sent = api.body('POST /api/admin/auction') as Record<string, unknown>;
    expect(sent).not.toHaveProperty('soft_close_s');
    expect(sent).not.toHaveProperty('max_extension_s');
  });

  it('says so when there are no unassigned products', async () => {
    routeFetch({ 'GET /api/admin/products/unassigned': [jsonResponse(200, [])] });
    const { dialog } = renderCreate();
    expect(await within(dialog).findByText('No unassigned products available')).toBeTruthy();
  });
});

describe('Edit Auction modal: the rules', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  const ladder = makeAdminAuction({ increment_rule: 'ladder', soft_close_s: 300, max_extension_s: 7200 });

  it('shows the auction’s rules and sends the ones changed; soft close 0 turns it off', async () => {
    const api = routeFetch({
      'PUT /api/admin/auction/AUC-1': [(body) => jsonResponse(200, { message: 'ok', auction: { ...ladder, ...(body as object) } })],
    });
    const onSaved = vi.fn();
    render(<><AuctionFormModal mode="edit" auction={ladder} withProducts={false} onClose={() => undefined} onSaved={onSaved} /><Toaster /></>);
    const dialog = screen.getByRole('dialog', { name: 'Edit Auction' });
    const rule = within(dialog).getByLabelText<HTMLSelectElement>('Increment rule');
    expect(rule.value).toBe('ladder');
    expect(rule.disabled).toBe(false);
    expect(within(dialog).getByLabelText<HTMLInputElement>('Soft close (seconds)').value).toBe('300');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Max extension (seconds)').value).toBe('7200');
    expect(within(dialog).getByRole('button', { name: '5 min' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.change(rule, { target: { value: 'flat' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Off' }));
    expect(within(dialog).getByText('Off: the auction ends on time, whatever the bids.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.body('PUT /api/admin/auction/AUC-1')).toMatchObject({ increment_rule: 'flat', soft_close_s: 0, max_extension_s: 7200 });
  });

  it('a lot with bids fixes the increment rule: the select is disabled and the rule is not sent', async () => {
    const api = routeFetch({
      'GET /api/admin/products/unassigned': [jsonResponse(200, [])],
      'GET /api/admin/auction/AUC-1/products': [jsonResponse(200, [makeProduct({ highest_bid: 500, bid_count: 1 })])],
      'PUT /api/admin/auction/AUC-1': [(body) => jsonResponse(200, { message: 'ok', auction: { ...ladder, ...(body as object) } })],
    });
    const onSaved = vi.fn();
    render(<><AuctionFormModal mode="edit" auction={ladder} onClose={() => undefined} onSaved={onSaved} /><Toaster /></>);
    const dialog = screen.getByRole('dialog', { name: 'Edit Auction' });
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Increment rule').disabled).toBe(true);
    expect(within(dialog).getByText('Bid steps and the cancel policy are fixed once a lot has bids.')).toBeTruthy();
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /Strict/ }).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Soft close (seconds)'), { target: { value: '90' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const sent = api.body('PUT /api/admin/auction/AUC-1') as Record<string, unknown>;
    expect(sent).toMatchObject({ soft_close_s: 90, product_ids: ['P-1'] });
    expect(sent).not.toHaveProperty('increment_rule');
    expect(sent).not.toHaveProperty('cancel_policy');
  });
});

describe('Auction form: bid steps and cancel policy', () => {
  beforeEach(() => {
    resetAppState();
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  async function fillCreate(dialog: HTMLElement) {
    await within(dialog).findByRole('checkbox', { name: /Ming Vase/ });
    fireEvent.change(within(dialog).getByLabelText('Auction ID'), { target: { value: 'steps-sale' } });
    fireEvent.change(within(dialog).getByLabelText('Auction Name'), { target: { value: 'Steps Sale' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Ming Vase/ }));
  }
  const created = () => routeFetch({
    'GET /api/admin/products/unassigned': [jsonResponse(200, unassigned)],
    'POST /api/admin/auction': [(body) => jsonResponse(201, { message: 'Auction created successfully!', auction: makeAdminAuction({ ...(body as object) }) })],
  });

  it('flat: the step amount (₹1 by default) is sent with a strict cancel policy; an amount out of range is refused here', async () => {
    const api = created();
    const { dialog, onClose } = renderCreate();
    await fillCreate(dialog);
    const amount = within(dialog).getByLabelText<HTMLInputElement>('Step (₹)');
    expect(amount.value).toBe('1');
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /Until the end/ }).checked).toBe(true);
    fireEvent.change(amount, { target: { value: '0.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('The step must be an amount from ₹1 to ₹1,00,000, with at most 2 decimals');
    expect(api.calls('POST /api/admin/auction')).toHaveLength(0);

    fireEvent.change(amount, { target: { value: '50' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: /Strict/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.body('POST /api/admin/auction')).toMatchObject({ increment_rule: 'flat', increment_amount: 50, cancel_policy: 'strict' });
    expect(api.body('POST /api/admin/auction')).not.toHaveProperty('increment_tiers');
  });

  it('custom: price bands can be added and removed; they are checked as the server checks them and sent in rupees', async () => {
    const api = created();
    const { dialog, onClose } = renderCreate();
    await fillCreate(dialog);
    fireEvent.change(within(dialog).getByLabelText('Increment rule'), { target: { value: 'custom' } });
    expect(within(dialog).queryByLabelText('Step (₹)')).toBeNull();
    // Starts from ₹10 below ₹1,000, then ₹50.
    expect(within(dialog).getAllByTestId('tier-row')).toHaveLength(2);
    expect(within(dialog).getByLabelText<HTMLInputElement>('Band 1: highest bid below (₹)').value).toBe('1000');
    expect(within(dialog).queryByLabelText('Band 2: highest bid below (₹)')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Add a price band' }));
    expect(within(dialog).getAllByTestId('tier-row')).toHaveLength(3);
    fireEvent.change(within(dialog).getByLabelText('Band 2: highest bid below (₹)'), { target: { value: '500' } });
    fireEvent.change(within(dialog).getByLabelText('Band 2: step (₹)'), { target: { value: '25' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Custom steps: "below" amounts must go up from band to band, but band 2 (₹500) is not above band 1 (₹1,000)');
    expect(api.calls('POST /api/admin/auction')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Band 2: highest bid below (₹)'), { target: { value: '5000' } });
    fireEvent.change(within(dialog).getByLabelText('Band 3: step (₹)'), { target: { value: '100' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove band 1' }));
    expect(within(dialog).getAllByTestId('tier-row')).toHaveLength(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Auction' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(api.body('POST /api/admin/auction')).toMatchObject({
      increment_rule: 'custom', increment_tiers: [{ below: 5000, step: 25 }, { step: 100 }], cancel_policy: 'until_end',
    });
  });

  it('editing starts from the auction’s own steps and policy', () => {
    routeFetch({});
    const custom = makeAdminAuction({ increment_rule: 'custom', increment_tiers: [{ below: 200, step: 5 }, { below: null, step: 20 }], cancel_policy: 'strict' });
    render(<><AuctionFormModal mode="edit" auction={custom} withProducts={false} onClose={() => undefined} /><Toaster /></>);
    const dialog = screen.getByRole('dialog', { name: 'Edit Auction' });
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Increment rule').value).toBe('custom');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Band 1: highest bid below (₹)').value).toBe('200');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Band 2: step (₹)').value).toBe('20');
    expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /Strict/ }).checked).toBe(true);
  });
});
