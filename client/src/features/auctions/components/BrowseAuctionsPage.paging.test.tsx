import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { AuctionCard, CardChangedData, Category } from '@auction/shared';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState } from '../../../test/utils';
import { registerNavigate } from '../../../lib/api-client';
import { useLive } from '../../../lib/live';
import { useSession } from '../../../lib/session';
import { queryClient } from '../../../lib/query-client';
import { browseKey } from '../../../lib/catalogue';
import {
  LocationSearchProbe, T0, cardOf, catalogueRoutes, inHours, makeAuction, makeProduct, routeFetch, setUpUser, tearDownStores, type CatalogueServer,
} from '../test/fixtures';
import { BrowseAuctionsPage } from './BrowseAuctionsPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));
// Pages of 24 cards render slowly in jsdom.
vi.setConfig({ testTimeout: 20_000 });

/** 30 open auctions, AUC-01 ending first, then one each hour; the even ones have lamps in them. */
const many = Array.from({ length: 30 }, (_, i) => makeAuction({
  id: `AUC-${String(i + 1).padStart(2, '0')}`, name: `Auction ${i + 1}`, valid_until: inHours(i + 1), bid_count: i, product_count: 2,
}));
const ended = makeAuction({ id: 'OLD-1', name: 'Closed Sale', valid_until: inHours(-2), status: 'ended' });
const lampsOf = Object.fromEntries(many.filter((_, i) => i % 2 === 1).map((a) => [a.id, ['lighting', 'lamps']]));
const categories: Category[] = [
  { id: 1, name: 'Lighting', slug: 'lighting', parent_id: null, open_lots: 15 },
  { id: 2, name: 'Lamps', slug: 'lamps', parent_id: 1, open_lots: 15 },
];

function serve(server: Partial<CatalogueServer> = {}, over: Parameters<typeof routeFetch>[0] = {}) {
  return routeFetch({
    ...catalogueRoutes({ auctions: [...many, ended], categories: lampsOf, ...server }),
    'GET /api/categories': jsonResponse(200, { categories }),
    ...over,
  });
}

/** The query of each read of the catalogue, in order. */
const reads = (fetchMock: ReturnType<typeof routeFetch>) => fetchMock.mock.calls
  .filter(([url]) => url.startsWith('/api/catalogue/auctions'))
  .map(([url]) => Object.fromEntries(new URL(url, 'http://x').searchParams));

/** Lets a test move through history as the browser's back button does. */
let navigate: ReturnType<typeof useNavigate> | null = null;
function NavigateProbe() {
  navigate = useNavigate();
  return null;
}

function renderPage(url = '/user/auctions') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/user/auctions" element={<BrowseAuctionsPage />} />
      </Routes>
      <LocationSearchProbe />
      <NavigateProbe />
      <Toaster />
    </MemoryRouter>,
  );
}

// Found by their headings: role queries over dozens of cards are slow in jsdom.
const cards = () => [...document.querySelectorAll<HTMLElement>('article.auc-card')];
const cardNames = () => cards().map((a) => a.querySelector('h3')?.textContent);
const queryCard = (name: string) => cards().find((a) => a.querySelector('h3')?.textContent === name) ?? null;
const findCard = (name: string) => waitFor(() => {
  const card = queryCard(name);
  if (!card) throw new Error(`no card ${name}`);
  return card;
});
const location = () => screen.getByTestId('location').textContent;
const loadMore = () => screen.getByRole('button', { name: /Load more|Loading/ });
const tab = (name: RegExp) => screen.getByRole('tab', { name });

/** A `catalogue:card` from the server. */
function sendCard(data: Omit<CardChangedData, 'server_time'>) {
  act(() => lastSocket().send('catalogue:card', { server_time: T0, ...data }));
}
const live = (a: AuctionCard) => {
  const { registered: _mine, ...card } = a;
  return card;
};

