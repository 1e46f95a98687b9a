import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Auction, Product } from '@auction/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../components/ui/toast/Toaster';
import { jsonResponse, resetAppState, routeFetch, sampleUser, type FetchAnswer, setServerNow } from '../test/utils';
import { BrowseAuctionsPage } from '../features/auctions';
import { auctionProducts } from '../lib/catalogue';
import { useSession } from '../lib/session';
import { useLive } from '../lib/live';
import { makeSavedLot } from '../features/saved/testing';
import { SavedPage } from '../features/saved';
import { FeatureSlots } from './feature-slots';

const NOW = Date.parse('2026-06-01T10:00:00.000Z');
const auction: Auction = {
  id: 'AUC-1', name: 'Camera Classics', valid_until: new Date(NOW + 72 * 3_600_000).toISOString(), product_ids: ['LEICA', 'ROLLEI'],
  registrations: [7], registered: true, product_count: 2, status: 'active', original_valid_until: new Date(NOW + 72 * 3_600_000).toISOString(),
  increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false, highest_bid: 0, bid_count: 0, cover: null,
};
const leica = makeSavedLot({ id: 'LEICA', name: 'Leica M6', auction_id: 'AUC-1', highest_bid: 900, bid_count: 2, version: 2, saved: false });
const rollei = makeSavedLot({ id: 'ROLLEI', name: 'Rolleiflex 2.8F', auction_id: 'AUC-1', saved: true });

const noContent = () => new Response(null, { status: 204 });
const deferred = () => {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => { resolve = r; });
  return { promise, resolve };
};

function routes(over: Record<string, FetchAnswer[]> = {}) {
  return routeFetch({
    // Browse reads its cards a page at a time, and the open auction by id (its first lot's page).
    'GET /api/catalogue/auctions?tab=active&sort=ending&limit=24': [jsonResponse(200, { items: [{ ...auction, registered: true }], next_cursor: null, counts: { active: 1, ending: 0, ended: 0 } })],
    'GET /api/products/LEICA': [jsonResponse(200, { ...leica, auction, bids: [], bids_next_before: null })],
    'GET /api/auctions/AUC-1/products': [jsonResponse(200, [leica, rollei])],
    'PUT /api/saved/LEICA': [noContent()],
    'DELETE /api/saved/LEICA': [noContent()],
    ...over,
  });
}

/** Browse, and (when asked) the Saved page beside it, so a star's effect on the list shows. */
function renderBrowse({ withSaved = false } = {}) {
  return render(
    <MemoryRouter initialEntries={['/user/auctions']}>
      <FeatureSlots>
        <BrowseAuctionsPage />
        {withSaved && <SavedPage />}
      </FeatureSlots>
      <Toaster />
    </MemoryRouter>,
  );
}

async function openProducts() {
  const card = await screen.findByRole('article', { name: 'Camera Classics' });
  fireEvent.click(within(card).getByRole('button', { name: 'View Products' }));
  return screen.findByRole('button', { name: /^Save Leica M6$/ });
}

/** A lot's star, saved or not (not the Saved page's Remove button). */
const star = (name: RegExp) => screen.getByRole('button', { name: new RegExp(`^(Save|Saved:) ${name.source}`) });
const pressed = (el: HTMLElement) => el.getAttribute('aria-pressed');
const toasts = () => [...document.querySelectorAll('.toast-message')].map((n) => n.textContent);
const shownSaved = (id: string) => auctionProducts.get('AUC-1').data?.find((p: Product) => p.id === id)?.saved;

