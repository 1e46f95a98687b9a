/**
 * In a real Chromium against the production server: route protection, logging in through the form,
 * the user dashboard with seeded numbers and live updates, the 401 path and logout.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, dismissToasts, loginViaUi, pathOf, shot, storedSession, toastWith, unique, useE2E, waitForPath } from './browser.js';

const HOUR = 3600_000;
const e2e = useE2E();

const statValue = (label: string) =>
  e2e.page.locator('.stat-card').filter({ has: e2e.page.getByText(label, { exact: true }) }).locator('.stat-value');
/** Waits until the stat reads exactly `value` (each stat shows once its own read has answered). */
const statReads = (label: string, value: string) =>
  statValue(label).filter({ hasText: new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).waitFor();

describe('protection', () => {
  it('sends a visitor without a session from /user/dashboard to /user/login', async () => {
    const { page } = e2e;
    await page.goto('/user/dashboard');
    await waitForPath(page, '/user/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
  });

  it('sends a visitor without an admin session from /admin/dashboard to /admin/login', async () => {
    const { page } = e2e;
    await page.goto('/admin/dashboard');
    await waitForPath(page, '/admin/login');
  });

  it('sends an unknown path to the landing page', async () => {
    const { page } = e2e;
    await page.goto('/no/such/page');
    await waitForPath(page, '/');
    await page.getByText('Professional auction platform for seamless bidding and comprehensive administrative control.').waitFor();
  });

  it('shows the landing and login pages at desktop and phone widths', async () => {
    const { page } = e2e;
    await page.goto('/');
    await page.getByRole('link', { name: 'Login as User' }).first().waitFor();
    await shot(page, 'landing');
    await page.goto('/user/login');
    await page.getByLabel('Username').waitFor();
    await shot(page, 'login');
  });
});

describe('user dashboard', () => {
  let bidder: Account;
  let productA: string;

  // One admin, two auctions (one ending within 24 h), a bidder with ₹2,000 who leads one product
  // with ₹500 and whose too-low second bid failed.
  beforeAll(async () => {
    const { seed } = e2e;
    const admin = await seed.admin();
    productA = unique('cam');
    const soon = await seed.auction(admin, { id: unique('soon'), name: 'Camera Classics', endsInMs: 2 * HOUR, products: [{ id: productA, name: 'Leica M3' }] });
    await seed.auction(admin, { id: unique('later'), name: 'Vintage Watches', endsInMs: 3 * 24 * HOUR, products: [{ id: unique('watch'), name: 'Omega Seamaster' }] });
    bidder = await seed.user({ name: 'Meera Iyer' });
    await seed.topUp(bidder, 2000);
    await seed.register(bidder, soon.id);
    await seed.bid(bidder, productA, 500);
    await expect(seed.bid(bidder, productA, 400)).rejects.toMatchObject({ status: 409 });
  });

  it('logs in through the form and shows the welcome with the real numbers', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'user', bidder.username, bidder.password);
    await toastWith(page, 'Login successful!').waitFor();
    await page.getByRole('heading', { name: 'Welcome, Meera Iyer' }).waitFor();

    const balance = page.getByTestId('dashboard-balance');
    await balance.filter({ hasText: '₹1,500' }).waitFor();
    await statReads('Active Auctions', '2');
    await statReads('Ending Soon', '1');
    // The bids that did not fail; the refused one is named as left out (My Bids' Total Bids counts it).
    await statReads('My Bids', '1');
    expect(await e2e.page.locator('.stat-card').filter({ has: e2e.page.getByText('My Bids', { exact: true }) }).locator('.stat-hint').textContent()).toBe('1 active · 1 failed not counted');
    // A leading bid's hold is not spending (docs/money.md#ledger-kinds).
    await statReads('Total Spent', '₹0');
    await statReads('Registered Auctions', '1');

    const auctions = page.getByRole('region', { name: 'Recent Auctions' });
    await auctions.getByText('Camera Classics').waitFor();
    await auctions.getByText('Vintage Watches').waitFor();
    const transactions = page.getByRole('region', { name: 'Recent Transactions' });
    await transactions.getByText('-₹500').waitFor();
    await transactions.getByText('+₹2,000').waitFor();
    await dismissToasts(e2e.page);
    await shot(page, 'dashboard');
  });

  it('shows a new user a zero balance and an empty transaction list', async () => {
    const { page, seed } = e2e;
    const newcomer = await seed.user({ name: 'Nisha Verma' });
    await loginViaUi(page, 'user', newcomer.username, newcomer.password);
    await page.getByTestId('dashboard-balance').filter({ hasText: '₹0' }).waitFor();
    await page.getByRole('region', { name: 'Recent Transactions' }).getByText('No transactions yet').waitFor();
    await statReads('My Bids', '0');
    await statReads('Registered Auctions', '0');
    await dismissToasts(e2e.page);
    await shot(page, 'dashboard-new-user');
  });

  it('goes to the registered auctions and the View All pages', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'user', bidder.username, bidder.password);
    await page.getByRole('button', { name: 'My Registered Auctions' }).click();
    await page.waitForURL((url) => url.pathname === '/user/auctions');
    expect(pathOf(page)).toBe('/user/auctions?registered=1');

    await page.goto('/user/dashboard');
    await page.getByRole('region', { name: 'Recent Transactions' }).getByRole('button', { name: 'View All' }).click();
    await waitForPath(page, '/user/wallet');
    await page.goto('/user/dashboard');
    await page.getByRole('region', { name: 'Recent Auctions' }).getByRole('button', { name: 'View All' }).click();
    await waitForPath(page, '/user/auctions');
  });

  it('follows live events: outbid toast and the balance without a reload', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const product = unique('vase');
    const auction = await seed.auction(admin, { id: unique('live'), name: 'Live Lots', endsInMs: 5 * HOUR, products: [{ id: product, name: 'Ming Vase' }] });
    const me = await seed.user({ name: 'Kiran Das' });
    const rival = await seed.user({ name: 'Rival Bidder' });
    for (const u of [me, rival]) {
      await seed.topUp(u, 3000);
      await seed.register(u, auction.id);
    }
    await seed.bid(me, product, 1000);

    await loginViaUi(page, 'user', me.username, me.password);
    const balance = page.getByTestId('dashboard-balance');
    await balance.filter({ hasText: '₹2,000' }).waitFor();
    // The live socket joins its user room on connect; give it a moment to be up before the rival bids.
    await page.waitForTimeout(1000);

    await seed.bid(rival, product, 1200);
    await toastWith(page, 'You were outbid on Ming Vase: highest bid is now ₹1,200').waitFor();
    await balance.filter({ hasText: '₹3,000' }).waitFor();
    await statValue('Total Spent').filter({ hasText: '₹0' }).waitFor();
    expect(pathOf(page)).toBe('/user/dashboard');
  });

  it('ends the session on a 401: the four keys are cleared and the browser lands on /', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'user', bidder.username, bidder.password);
    await page.getByTestId('dashboard-balance').filter({ hasText: '₹1,500' }).waitFor();
    await page.evaluate(() => {
      localStorage.setItem('token', 'corrupt.token.value');
      localStorage.setItem('admin_token', 'stale-admin-token');
      localStorage.setItem('admin', JSON.stringify({ id: 1, username: 'ravi', name: 'Ravi', mobile_number: '9123456780', is_owner: false }));
    });
    await page.reload();
    await waitForPath(page, '/');
    expect(await storedSession(page)).toEqual({ token: null, admin_token: null, user: null, admin: null });
    expect(await page.getByText('Failed to load dashboard stats.').count()).toBe(0);

    // The session is really gone: the dashboard asks for a login again.
    await page.goto('/user/dashboard');
    await waitForPath(page, '/user/login');
  });

  it('a user session does not open admin pages', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'user', bidder.username, bidder.password);
    await page.goto('/admin/dashboard');
    await waitForPath(page, '/admin/login');
  });

  it('logs out: the keys are cleared, the browser is on / and the dashboard needs a login again', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'user', bidder.username, bidder.password);
    expect((await storedSession(page)).token).toBeTruthy();
    await page.getByRole('button', { name: 'Logout' }).click();
    await waitForPath(page, '/');
    expect(await storedSession(page)).toEqual({ token: null, admin_token: null, user: null, admin: null });
    await page.goto('/user/dashboard');
    await waitForPath(page, '/user/login');
  });
});