describe('Browse, a page at a time', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
  });

  it('shows the first page, with each card’s lots, bids and highest bid, and the tabs’ counts', async () => {
    const fetchMock = serve({ auctions: [makeAuction({ id: 'AUC-9', name: 'Clocks', valid_until: inHours(0.5), highest_bid: 4500, bid_count: 3, product_count: 12 }), ...many, ended] });
    renderPage();
    const card = await findCard('Clocks');
    expect(card.textContent).toContain('12 lots');
    expect(card.textContent).toContain('3 bids');
    expect(card.textContent).toContain('₹4,500');
    expect(cardNames()).toHaveLength(24);
    expect(tab(/Active/).textContent).toContain('31');
    expect(tab(/Ending soon/).textContent).toContain('25');
    expect(tab(/Ended/).textContent).toContain('1');
    expect(screen.getByText('Showing 24 of 31 auctions')).toBeTruthy();
    // One page, never the whole list.
    expect(reads(fetchMock)).toEqual([{ tab: 'active', sort: 'ending', limit: '24' }]);
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auctions')).toBe(false);
  });

  it('Load more appends the next page once each, says when all are shown and keeps the focus on the page', async () => {
    const fetchMock = serve();
    renderPage();
    await findCard('Auction 1');
    loadMore().focus();
    fireEvent.click(loadMore());
    await findCard('Auction 30');
    const names = cardNames();
    expect(names).toHaveLength(30);
    expect(new Set(names).size).toBe(30);
    expect(names.at(-1)).toBe('Auction 30');
    expect(reads(fetchMock).at(-1)).toEqual({ tab: 'active', sort: 'ending', limit: '24', cursor: '24' });
    // The last page: the button gives way to a line that takes its focus.
    const end = screen.getByText('All 30 auctions shown');
    await waitFor(() => expect(document.activeElement).toBe(end));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('a card met again on a later page (it moved under the bid order) is shown once', async () => {
    const first = many.slice(0, 24).map(cardOf);
    serve({}, {
      'GET /api/catalogue/auctions': (_body, url) => {
        const cursor = new URL(url, 'http://x').searchParams.get('cursor');
        const counts = { active: 30, ending: 23, ended: 1 };
        return cursor === null
          ? jsonResponse(200, { items: first, next_cursor: 'c1', counts })
          : jsonResponse(200, { items: [cardOf(many[3]!), ...many.slice(24).map(cardOf)], next_cursor: null, counts });
      },
    });
    renderPage();
    await findCard('Auction 1');
    fireEvent.click(loadMore());
    await findCard('Auction 30');
    expect(cardNames()).toHaveLength(30);
    expect(cardNames().filter((n) => n === 'Auction 4')).toHaveLength(1);
  });

  it('the URL drives the read (tab, search, category, sort, registered) and a reload restores it', async () => {
    const fetchMock = serve();
    const url = '/user/auctions?show=ending&q=auction&category=lamps&sort=bids&registered=1';
    const { unmount } = renderPage(url);
    await screen.findByText('Try another search or clear the filters.');
    expect(reads(fetchMock)[0]).toEqual({ tab: 'ending', q: 'auction', category: 'lamps', sort: 'bids', registered: '1', limit: '24' });
    expect(tab(/Ending soon/).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole<HTMLInputElement>('searchbox').value).toBe('auction');
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sort' }).value).toBe('bids');
    await waitFor(() => expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' }).value).toBe('lamps'));
    expect(screen.getByRole('button', { name: 'Registered only' }).getAttribute('aria-pressed')).toBe('true');

    // A reload of the same URL reads the same.
    unmount();
    fetchMock.mockClear();
    renderPage(url);
    await screen.findByText('Try another search or clear the filters.');
    expect(reads(fetchMock)[0]).toEqual({ tab: 'ending', q: 'auction', category: 'lamps', sort: 'bids', registered: '1', limit: '24' });
  });

  it('filters by a category (its counts listed, subcategories indented) and back returns to all', async () => {
    const fetchMock = serve();
    renderPage();
    await findCard('Auction 1');
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Category' });
    await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['All categories', 'Lighting (15)', '\u2003Lamps (15)']));
    fireEvent.change(select, { value: 'lamps', target: { value: 'lamps' } });
    await waitFor(() => expect(cardNames()[0]).toBe('Auction 2'));
    expect(cardNames()).toHaveLength(15);
    expect(location()).toBe('/user/auctions?category=lamps');
    expect(reads(fetchMock).at(-1)).toEqual({ tab: 'active', sort: 'ending', limit: '24', category: 'lamps' });
    expect(tab(/Active/).textContent).toContain('15');

    act(() => void navigate?.(-1));
    await waitFor(() => expect(cardNames()[0]).toBe('Auction 1'));
    expect(location()).toBe('/user/auctions');
    expect(select.value).toBe('');
  });

  it('typing a search reaches the URL and the server once it rests; the tabs and sort go to the URL too', async () => {
    const fetchMock = serve();
    renderPage();
    await findCard('Auction 1');
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'Auction 3' } });
    await waitFor(() => expect(location()).toBe('/user/auctions?q=Auction+3'));
    await waitFor(() => expect(cardNames()).toEqual(['Auction 3', 'Auction 30']));
    fireEvent.click(tab(/Ended/));
    await waitFor(() => expect(location()).toBe('/user/auctions?q=Auction+3&show=ended'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'newest' } });
    await waitFor(() => expect(location()).toBe('/user/auctions?q=Auction+3&show=ended&sort=newest'));
    expect(reads(fetchMock).at(-1)).toEqual({ tab: 'ended', sort: 'newest', limit: '24', q: 'Auction 3' });
  });

  it('says so when nothing matches, and when nothing is in a tab', async () => {
    serve({ auctions: [] });
    renderPage('/user/auctions?show=ending');
    expect(await screen.findByText('No open auction ends within the next 24 hours.')).toBeTruthy();
    cleanup();
    serve();
    renderPage('/user/auctions?q=nothing-like-this');
    expect(await screen.findByText('Try another search or clear the filters.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('a failed read says so clearly and Retry reads again', async () => {
    let fail = true;
    const routes = catalogueRoutes({ auctions: many });
    serve({}, {
      'GET /api/catalogue/auctions': (body, url) => {
        if (fail) return jsonResponse(503, { error: 'The catalogue is busy', code: 'UNAVAILABLE' });
        return (routes['GET /api/catalogue/auctions'] as (b: unknown, u: string) => Response)(body, url);
      },
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load auctions');
    expect(alert.textContent).toContain('The catalogue is busy');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await findCard('Auction 1')).toBeTruthy();
  });

  it('a visitor sees the cards with no "Registered only"; Register asks them to sign in and come back', async () => {
    useSession.setState({ user: null, userToken: null });
    localStorage.clear();
    const navigate = vi.fn();
    registerNavigate(navigate);
    const fetchMock = serve();
    renderPage('/user/auctions?registered=1');
    const card = await findCard('Auction 1');
    expect(screen.queryByRole('button', { name: 'Registered only' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'View Products' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Register' }));
    expect(navigate).toHaveBeenCalledWith('/user/login', { state: { from: expect.stringMatching(/^\//) as unknown } });
    expect(fetchMock.mock.calls.some(([u]) => u === '/api/auctions/register')).toBe(false);
    // No token, and no registered filter without a bidder.
    const [url, init] = fetchMock.mock.calls.find(([u]) => u.startsWith('/api/catalogue/auctions'))!;
    expect(new URL(url, 'http://x').searchParams.get('registered')).toBeNull();
    expect((init?.headers as Record<string, string>).authorization).toBeUndefined();
  });
});

describe('Browse: live cards', () => {
  beforeEach(() => {
    resetAppState();
    setUpUser();
    useLive.setState({ watch: useLive.getInitialState().watch, unwatch: useLive.getInitialState().unwatch });
    useLive.getState().connect('u-tok');
    act(() => lastSocket().open());
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    tearDownStores();
    resetAppState();
  });

  it('watches the cards on screen, the list replaced as pages load, again after a reconnect, and none once Browse is left', async () => {
    serve();
    const { unmount } = renderPage();
    await findCard('Auction 1');
    await waitFor(() => expect(lastSocket().cardWatch()).toEqual(many.slice(0, 24).map((a) => a.id)));
    fireEvent.click(loadMore());
    await findCard('Auction 30');
    await waitFor(() => expect(lastSocket().cardWatch()).toEqual(many.map((a) => a.id)));

    const sent = lastSocket().emitted.length;
    act(() => reconnect());
    expect(lastSocket().emitted.slice(sent).find((e) => e.event === 'catalogue:watch')?.args[0]).toEqual(many.map((a) => a.id));

    unmount();
    expect(lastSocket().cardWatch()).toEqual([]);
  });

  it('asks for at most 100 cards: the newest loaded', async () => {
    const lots = Array.from({ length: 120 }, (_, i) => makeAuction({ id: `L-${String(i).padStart(3, '0')}`, name: `Lot sale ${i}`, valid_until: inHours(1 + i / 10) }));
    serve({ auctions: lots });
    renderPage();
    await findCard('Lot sale 0');
    for (let page = 1; page < 5; page += 1) {
      fireEvent.click(loadMore());
      await screen.findByRole('article', { name: `Lot sale ${page * 24}` });
    }
    await waitFor(() => expect(lastSocket().cardWatch()).toEqual(lots.slice(20).map((a) => a.id)));
  });

  it('a catalogue:card moves the highest bid and bids on its card; a card gone or over leaves the open tab', async () => {
    serve();
    renderPage();
    const card = await findCard('Auction 2');
    sendCard({ auction_id: 'AUC-02', card: { ...live(cardOf(many[1]!)), highest_bid: 7300, bid_count: 9 } });
    expect(card.textContent).toContain('₹7,300');
    expect(card.textContent).toContain('9 bids');
    // A card this page does not show changes nothing.
    sendCard({ auction_id: 'ELSEWHERE', card: null });
    expect(cardNames()).toHaveLength(24);

    sendCard({ auction_id: 'AUC-03', card: null });
    expect(queryCard('Auction 3')).toBeNull();
    sendCard({ auction_id: 'AUC-04', card: { ...live(cardOf(many[3]!)), status: 'ended' } });
    expect(queryCard('Auction 4')).toBeNull();
    expect(cardNames()).toHaveLength(22);
  });

  it('a live card is not overwritten by a read that was on its way when it came', async () => {
    let release: (() => void) | null = null;
    const routes = catalogueRoutes({ auctions: many });
    const page = routes['GET /api/catalogue/auctions'] as (b: unknown, u: string) => Response;
    serve({}, {
      'GET /api/catalogue/auctions': (body, url) => (new URL(url, 'http://x').searchParams.get('cursor') === null
        ? page(body, url)
        : new Promise<Response>((resolve) => { release = () => resolve(page(body, url)); })),
    });
    renderPage();
    await findCard('Auction 2');
    fireEvent.click(loadMore());
    await waitFor(() => expect(release).not.toBeNull());
    // The next page is on its way (with the first page as it was) when the bid's card arrives.
    sendCard({ auction_id: 'AUC-02', card: { ...live(cardOf(many[1]!)), highest_bid: 8800, bid_count: 5 } });
    act(() => release?.());
    await findCard('Auction 30');
    expect(queryCard('Auction 2')!.textContent).toContain('₹8,800');
    const data = queryClient.getQueryData<{ pages: { items: AuctionCard[] }[] }>(browseKey({ tab: 'active', q: '', category: '', sort: 'ending', registered: false }));
    expect(data?.pages[0]?.items[1]?.highest_bid).toBe(8800);
  });

  it('a deep link opens an auction no loaded page holds, read by its id', async () => {
    const far = makeAuction({ id: 'FAR-1', name: 'Far Away', valid_until: inHours(500), product_ids: ['F-1'] });
    const telescope = makeProduct({
      id: 'F-1', name: 'Brass Telescope', auction_id: 'FAR-1', lot_number: 12, category: { id: 2, name: 'Lamps', slug: 'lamps' },
    });
    const fetchMock = serve({ auctions: [...many, far], products: { 'FAR-1': [telescope] } });
    renderPage('/user/auctions?auction=FAR-1&lot=F-1');
    const panel = await screen.findByRole('region', { name: 'Far Away' });
    const row = await within(panel).findByRole('listitem', { name: 'Brass Telescope' });
    expect(row.textContent).toContain('Lot 12');
    expect(row.textContent).toContain('Lamps');
    expect(queryCard('Far Away')).toBeNull();
    await waitFor(() => expect(location()).toBe('/user/auctions'));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/auctions')).toBe(false);
  });
});