describe('the save star on a lot', () => {
  beforeEach(() => {
    resetAppState();
    localStorage.setItem('token', 'u-tok');
    localStorage.setItem('user', JSON.stringify(sampleUser));
    useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
    setServerNow(NOW);
    useLive.setState({ status: 'live', watchers: {}, watch: vi.fn(), unwatch: vi.fn() });
  });
  afterEach(() => {
    cleanup();
    resetAppState();
  });

  it('saves with PUT and unsaves with DELETE, aria-pressed and the name following, the products query in step', async () => {
    const api = routes();
    renderBrowse();
    const leicaStar = await openProducts();
    expect(leicaStar.getAttribute('aria-label')).toBe('Save Leica M6');
    expect(pressed(leicaStar)).toBe('false');
    // A lot saved before shows filled.
    expect(pressed(star(/Rolleiflex 2\.8F \(remove\)$/))).toBe('true');

    fireEvent.click(leicaStar);
    // At once, before the server answers.
    expect(pressed(star(/Leica M6/))).toBe('true');
    expect(star(/Leica M6/).getAttribute('aria-label')).toBe('Saved: Leica M6 (remove)');
    expect(shownSaved('LEICA')).toBe(true);
    await waitFor(() => expect(api.calls('PUT /api/saved/LEICA')).toHaveLength(1));
    expect(api.calls('PUT /api/saved/LEICA')[0]![1]?.headers).toMatchObject({ authorization: 'Bearer u-tok' });

    fireEvent.click(star(/Leica M6/));
    expect(pressed(star(/Leica M6/))).toBe('false');
    expect(star(/Leica M6/).getAttribute('aria-label')).toBe('Save Leica M6');
    await waitFor(() => expect(api.calls('DELETE /api/saved/LEICA')).toHaveLength(1));
    expect(shownSaved('LEICA')).toBe(false);
    expect(api.calls('PUT /api/saved/LEICA')).toHaveLength(1);
    expect(toasts()).toEqual([]);
  });

  it('rolls a failed save back and says why', async () => {
    const put = deferred();
    routes({ 'PUT /api/saved/LEICA': [() => put.promise as unknown as Response] });
    renderBrowse();
    fireEvent.click(await openProducts());
    expect(pressed(star(/Leica M6/))).toBe('true');

    await act(async () => put.resolve(jsonResponse(503, { error: 'The service is busy, try again', code: 'UNAVAILABLE' })));
    await waitFor(() => expect(pressed(star(/Leica M6/))).toBe('false'));
    expect(star(/Leica M6/).getAttribute('aria-label')).toBe('Save Leica M6');
    expect(shownSaved('LEICA')).toBe(false);
    expect(toasts()).toEqual(['The service is busy, try again']);
  });

  it('rolls a failed unsave back with the fallback text when the server says nothing', async () => {
    routes({ 'DELETE /api/saved/ROLLEI': [new TypeError('Failed to fetch')] });
    renderBrowse();
    await openProducts();
    fireEvent.click(star(/Rolleiflex/));
    expect(pressed(star(/Rolleiflex/))).toBe('false');
    await waitFor(() => expect(pressed(star(/Rolleiflex/))).toBe('true'));
    expect(toasts()).toEqual(['Failed to remove saved lot']);
  });

  it('sends one request per lot at a time: taps while it travels end where the last tap left it', async () => {
    const put = deferred();
    const api = routes({ 'PUT /api/saved/LEICA': [() => put.promise as unknown as Response, noContent()] });
    renderBrowse();
    fireEvent.click(await openProducts());
    fireEvent.click(star(/Leica M6/));
    fireEvent.click(star(/Leica M6/));
    expect(pressed(star(/Leica M6/))).toBe('true');
    await act(async () => put.resolve(noContent()));
    // Saved, then unsaved and saved again while the PUT travelled: the server has it saved already.
    await waitFor(() => expect(api.calls('PUT /api/saved/LEICA')).toHaveLength(1));
    expect(api.calls('DELETE /api/saved/LEICA')).toHaveLength(0);
    expect(pressed(star(/Leica M6/))).toBe('true');

    // Unsaved while the DELETE travels, then saved again: a PUT follows it.
    const del = deferred();
    const next = routes({ 'DELETE /api/saved/LEICA': [() => del.promise as unknown as Response] });
    fireEvent.click(star(/Leica M6/));
    fireEvent.click(star(/Leica M6/));
    await act(async () => del.resolve(noContent()));
    await waitFor(() => expect(next.calls('PUT /api/saved/LEICA')).toHaveLength(1));
    expect(next.calls('DELETE /api/saved/LEICA')).toHaveLength(1);
    expect(pressed(star(/Leica M6/))).toBe('true');
    expect(shownSaved('LEICA')).toBe(true);
  });

  it('puts a starred lot on the Saved page at once, then reads the list again; unstarring takes it off', async () => {
    const api = routes({
      'GET /api/saved': [
        jsonResponse(200, [rollei]),
        jsonResponse(200, [{ ...leica, saved: true }, rollei]),
        jsonResponse(200, [rollei]),
      ],
    });
    renderBrowse({ withSaved: true });
    const list = await screen.findByRole('table', { name: /saved lots/ });
    expect(within(list).queryByText('Leica M6')).toBeNull();

    fireEvent.click(await openProducts());
    expect(within(list).getByText('Leica M6')).toBeTruthy();
    await waitFor(() => expect(api.calls('GET /api/saved')).toHaveLength(2));

    fireEvent.click(star(/Leica M6/));
    expect(within(list).queryByText('Leica M6')).toBeNull();
    await waitFor(() => expect(api.calls('GET /api/saved')).toHaveLength(3));
    expect(within(list).queryByText('Leica M6')).toBeNull();
    expect(within(list).getByText('Rolleiflex 2.8F')).toBeTruthy();
  });
});
