import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { wireBidStatus, type BidStatus } from '@auction/shared';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, sampleUser, setServerNow } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { AUCTIONS_REFRESH_MS, AUCTIONS_REREAD_MS } from '../hooks/use-dashboard-data';
import { UserDashboardPage } from './UserDashboardPage';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const NOW = Date.parse('2026-05-01T12:00:00Z');
const HOUR = 3600_000;
const iso = (offset: number) => new Date(NOW + offset).toISOString();

const RULES = { increment_rule: 'flat' as const, increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end' as const, soft_close_s: 120, max_extension_s: 1800, extended: false };
/** A card of `GET /catalogue/auctions`. */
const card = (id: string, endsIn: number, registered = false) => ({
  id, name: `Auction ${id}`, valid_until: iso(endsIn), status: endsIn > 0 ? 'active' : 'ended', product_count: 1, bid_count: 0, highest_bid: 0, cover: null, registered,
});
/** The dashboard's page of the catalogue: the newest open auctions, and the counts per tab. */
const page = (items: ReturnType<typeof card>[], counts = { active: items.length, ending: 0, ended: 0 }) => ({ items, next_cursor: null, counts });
const registeredIds = (...ids: string[]) => ({ user_details: { id: 7, name: 'Asha Rao', username: 'asha', mobile_number: '9876543210', auctions: ids } });
const tx = (id: string, type: 'topup' | 'bid' | 'refund', amount: number, product_id: string | null = null) => ({
  _id: id, type, amount, timestamp: iso(-HOUR), meta: { notes: null, product_id, product_name: product_id === 'P-1' ? 'Lamp' : null },
});
/** A bid as `GET /user-bids` lists it: its full `state`, the spec's `status` beside it, and its auction. */
const bid = (bid_id: number, state: BidStatus, over: Record<string, unknown> = {}) => ({
  bid_id, product_id: 'P-1', product_name: 'Lamp', auction_id: 'A1', auction_name: 'Auction A1', amount: 100, timestamp: iso(-HOUR),
  status: wireBidStatus(state), state, reason: null, max_amount: null, buy_now: false,
  auction_valid_until: iso(2 * HOUR), auction_status: 'active', auction_cancel_policy: 'until_end', ...over,
});

// The server's newest five open auctions (one has ended since the page was read) and its counts.
const AUCTIONS = page([
  card('A1', 2 * HOUR, true),
  card('A2', 3 * 24 * HOUR),
  card('A3', -HOUR, true),
  card('A4', 20 * HOUR),
  card('A5', 10 * 24 * HOUR),
], { active: 5, ending: 3, ended: 1 });
const CATALOGUE = '/api/catalogue/auctions?sort=newest&limit=5';
/** The path of a URL asked for (the ledger's query is the wallet's own business). */
const pathOf = (url: string) => url.split('?')[0]!;
const TRANSACTIONS = [
  tx('t7', 'bid', 700, 'P-1'),
  tx('t6', 'refund', 500, 'P-1'),
  tx('t5', 'bid', 500, 'P-1'),
  tx('t4', 'topup', 1000),
  tx('t3', 'bid', 300, 'P-2'),
  tx('t2', 'topup', 2000),
];
const BIDS = [bid(4, 'success'), bid(3, 'outbid'), bid(2, 'failed'), bid(1, 'success')];

type Answer = Response | Error;
function stubApi(overrides: Partial<Record<'auctions' | 'registered' | 'bids' | 'transactions' | 'balance', Answer>> = {}) {
  const answers: Record<string, () => Answer> = {
    [pathOf(CATALOGUE)]: () => overrides.auctions ?? jsonResponse(200, AUCTIONS),
    '/api/my_auctions': () => overrides.registered ?? jsonResponse(200, registeredIds('A1', 'A3', 'A6')),
    '/api/user-bids': () => overrides.bids ?? jsonResponse(200, BIDS),
    '/api/wallet/transactions': () => overrides.transactions ?? jsonResponse(200, { transactions: TRANSACTIONS }),
    '/api/wallet': () => overrides.balance ?? jsonResponse(200, { wallet_balance: 1500, on_hold: 200 }),
  };
  const fn = vi.fn(async (url: string, _init?: RequestInit) => {
    // The dashboard's page of the catalogue is always this one: five, newest first.
    if (pathOf(url) === pathOf(CATALOGUE) && url !== CATALOGUE) throw new Error(`unexpected call ${url}`);
    const answer = answers[pathOf(url)]?.();
    if (!answer) throw new Error(`unexpected call ${url}`);
    if (answer instanceof Error) throw answer;
    return answer.clone();
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{pathname}{search}</div>;
}

function renderDashboard() {
  return render(
    <MemoryRouter initialEntries={['/user/dashboard']}>
      <Routes>
        <Route path="/user/dashboard" element={<UserDashboardPage />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>
      <Where />
      <Toaster />
    </MemoryRouter>,
  );
}

const statValue = (label: string) => screen.getByText(label, { selector: '.stat-label' }).parentElement?.querySelector('.stat-value')?.textContent;
const balance = () => screen.getByTestId('dashboard-balance').textContent;
const waitLoaded = () => waitFor(() => expect(screen.queryByLabelText('Loading')).toBeNull());

describe('UserDashboardPage', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
    localStorage.setItem('token', 'u-tok');
    setServerNow(NOW);
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  it('welcomes the user with the wallet balance and computes the five stat cards', async () => {
    const fetchMock = stubApi();
    renderDashboard();
    expect(screen.getByRole('heading', { name: 'Welcome, Asha Rao' })).toBeTruthy();
    expect(balance()).toBe('—');
    await waitLoaded();

    expect(balance()).toBe('₹1,500');
    // The catalogue's own counts, not the cards shown.
    expect(statValue('Active Auctions')).toBe('5');
    expect(statValue('Ending Soon')).toBe('3');
    // The bids that did not fail; two of them lead, and the failed one is named as left out.
    expect(statValue('My Bids')).toBe('3');
    expect(screen.getByText('My Bids', { selector: '.stat-label' }).parentElement?.querySelector('.stat-hint')?.textContent).toBe('2 active · 1 failed not counted');
    // Holds are not spent: these rows (holds and releases) paid for nothing.
    expect(statValue('Total Spent')).toBe('₹0');
    expect(statValue('Registered Auctions')).toBe('3');

    // One small page of the catalogue and the caller's registrations: never the whole auction list.
    const urls = fetchMock.mock.calls.map((c) => pathOf(c[0]));
    expect(urls.sort()).toEqual([pathOf(CATALOGUE), '/api/my_auctions', '/api/user-bids', '/api/wallet', '/api/wallet/transactions']);
    const init = fetchMock.mock.calls.find((c) => pathOf(c[0]) === '/api/wallet')?.[1];
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer u-tok');
    expect(screen.queryAllByRole('status').filter((el) => el.className.includes('toast'))).toHaveLength(0);
  });

  it('lists the newest five auctions as the server orders them, with name, id, end date, badge and the Registered tag', async () => {
    stubApi();
    renderDashboard();
    await waitLoaded();
    const panel = screen.getByRole('region', { name: 'Recent Auctions' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.dash-row-title')?.textContent)).toEqual(['Auction A1', 'Auction A2', 'Auction A3', 'Auction A4', 'Auction A5']);
    expect(rows[0]?.textContent).toContain('A1');
    expect(rows[0]?.textContent).toMatch(/2026/);
    expect(within(rows[0]!).getByText('Active')).toBeTruthy();
    expect(within(rows[0]!).getByText('Registered')).toBeTruthy();
    expect(within(rows[1]!).queryByText('Registered')).toBeNull();
    // Ended since the page was read: the clock says so.
    expect(within(rows[2]!).getByText('Ended', { selector: '.badge' })).toBeTruthy();
  });

  it('Total Spent covers the whole ledger (the server’s totals), not only the newest rows it lists', async () => {
    stubApi({ transactions: jsonResponse(200, { transactions: TRANSACTIONS.slice(0, 2), next_before: 't7', totals: { topup: 3000, bid: 12_500.5, refund: 2500.25, count: 90, spent: 10_000.25 } }) });
    renderDashboard();
    await waitLoaded();
    expect(statValue('Total Spent')).toBe('₹10,000.25');
  });

  it('lists the first five transactions signed and coloured', async () => {
    stubApi();
    renderDashboard();
    await waitLoaded();
    const panel = screen.getByRole('region', { name: 'Recent Transactions' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    const amount = (i: number) => rows[i]!.querySelector('.dash-amount')!;
    expect(amount(0).textContent).toBe('-₹700');
    expect(amount(0).className).toContain('amount-minus');
    expect(amount(1).textContent).toBe('+₹500');
    expect(amount(1).className).toContain('amount-plus');
    expect(amount(3).textContent).toBe('+₹1,000');
    expect(amount(3).className).toContain('amount-plus');
    expect(rows[0]?.textContent).toContain('Bid placed · Lamp (P-1)');
    expect(rows[4]?.textContent).toContain('Bid placed · P-2');
    expect(within(panel).queryByText('+₹2,000')).toBeNull();
  });

  it('goes to the registered auctions, all auctions and the wallet', async () => {
    stubApi();
    renderDashboard();
    await waitLoaded();
    fireEvent.click(screen.getByRole('button', { name: 'My Registered Auctions' }));
    expect(screen.getByTestId('where').textContent).toBe('/user/auctions?registered=1');
    cleanup();

    renderDashboard();
    await waitLoaded();
    fireEvent.click(within(screen.getByRole('region', { name: 'Recent Auctions' })).getByRole('button', { name: 'View All' }));
    expect(screen.getByTestId('where').textContent).toBe('/user/auctions');
    cleanup();

    renderDashboard();
    await waitLoaded();
    fireEvent.click(within(screen.getByRole('region', { name: 'Recent Transactions' })).getByRole('button', { name: 'View All' }));
    expect(screen.getByTestId('where').textContent).toBe('/user/wallet');
  });

  it('empties the auction list silently when only the auction load fails', async () => {
    stubApi({ auctions: jsonResponse(500, { error: 'boom', message: 'boom', code: 'INTERNAL' }) });
    renderDashboard();
    await waitLoaded();
    expect(within(screen.getByRole('region', { name: 'Recent Auctions' })).getByText('No auctions yet')).toBeTruthy();
    expect(statValue('Active Auctions')).toBe('0');
    expect(statValue('My Bids')).toBe('3');
    expect(balance()).toBe('₹1,500');
    expect(screen.queryByText('Failed to load dashboard stats.')).toBeNull();
  });

  it('falls back to the ledger for the balance when the balance call fails', async () => {
    stubApi({ balance: new TypeError('Failed to fetch') });
    renderDashboard();
    await waitLoaded();
    // 2000 + 1000 + 500 − 300 − 500 − 700
    expect(balance()).toBe('₹2,000');
  });

  it('shows a dash and one error toast when everything fails', async () => {
    const down = new TypeError('Failed to fetch');
    stubApi({ auctions: down, registered: down, bids: down, transactions: down, balance: down });
    renderDashboard();
    expect(await screen.findByText('Failed to load dashboard stats.')).toBeTruthy();
    expect(balance()).toBe('—');
    expect(statValue('My Bids')).toBe('0');
    expect(statValue('Total Spent')).toBe('₹0');
    expect(screen.getByText('No transactions yet')).toBeTruthy();
  });

  it('updates the balance from wallet:updated without a reload', async () => {
    const fetchMock = stubApi();
    renderDashboard();
    await waitLoaded();
    act(() => injectLiveEvent({ event: 'wallet:updated', data: { wallet_balance: 6500, server_time: iso(0) } }));
    expect(balance()).toBe('₹6,500');
    // The ledger and bids follow with one quiet refetch.
    await waitFor(() => expect(fetchMock.mock.calls.filter((c) => pathOf(c[0]) === '/api/wallet/transactions')).toHaveLength(2));
    expect(fetchMock.mock.calls.filter((c) => pathOf(c[0]) === '/api/user-bids')).toHaveLength(2);
  });

  it('reads the page of auctions again once after a burst of catalogue events (created, updated, deleted)', async () => {
    const server: Parameters<typeof stubApi>[0] = { auctions: jsonResponse(200, page([card('A1', 2 * HOUR, true)])) };
    const fetchMock = stubApi(server);
    renderDashboard();
    await waitLoaded();
    const panel = screen.getByRole('region', { name: 'Recent Auctions' });
    server.auctions = jsonResponse(200, page([card('NEW', 48 * HOUR), { ...card('A1', 2 * HOUR, true), name: 'Renamed' }]));
    const base = { product_count: 1, status: 'active' as const, server_time: iso(0), ...RULES };
    act(() => {
      injectLiveEvent({ event: 'auction:created', data: { ...base, id: 'NEW', name: 'Fresh lots', valid_until: iso(48 * HOUR), original_valid_until: iso(48 * HOUR) } });
      injectLiveEvent({ event: 'auction:updated', data: { ...base, id: 'A1', name: 'Renamed', valid_until: iso(2 * HOUR), original_valid_until: iso(2 * HOUR) } });
    });
    await waitFor(() => expect(within(panel).getByText('Renamed')).toBeTruthy(), { timeout: 3 * AUCTIONS_REREAD_MS });
    expect(within(panel).getByText('Auction NEW')).toBeTruthy();
    expect(statValue('Active Auctions')).toBe('2');
    expect(fetchMock.mock.calls.filter((c) => c[0] === CATALOGUE)).toHaveLength(2);

    server.auctions = jsonResponse(200, page([{ ...card('A1', 2 * HOUR, true), name: 'Renamed' }]));
    act(() => injectLiveEvent({ event: 'auction:deleted', data: { id: 'NEW', server_time: iso(0) } }));
    await waitFor(() => expect(within(panel).queryByText('Auction NEW')).toBeNull(), { timeout: 3 * AUCTIONS_REREAD_MS });
    expect(statValue('Active Auctions')).toBe('1');
    expect(fetchMock.mock.calls.some((c) => pathOf(c[0]) === '/api/auctions')).toBe(false);
  });

  it('reads the counts again when soft close moves an auction’s end (Ending Soon may change)', async () => {
    const server: Parameters<typeof stubApi>[0] = { auctions: jsonResponse(200, page([card('A1', 20 * HOUR, true), card('A2', 23 * HOUR)], { active: 2, ending: 2, ended: 0 })) };
    stubApi(server);
    renderDashboard();
    await waitLoaded();
    expect(statValue('Ending Soon')).toBe('2');
    server.auctions = jsonResponse(200, page([card('A1', 20 * HOUR, true), card('A2', 25 * HOUR)], { active: 2, ending: 1, ended: 0 }));
    const moved = { ...card('A2', 25 * HOUR), ...RULES, status: 'active' as const, original_valid_until: iso(23 * HOUR), extended: true, server_time: iso(0) };
    act(() => injectLiveEvent({ event: 'auction:extended', data: { ...moved, auction_id: 'A2' } }));
    await waitFor(() => expect(statValue('Ending Soon')).toBe('1'), { timeout: 3 * AUCTIONS_REREAD_MS });
    expect(statValue('Registered Auctions')).toBe('3');
  });

  it('reads the counts again every minute while shown (an auction ending, or entering its last 24 hours, sends no event to every socket)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const server: Parameters<typeof stubApi>[0] = { auctions: jsonResponse(200, page([card('A1', 20 * HOUR)], { active: 1, ending: 1, ended: 0 })) };
      const fetchMock = stubApi(server);
      renderDashboard();
      await waitLoaded();
      server.auctions = jsonResponse(200, page([], { active: 0, ending: 0, ended: 1 }));
      act(() => { vi.advanceTimersByTime(AUCTIONS_REFRESH_MS); });
      await waitFor(() => expect(statValue('Active Auctions')).toBe('0'));
      expect(statValue('Ending Soon')).toBe('0');
      expect(fetchMock.mock.calls.filter((c) => c[0] === CATALOGUE)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the full state of each bid: an outbid bid (status failed) is not counted as failed, a won one (status success) is not active', async () => {
    stubApi({ bids: jsonResponse(200, [bid(3, 'outbid'), bid(2, 'won'), bid(1, 'success')]) });
    renderDashboard();
    await waitLoaded();
    expect(statValue('My Bids')).toBe('3');
    expect(screen.getByText('My Bids', { selector: '.stat-label' }).parentElement?.querySelector('.stat-hint')?.textContent).toBe('1 active');
  });

  describe('the Won section', () => {
    const wonPanel = () => screen.getByRole('region', { name: 'Won' });

    it('lists the won lots with product, auction, amount and the Bought now mark, and nothing else', async () => {
      stubApi({
        bids: jsonResponse(200, [
          bid(9, 'won', { product_name: 'Silk Rug', auction_name: 'Winter Sale', amount: 9000, buy_now: true }),
          bid(8, 'success', { product_name: 'Oak Desk' }),
          bid(7, 'won', { product_name: 'Wall Clock', auction_name: 'Spring Sale', amount: 1200.5 }),
          bid(6, 'unsold', { product_name: 'Old Map', reason: 'RESERVE_NOT_MET' }),
          bid(5, 'failed', { product_name: 'Tin Toy' }),
        ]),
      });
      renderDashboard();
      await waitLoaded();
      const cards = within(wonPanel()).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      expect(within(cards[0]!).getByText('Silk Rug')).toBeTruthy();
      expect(within(cards[0]!).getByText('Winter Sale')).toBeTruthy();
      expect(within(cards[0]!).getByText('₹9,000')).toBeTruthy();
      expect(within(cards[0]!).getByText('Bought now')).toBeTruthy();
      expect(within(cards[1]!).getByText('Wall Clock')).toBeTruthy();
      expect(within(cards[1]!).getByText('Spring Sale')).toBeTruthy();
      expect(within(cards[1]!).getByText('₹1,200.50')).toBeTruthy();
      expect(within(cards[1]!).queryByText('Bought now')).toBeNull();
      expect(within(wonPanel()).getByText('2 lots')).toBeTruthy();
      expect(within(wonPanel()).queryByText('Nothing won yet')).toBeNull();
      // The unsold lot did not fail: My Bids counts it (it counts the bids that did not fail: docs/money.md#the-numbers-the-screens-show).
      expect(statValue('My Bids')).toBe('4');

      fireEvent.click(within(wonPanel()).getByRole('button', { name: 'View All' }));
      expect(screen.getByTestId('where').textContent).toBe('/user/bids');
    });

    it('says Nothing won yet when nothing was won, and adds the lot when bid:won arrives', async () => {
      stubApi({ bids: jsonResponse(200, [bid(2, 'success', { product_name: 'Brass Lamp', auction_id: 'A1', amount: 2500 }), bid(1, 'outbid')]) });
      renderDashboard();
      await waitLoaded();
      expect(within(wonPanel()).getByText('Nothing won yet')).toBeTruthy();
      expect(within(wonPanel()).queryAllByRole('listitem')).toHaveLength(0);

      act(() => injectLiveEvent({ event: 'bid:won', data: { server_time: iso(0), auction_id: 'A1', product_id: 'P-1', amount: 2500 } }));
      const card = within(wonPanel()).getByRole('listitem');
      expect(within(card).getByText('Brass Lamp')).toBeTruthy();
      expect(within(card).getByText('₹2,500')).toBeTruthy();
      expect(within(wonPanel()).queryByText('Nothing won yet')).toBeNull();
    });

    it('lists the newest six and counts them all', async () => {
      stubApi({ bids: jsonResponse(200, Array.from({ length: 8 }, (_, i) => bid(20 - i, 'won', { product_name: `Lot ${i + 1}` }))) });
      renderDashboard();
      await waitLoaded();
      const cards = within(wonPanel()).getAllByRole('listitem');
      expect(cards.map((c) => c.querySelector('.dash-won-title')!.textContent)).toEqual(['Lot 1', 'Lot 2', 'Lot 3', 'Lot 4', 'Lot 5', 'Lot 6']);
      expect(within(wonPanel()).getByText('8 lots')).toBeTruthy();
    });
  });

  it('stays quiet when a 401 ends the session', async () => {
    const gone = () => jsonResponse(401, { error: 'Please sign in', message: 'Please sign in', code: 'UNAUTHENTICATED' });
    stubApi({ auctions: gone(), registered: gone(), bids: gone(), transactions: gone(), balance: gone() });
    renderDashboard();
    await waitFor(() => expect(localStorage.getItem('token')).toBeNull());
    await waitLoaded();
    expect(screen.queryByText('Failed to load dashboard stats.')).toBeNull();
  });

  describe('after a reconnect', () => {
    const callsTo = (fetchMock: ReturnType<typeof stubApi>, url: string) => fetchMock.mock.calls.filter((c) => pathOf(c[0]) === pathOf(url));

    async function shownThenConnected(server: Parameters<typeof stubApi>[0] = {}) {
      const fetchMock = stubApi(server);
      renderDashboard();
      await waitLoaded();
      useLive.getState().connect('u-tok');
      act(() => lastSocket().open());
      return fetchMock;
    }

    it('reads balance, auctions, registrations, bids and ledger again and shows them; the first connect reads nothing', async () => {
      // stubApi answers from this object at each call: what the server has now.
      const server: Parameters<typeof stubApi>[0] = {};
      const fetchMock = await shownThenConnected(server);
      await new Promise((r) => setTimeout(r, 10));
      expect(fetchMock).toHaveBeenCalledTimes(5);

      server.balance = jsonResponse(200, { wallet_balance: 2500 });
      server.auctions = jsonResponse(200, { ...AUCTIONS, counts: { active: 6, ending: 3, ended: 1 } });
      server.registered = jsonResponse(200, registeredIds('A1', 'A3', 'A6', 'A7'));
      server.bids = jsonResponse(200, [bid(5, 'success'), ...BIDS]);
      server.transactions = jsonResponse(200, { transactions: [tx('t8', 'refund', 700, 'P-1'), ...TRANSACTIONS] });
      act(() => reconnect());
      await waitFor(() => expect(balance()).toBe('₹2,500'));
      await waitFor(() => expect(statValue('Active Auctions')).toBe('6'));
      await waitFor(() => expect(statValue('Registered Auctions')).toBe('4'));
      await waitFor(() => expect(statValue('My Bids')).toBe('4'));
      for (const url of [CATALOGUE, '/api/my_auctions', '/api/user-bids', '/api/wallet', '/api/wallet/transactions']) expect(callsTo(fetchMock, url)).toHaveLength(2);
    });

    it('keeps a wallet:updated balance that arrives while the re-read is on its way', async () => {
      const fetchMock = await shownThenConnected();
      const answer = fetchMock.getMockImplementation()!;
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      fetchMock.mockImplementation(async (url, init) => {
        if (url === '/api/wallet') await gate;
        return url === '/api/wallet' ? jsonResponse(200, { wallet_balance: 2500 }) : answer(url, init);
      });
      act(() => reconnect());
      await waitFor(() => expect(callsTo(fetchMock, '/api/wallet')).toHaveLength(2));
      act(() => injectLiveEvent({ event: 'wallet:updated', data: { wallet_balance: 3100, server_time: iso(0) } }));
      release();
      await new Promise((r) => setTimeout(r, 10));
      expect(balance()).toBe('₹3,100');
    });

    it('reads the auctions once more when one is created while the re-read is on its way (that reply may predate it)', async () => {
      const server: Parameters<typeof stubApi>[0] = { auctions: jsonResponse(200, page([card('A1', 2 * HOUR, true)])) };
      const fetchMock = await shownThenConnected(server);
      const answer = fetchMock.getMockImplementation()!;
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      fetchMock.mockImplementation(async (url, init) => {
        if (url === CATALOGUE && callsTo(fetchMock, CATALOGUE).length === 2) await gate;
        return answer(url, init);
      });
      act(() => reconnect());
      await waitFor(() => expect(callsTo(fetchMock, CATALOGUE)).toHaveLength(2));
      server.auctions = jsonResponse(200, page([card('NEW', 48 * HOUR), card('A1', 2 * HOUR, true)]));
      const base = { product_count: 1, status: 'active' as const, server_time: iso(0), ...RULES };
      act(() => injectLiveEvent({ event: 'auction:created', data: { ...base, id: 'NEW', name: 'Auction NEW', valid_until: iso(48 * HOUR), original_valid_until: iso(48 * HOUR) } }));
      act(() => release());
      await waitFor(() => expect(within(screen.getByRole('region', { name: 'Recent Auctions' })).getByText('Auction NEW')).toBeTruthy(), { timeout: 3 * AUCTIONS_REREAD_MS });
      expect(statValue('Active Auctions')).toBe('2');
    });
  });
});
