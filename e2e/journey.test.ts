/**
 * The full bidder journey in a real Chromium, written against the spec's visible texts and roles:
 * register, log in, top up, register for an auction, bid, get outbid live, see it
 * in My Bids, bid again and cancel with a refund, find the refund in the wallet and download the CSV
 * (its signed amounts sum to the balance), and find on the dashboard the bids that did not fail, the failed one named.
 * A second bidder acts through the API. Each step is named, so a failure says where the journey broke.
 * Every page and dialog on the way is screenshotted at 1280 and 375 px and checked with axe-core (`shot`).
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, DESKTOP, dismissToasts, pathOf, shot, step, toastWith, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

const CANCEL_CONFIRMATION = 'Are you sure you want to cancel this bid? The amount will be refunded to your wallet.';
const QUICK_ADD_QUESTION = 'Add ₹1,000 to your wallet? The money is available for bidding at once; a top-up cannot be undone.';
const CSV_HEADER = 'id,date (UTC),type,description,product id,product name,amount (₹),signed amount (₹),balance after (₹)';

/** The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted && c === '"' && line[i + 1] === '"') { cell += '"'; i += 1; }
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) { cells.push(cell); cell = ''; }
    else cell += c;
  }
  return [...cells, cell];
}

/** The open dialog (Add Funds, Place Bid, the cancel confirmation). */
const dialog = (page: Page) => page.getByRole('dialog');

async function openFromSidebar(page: Page, label: string, pathname: string) {
  const nav = page.getByRole('navigation', { name: 'User Portal' });
  if (!(await nav.isVisible())) await page.getByRole('button', { name: 'Open menu' }).click();
  await nav.getByRole('link', { name: label }).click();
  await waitForPath(page, pathname);
}

/** The value of the stat card labelled `label`. */
function stat(page: Page, label: string) {
  return page.locator('.stat-card').filter({ has: page.getByText(label, { exact: true }) }).locator('.stat-value');
}

async function showProducts(page: Page, auctionName: string, productName: string) {
  await page.getByText(auctionName).first().waitFor();
  await page.getByRole('button', { name: 'View Products' }).first().click();
  await page.getByText(productName).first().waitFor();
}

/** Places a bid through the Place Bid dialog; with `shotName`, the filled-in dialog is screenshotted (and checked). */
async function placeBid(page: Page, amount: number, shotName?: string) {
  await dismissToasts(page);
  await page.getByRole('button', { name: 'Place Bid', exact: true }).first().click();
  const modal = dialog(page);
  await modal.waitFor();
  await modal.locator('input').first().fill(String(amount));
  if (shotName) await shot(page, shotName);
  await modal.getByRole('button', { name: 'Place Bid', exact: true }).click();
  await toastWith(page, 'Bid placed successfully!').waitFor();
  await modal.waitFor({ state: 'detached' });
}

