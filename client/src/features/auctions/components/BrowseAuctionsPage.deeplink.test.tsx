/** Browse's ?auction= and ?lot= (where a notice's link leads, through /auctions/:auctionId/products/:productId). */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { resetAppState } from '../../../test/utils';
import { useLive } from '../../../lib/live';
import { LocationSearchProbe, catalogueRoutes, inHours, makeAuction, makeProduct, routeFetch, setUpUser, tearDownStores } from '../test/fixtures';
import { BrowseAuctionsPage } from './BrowseAuctionsPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const watches = makeAuction({ id: 'AUC-1', name: 'Vintage Watches', valid_until: inHours(72), registered: true, product_ids: ['P-1', 'P-2'], product_count: 2 });
const maps = makeAuction({ id: 'AUC-2', name: 'Old Maps', valid_until: inHours(0.5), product_ids: ['M-1'] });
const coins = makeAuction({ id: 'OLD-3', name: 'Rare Coins', valid_until: inHours(-1), status: 'ended', registered: true, product_ids: ['C-1'] });

function routes() {
  return routeFetch(catalogueRoutes({
    auctions: [watches, maps, coins],
    products: {
      'AUC-1': [makeProduct({ id: 'P-1', name: 'Rolex Datejust' }), makeProduct({ id: 'P-2', name: 'Omega Seamaster' })],
      'AUC-2': [makeProduct({ id: 'M-1', name: 'Bengal 1780', auction_id: 'AUC-2' })],
      'OLD-3': [makeProduct({ id: 'C-1', name: 'Gold Mohur', auction_id: 'OLD-3', highest_bid: 900, bid_count: 1 })],
    },
  }));
}

/** Goes to `to` within the page, as the bell's link does while Browse is open. */
function GoTo({ to }: { to: string }) {
  const navigate = useNavigate();
  return <button type="button" onClick={() => void navigate(to)}>Go {to}</button>;
}

function renderPage(url: string, goTo = '/user/auctions?auction=AUC-1&lot=P-1') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/user/auctions" element={<BrowseAuctionsPage />} />
      </Routes>
      <LocationSearchProbe />
      <GoTo to={goTo} />
      <Toaster />
    </MemoryRouter>,
  );
}

const panelTitle = () => screen.queryByRole('heading', { level: 2, name: /Vintage Watches|Old Maps|Rare Coins/ });
const location = () => screen.getByTestId('location').textContent;
const row = (name: string) => screen.getByRole('heading', { level: 3, name }).closest('li')!;

describe('BrowseAuctionsPage ?auction= and ?lot=', () => {
  let live: ReturnType<typeof setUpUser>;
  let scrolled: HTMLElement[];
  beforeEach(() => {
    resetAppState();
    live = setUpUser();
    scrolled = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: HTMLElement) { scrolled.push(this); });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('opens the auction’s products, as View Products does, and leaves the URL clean', async () => {
    routes();
    renderPage('/user/auctions?auction=AUC-1');
    await waitFor(() => expect(panelTitle()?.textContent).toBe('Vintage Watches'));
    await waitFor(() => expect(location()).toBe('/user/auctions'));
    expect(live.watch).toHaveBeenCalledWith('AUC-1');
    await screen.findByRole('heading', { level: 3, name: 'Rolex Datejust' });
    expect(screen.getByRole('button', { name: 'View Products', pressed: true })).toBeTruthy();
  });

  it('brings the lot named by ?lot= into view and highlights it', async () => {
    routes();
    renderPage('/user/auctions?auction=AUC-1&lot=P-2');
    await screen.findByRole('heading', { level: 3, name: 'Omega Seamaster' });
    await waitFor(() => expect(scrolled).toContain(row('Omega Seamaster')));
    expect(row('Omega Seamaster').className).toContain('auc-product-target');
    expect(row('Rolex Datejust').className).not.toContain('auc-product-target');
    await waitFor(() => expect(location()).toBe('/user/auctions'));
  });

  it('opens an auction no loaded page holds (an ended one, from Active): it is read by its id', async () => {
    routes();
    renderPage('/user/auctions?auction=OLD-3&lot=C-1');
    await waitFor(() => expect(panelTitle()?.textContent).toBe('Rare Coins'));
    await waitFor(() => expect(location()).toBe('/user/auctions'));
    expect(screen.getByRole('tab', { name: /^Active/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('article', { name: 'Rare Coins' })).toBeNull();
    await waitFor(() => expect(scrolled).toContain(row('Gold Mohur')));
  });

  it('keeps the view and the filters the link came with', async () => {
    routes();
    renderPage('/user/auctions?show=ending&registered=1&auction=AUC-2');
    await waitFor(() => expect(panelTitle()?.textContent).toBe('Old Maps'));
    await waitFor(() => expect(location()).toBe('/user/auctions?show=ending&registered=1'));
    expect(screen.getByRole('tab', { name: /^Ending soon/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('says so when the auction is no longer listed', async () => {
    routes();
    renderPage('/user/auctions?auction=GONE&lot=X');
    await waitFor(() => expect(screen.getByText('That auction is no longer listed')).toBeTruthy());
    await waitFor(() => expect(location()).toBe('/user/auctions'));
    expect(screen.getByText('Select an Auction')).toBeTruthy();
  });

  it('a link to a lot of the auction already open brings that lot into view', async () => {
    routes();
    renderPage('/user/auctions?auction=AUC-1');
    await screen.findByRole('heading', { level: 3, name: 'Rolex Datejust' });
    await waitFor(() => expect(location()).toBe('/user/auctions'));
    expect(scrolled).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: /^Go / }));
    await waitFor(() => expect(scrolled).toContain(row('Rolex Datejust')));
    expect(row('Rolex Datejust').className).toContain('auc-product-target');
    await act(async () => { await Promise.resolve(); });
    expect(within(screen.getByRole('region')).getByRole('heading', { level: 2 }).textContent).toBe('Vintage Watches');
  });
});
