/**
 * The admin journey in a real Chromium (the admin screens, their confirmations and toasts):
 * register and log in as an admin through the UI, add two products and create an auction from the
 * dashboard's modals, watch a bidder's bid (placed through the API) arrive live on the detail page with
 * the bidder's username, end the auction early after the confirmation, and see the row as Settled. A second
 * admin sees the same detail page read-only with the bidder masked.
 * Every page and dialog on the way is screenshotted at 1280 and 375 px and checked with axe-core (`shot`).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, newContext, pathOf, shot, step, toastWith, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();


const dialog = (page: Page) => page.getByRole('dialog');

async function openFromSidebar(page: Page, label: string, pathname: string) {
  const nav = page.getByRole('navigation', { name: 'Admin Portal' });
  if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('link', { name: label }).click();
  await waitForPath(page, pathname);
}

/** Adds a product through the dashboard's Add Product dialog; with `shotName`, the filled-in dialog is screenshotted (and checked). */
async function addProduct(page: Page, id: string, name: string, description: string, shotName?: string) {
  await dismissToasts(page).catch(() => undefined);
  await page.getByRole('button', { name: 'Add Product' }).click();
  const modal = dialog(page);
  await modal.getByLabel('Product ID').fill(id);
  await modal.getByLabel('Name', { exact: true }).fill(name);
  await modal.getByLabel('Description').fill(description);
  if (shotName) await shot(page, shotName);
  await modal.getByRole('button', { name: 'Add Product' }).click();
  await toastWith(page, 'Product created').waitFor();
  // The product exists now: the dialog offers its photos, then Done closes it.
  const photos = page.getByRole('dialog', { name: 'Add Photos' });
  await photos.getByRole('button', { name: 'Choose photos' }).waitFor();
  if (shotName) await shot(page, `${shotName}-photos`);
  await photos.getByRole('button', { name: 'Done', exact: true }).click();
  await photos.waitFor({ state: 'detached' });
}