describe('bidder journey', () => {
  let rival: Account;
  const auctionName = 'Heritage Cameras';
  const productName = 'Rolleiflex 2.8F';
  let productId: string;
  let auctionId: string;

  // One auction with one product, ending in 3 hours; a rival bidder with money, registered for it.
  beforeAll(async () => {
    const { seed } = e2e;
    const admin = await seed.admin();
    productId = unique('rollei');
    auctionId = unique('heritage');
    await seed.auction(admin, { id: auctionId, name: auctionName, endsInMs: 3 * 3600_000, products: [{ id: productId, name: productName }] });
    rival = await seed.user({ name: 'Rival Bidder' });
    await seed.topUp(rival, 10_000);
    await seed.register(rival, auctionId);
  });

  it('registers, tops up, bids, is outbid live, re-bids, cancels with a refund and exports the CSV', async () => {
    const { page } = e2e;
    const username = unique('journey');
    const password = 'secret123';
    // The same bidder through the API, once the journey needs it (a refused bid, the balance).
    let me!: Account;

    await step('register through /user/register', async () => {
      await page.goto('/');
      await page.getByRole('link', { name: 'Register as User' }).first().waitFor();
      await shot(page, 'journey-landing');
      await page.getByRole('link', { name: 'Register as User' }).first().click();
      await waitForPath(page, '/user/register');
      await page.getByLabel('Full Name').waitFor();
      await shot(page, 'journey-register');
      await page.getByLabel('Full Name').fill('Priya Nair');
      await page.getByLabel('Username').fill(username);
      // A short number is refused under its field in plain words, before anything is sent.
      await page.getByLabel('Mobile Number').fill('98765');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('Enter 7 to 15 digits; a leading + is fine').waitFor();
      await shot(page, 'journey-register-refused');
      // Typed as people write it, with spaces: taken as the digits.
      await page.getByLabel('Mobile Number').fill('98765 01234');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      // Signed in at once.
      await toastWith(page, 'Registration successful! You are signed in.').waitFor();
      await waitForPath(page, '/user/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Priya Nair' }).waitFor();
    });

    await step('log out, and back to the login page', async () => {
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Logout' }).click();
      await waitForPath(page, '/');
      await page.goto('/user/login');
      await page.getByLabel('Username').waitFor();
    });

    await step('a wrong password is refused under the form, and the message goes once the field is edited', async () => {
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.locator('form').getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
      await shot(page, 'journey-login-refused');
      await page.getByLabel('Password').fill('');
      await page.locator('form').getByRole('alert').waitFor({ state: 'detached' });
    });

    await step('log in through /user/login', async () => {
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await toastWith(page, 'Login successful!').waitFor();
      await waitForPath(page, '/user/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Priya Nair' }).waitFor();
    });

    await step('top up ₹5,000 on /user/wallet with Add Funds', async () => {
      await openFromSidebar(page, 'Wallet', '/user/wallet');
      await page.getByText('Current Balance').first().waitFor();
      await page.getByRole('button', { name: 'Add Funds' }).first().click();
      const modal = dialog(page);
      await modal.waitFor();
      await modal.locator('input').first().fill('5000');
      await shot(page, 'journey-wallet-add-funds');
      await modal.getByRole('button', { name: /^Add\b/ }).last().click();
      await toastWith(page, 'Added ₹5,000 to your wallet').waitFor();
      await page.getByText('₹5,000').first().waitFor();
      await shot(page, 'journey-wallet-topped-up');
    });

    await step('Quick Add asks first: Cancel adds nothing, confirming adds ₹1,000', async () => {
      const hero = page.locator('.wallet-hero-value');
      await dismissToasts(page);
      await page.getByRole('button', { name: '₹1,000 Add to wallet' }).click();
      const modal = dialog(page);
      await modal.getByText(QUICK_ADD_QUESTION).waitFor();
      await shot(page, 'journey-wallet-quick-add-confirm');
      await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
      await modal.waitFor({ state: 'detached' });
      expect(await hero.textContent()).toBe('₹5,000');

      await page.getByRole('button', { name: '₹1,000 Add to wallet' }).click();
      await modal.getByRole('button', { name: 'Add ₹1,000', exact: true }).click();
      await toastWith(page, 'Added ₹1,000 to your wallet').waitFor();
      await modal.waitFor({ state: 'detached' });
      await hero.filter({ hasText: '₹6,000' }).waitFor();
    });

    await step('register for the seeded auction on /user/auctions', async () => {
      await openFromSidebar(page, 'Browse Auctions', '/user/auctions');
      await page.getByText(auctionName).first().waitFor();
      // On a phone: the views keep their counts, and no empty "Select an Auction" box sits under the cards.
      await page.setViewportSize({ width: 375, height: 800 });
      expect(await page.getByRole('tab', { name: /^Active/ }).locator('.tab-count').isVisible()).toBe(true);
      expect(await page.getByText('Select an Auction').isVisible()).toBe(false);
      await page.setViewportSize(DESKTOP);
      await page.getByRole('button', { name: 'Register', exact: true }).first().click();
      await toastWith(page, 'Successfully registered for auction!').waitFor();
      await page.getByText('Registered', { exact: true }).first().waitFor();
    });

    await step('View Products shows the product', async () => {
      await showProducts(page, auctionName, productName);
      await shot(page, 'journey-products');
    });

    await step('Place Bid ₹500', async () => {
      await placeBid(page, 500, 'journey-bid-dialog');
      await page.getByText('₹500').first().waitFor();
    });

    await step('a second bidder bids ₹600: new highest without reload and the outbid toast', async () => {
      // Marks this document; a reload would lose the mark.
      await page.evaluate(() => { (window as unknown as { journeyMark?: number }).journeyMark = 1; });
      await page.waitForTimeout(500);
      await e2e.seed.bid(rival, productId, 600);
      await toastWith(page, `You were outbid on ${productName}: highest bid is now ₹600`).waitFor();
      await page.locator('main').getByText('₹600').first().waitFor();
      expect(await page.evaluate(() => (window as unknown as { journeyMark?: number }).journeyMark)).toBe(1);
      expect(pathOf(page)).toBe('/user/auctions');
      await shot(page, 'journey-outbid');
    });

    await step('/user/bids shows the bid as Outbid', async () => {
      await openFromSidebar(page, 'My Bids', '/user/bids');
      await page.getByRole('row').filter({ hasText: '₹500' }).filter({ hasText: 'Outbid' }).first().waitFor();
    });

    await step('place a new leading bid of ₹700', async () => {
      await openFromSidebar(page, 'Browse Auctions', '/user/auctions');
      await showProducts(page, auctionName, productName);
      await placeBid(page, 700);
    });

    await step('cancel the leading bid on /user/bids after the confirmation', async () => {
      await openFromSidebar(page, 'My Bids', '/user/bids');
      const row = page.getByRole('row').filter({ hasText: '₹700' }).filter({ hasText: 'Active' }).first();
      await row.waitFor();
      await row.getByRole('button', { name: /cancel/i }).click();
      const modal = dialog(page);
      await modal.getByText(CANCEL_CONFIRMATION).waitFor();
      await shot(page, 'journey-cancel-confirm');
      // The confirm button is the last one of the dialog (after Close and the dismissing Cancel).
      await modal.getByRole('button').last().click();
      await toastWith(page, 'Bid cancelled and amount refunded successfully!').waitFor();
      await page.getByRole('row').filter({ hasText: '₹700' }).filter({ hasText: 'Cancelled' }).first().waitFor();
      await shot(page, 'journey-bids');
    });

    await step('a refused bid (too low) is listed as Failed and counted in Total Bids', async () => {
      const { token, user } = await e2e.seed.call<{ token: string; user: { id: number } }>('POST', '/login', { username, password });
      me = { id: user.id, username, password, name: 'Priya Nair', token };
      await expect(e2e.seed.bid(me, productId, 100)).rejects.toMatchObject({ status: 409 });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('row').filter({ hasText: '₹100' }).filter({ hasText: 'Failed' }).first().waitFor();
      await stat(page, 'Total Bids').filter({ hasText: /^3$/ }).waitFor();
      await stat(page, 'Active Bids').filter({ hasText: /^0$/ }).waitFor();
    });

    await step('/user/wallet shows the refund row, naming the product', async () => {
      await openFromSidebar(page, 'Wallet', '/user/wallet');
      // The cancelled bid's hold, released: "Released: bid on …", its note saying why.
      await page.getByRole('row').filter({ hasText: /Released/ }).filter({ hasText: /cancelled/i }).filter({ hasText: '₹700' }).filter({ hasText: `${productName} (${productId})` }).first().waitFor();
      await page.locator('.wallet-hero-value').filter({ hasText: '₹6,000' }).waitFor();
      await dismissToasts(page);
      await shot(page, 'journey-wallet-refund');
    });

    await step('Download CSV gives transactions.csv: a header for people, product names, signed amounts that sum to the balance', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('transactions.csv');
      const file = await download.path();
      const [header, ...lines] = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trim().split(/\r\n/);
      expect(header).toBe(CSV_HEADER);
      const rows = lines.map(csvCells);
      // Newest first: refund 700 (cancelled), bid 700, refund 500 (outbid), bid 500, quick add 1000, top-up 5000.
      expect(rows.map((r) => [r[2], r[4], r[5], r[6], r[7]])).toEqual([
        ['Released', productId, productName, '700', '700'],
        ['On hold', productId, productName, '700', '-700'],
        ['Released', productId, productName, '500', '500'],
        ['On hold', productId, productName, '500', '-500'],
        ['Top-up', '', '', '1000', '1000'],
        ['Top-up', '', '', '5000', '5000'],
      ]);
      const paise = rows.reduce((sum, r) => sum + Math.round(Number(r[7]) * 100), 0);
      expect(paise / 100).toBe(await e2e.seed.balance(me));
      expect(paise / 100).toBe(6000);
      expect(Number(rows[0]![8])).toBe(6000);
      await toastWith(page, 'CSV downloaded').waitFor();
    });

    await step('the dashboard sums it up: My Bids\' three less the failed one it names, the product in recent transactions', async () => {
      await openFromSidebar(page, 'Dashboard', '/user/dashboard');
      await page.getByTestId('dashboard-balance').filter({ hasText: '₹6,000' }).waitFor();
      await stat(page, 'My Bids').filter({ hasText: /^2$/ }).waitFor();
      await page.locator('.stat-card').filter({ has: page.getByText('My Bids', { exact: true }) }).locator('.stat-hint').filter({ hasText: '0 active · 1 failed not counted' }).waitFor();
      await stat(page, 'Total Spent').filter({ hasText: '₹0' }).waitFor();
      await stat(page, 'Registered Auctions').filter({ hasText: /^1$/ }).waitFor();
      await page.getByRole('region', { name: 'Recent Transactions' }).getByText(productName).first().waitFor();
      await dismissToasts(page);
      await shot(page, 'journey-dashboard');
    });
  }, 180_000);
});