describe('admin journey', () => {
  it('registers, adds products, creates an auction, sees a bid live with the username, settles it; another admin sees it masked', async () => {
    const { page, seed } = e2e;
    const username = unique('adminj');
    const password = 'secret123';
    const auctionId = unique('estate');
    const auctionName = 'Estate Silverware';
    const teapot = { id: unique('teapot'), name: 'Georgian Teapot' };
    const candles = { id: unique('candle'), name: 'Pair of Candlesticks' };

    await step('register through /admin/register', async () => {
      await page.goto('/');
      await page.getByRole('link', { name: 'Register as Admin' }).first().click();
      await waitForPath(page, '/admin/register');
      await page.getByLabel('Full Name').waitFor();
      await shot(page, 'admin-register');
      await page.getByLabel('Full Name').fill('Meera Iyer');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Mobile Number').fill('9876512345');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await toastWith(page, 'Admin registration successful! You are signed in.').waitFor();
      await waitForPath(page, '/admin/dashboard');
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Logout' }).click();
      await waitForPath(page, '/');
      await page.goto('/admin/login');
      await page.getByLabel('Username').waitFor();
    });

    await step('log in through /admin/login (a wrong password first: refused under the form)', async () => {
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.locator('form').getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
      await shot(page, 'admin-login-refused');
      await page.getByLabel('Password').fill(password);
      expect(await page.locator('form').getByRole('alert').count()).toBe(0);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await toastWith(page, 'Admin login successful!').waitFor();
      await waitForPath(page, '/admin/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Meera Iyer' }).waitFor();
    });

    await step('add two products from the dashboard', async () => {
      await addProduct(page, teapot.id, teapot.name, 'Sterling silver, 1790s, hallmarked', 'admin-add-product');
      await addProduct(page, candles.id, candles.name, 'Sheffield plate, a matched pair');
      const stat = (label: string) => page.locator('.stat-card').filter({ has: page.getByText(label, { exact: true }) }).locator('.stat-value');
      await stat('Unassigned Products').filter({ hasText: /^2$/ }).waitFor();
    });

    await step('create an auction with the Create Auction modal', async () => {
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Create Auction' }).click();
      const modal = dialog(page);
      // The spec's validation first: nothing selected.
      await modal.getByRole('checkbox', { name: new RegExp(teapot.name) }).waitFor();
      await modal.getByRole('button', { name: 'Create Auction' }).click();
      await modal.getByRole('alert').filter({ hasText: 'Please fill all fields and select at least one product' }).waitFor();
      await shot(page, 'admin-create-auction-refused');
      await modal.getByLabel('Auction ID').fill(auctionId);
      await modal.getByLabel('Auction Name').fill(auctionName);
      await modal.getByRole('checkbox', { name: new RegExp(teapot.name) }).check();
      await modal.getByRole('checkbox', { name: new RegExp(candles.name) }).check();
      await modal.getByRole('button', { name: 'Create Auction' }).click();
      await toastWith(page, 'Auction created successfully!').waitFor();
      await modal.waitFor({ state: 'detached' });
      await page.locator('.adm-recent').getByText(auctionName).waitFor();
      await page.locator('.stat-card').filter({ has: page.getByText('Total Auctions', { exact: true }) }).locator('.stat-value').filter({ hasText: /^1$/ }).waitFor();
      await dismissToasts(page);
      await shot(page, 'admin-dashboard');
    });

    await step('Manage Auctions lists it', async () => {
      await openFromSidebar(page, 'Manage Auctions', '/admin/auctions');
      const row = page.getByRole('row').filter({ hasText: auctionId });
      await row.getByText('Active', { exact: true }).waitFor();
      await row.getByRole('cell', { name: '2', exact: true }).waitFor();
      await shot(page, 'admin-manage-auctions');
    });

    await step('open the detail page from the row', async () => {
      await page.getByRole('link', { name: auctionName }).click();
      await waitForPath(page, `/admin/auctions/${auctionId}`);
      await page.getByRole('heading', { name: auctionName }).waitFor();
      await page.getByRole('heading', { name: 'Live Bid Feed' }).waitFor();
      await page.getByText('No bids yet').waitFor();
      await page.getByRole('button', { name: 'Edit Auction' }).click();
      await dialog(page).getByLabel('Auction Name').waitFor();
      await shot(page, 'admin-auction-edit');
      await dialog(page).getByRole('button', { name: 'Close' }).click();
      await dialog(page).waitFor({ state: 'detached' });
    });

    const bidder = await seed.user({ name: 'Kiran Rao' });
    await step('a bidder bids ₹1,500 through the API: the feed shows it live with the username', async () => {
      await page.evaluate(() => { (window as unknown as { adminMark?: number }).adminMark = 1; });
      await seed.topUp(bidder, 5000);
      await seed.register(bidder, auctionId);
      await seed.bid(bidder, teapot.id, 1500);
      const item = page.locator('.ad-feed-item').filter({ hasText: bidder.username });
      await item.filter({ hasText: '₹1,500' }).filter({ hasText: teapot.name }).waitFor();
      await page.locator(`[data-testid="highest-${teapot.id}"]`).filter({ hasText: '₹1,500' }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { adminMark?: number }).adminMark)).toBe(1);
      expect(pathOf(page)).toBe(`/admin/auctions/${auctionId}`);
      await shot(page, 'admin-auction-detail');
    });

    await step('another admin sees the detail page read-only with the bidder masked', async () => {
      const other = await seed.admin({ name: 'Farah Khan' });
      const context = await newContext(e2e.browser, e2e.server.url);
      try {
        const page2 = await context.newPage();
        await page2.goto('/admin/login');
        await page2.getByLabel('Username').fill(other.username);
        await page2.getByLabel('Password').fill(other.password);
        await page2.getByRole('button', { name: 'Login', exact: true }).click();
        await page2.waitForURL('**/admin/dashboard');
        await page2.goto(`/admin/auctions/${auctionId}`);
        await page2.getByRole('heading', { name: auctionName }).waitFor();
        await page2.getByRole('note').filter({ hasText: 'Read-only' }).waitFor();
        await page2.getByRole('heading', { name: 'Bid History' }).waitFor();
        const item = page2.locator('.ad-feed-item').filter({ hasText: '₹1,500' });
        await item.waitFor();
        const text = (await item.textContent()) ?? '';
        // Bidders are masked as on the lot page: a stable "Bidder n" per lot, never the username.
        expect(text).toContain('Bidder 1');
        expect(text).not.toContain(bidder.username);
        expect(await page2.getByRole('heading', { name: 'Live Bid Feed' }).count()).toBe(0);
        expect(await page2.getByRole('button', { name: 'Edit Auction' }).count()).toBe(0);
        await shot(page2, 'admin-auction-detail-readonly');
      } finally {
        await context.close();
      }
    });

    await step('end the running auction early from Manage Auctions after a confirmation saying so: the row shows Settled', async () => {
      await page.getByRole('link', { name: 'Manage Auctions' }).first().click();
      await waitForPath(page, '/admin/auctions');
      await dismissToasts(page).catch(() => undefined);
      const row = page.getByRole('row').filter({ hasText: auctionId });
      await row.getByRole('button', { name: 'End early' }).click();
      const modal = dialog(page);
      await modal.getByText(/^Bidding stops now, .+ before the set end; leaders win at their current price\. This action cannot be undone\.$/).waitFor();
      await shot(page, 'admin-settle-confirm');
      await modal.getByRole('button', { name: 'End now' }).click();
      await toastWith(page, 'Auction settled successfully!').waitFor();
      await row.locator('.badge').filter({ hasText: 'Settled' }).waitFor();
      for (const name of ['Edit', 'Settled', 'Delete']) expect(await row.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
      await dismissToasts(page);
      await shot(page, 'admin-manage-auctions-settled');
    });

    await step('the detail page shows the teapot sold to the bidder', async () => {
      await page.getByRole('link', { name: auctionName }).click();
      await page.getByRole('heading', { name: auctionName }).waitFor();
      await page.locator(`[data-product-id="${teapot.id}"]`).getByText('Sold', { exact: true }).waitFor();
      await page.locator('.ad-feed-item').filter({ hasText: bidder.username }).getByText('Won').waitFor();
      await shot(page, 'admin-auction-detail-settled');
    });
  }, 180_000);
});
