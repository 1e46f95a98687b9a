/**
 * Bidding as serious auction sites run it, in a real Chromium against the production server
 * (docs/bidding.md): a maximum bid answering a later plain bid automatically ("You were outbid by an
 * automatic bid") and then a maximum of one's own leading with "your maximum ₹X" and the wallet's On
 * hold; buy now; a bid in the soft-close window visibly extending the countdown in a second browser;
 * a lot that ends below its reserve reading "Reserve not met" with the refund in the wallet. A rival
 * bidder acts through the API. Every page and dialog on the way is screenshotted at 1280 and 375 px and
 * checked with axe-core (`shot`).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, dismissToasts, loginViaUi, newContext, shot, step, toastWith, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

const dialog = (page: Page) => page.getByRole('dialog');

/** The lot row of `productName` in the open products panel. */
const lot = (page: Page, productName: string) => page.locator('li.auc-product').filter({ has: page.getByRole('heading', { name: productName }) });

async function openProducts(page: Page, auctionName: string, productName: string) {
  await page.goto('/user/auctions');
  const card = page.locator('.auc-card, article').filter({ hasText: auctionName }).first();
  await card.waitFor();
  await card.getByRole('button', { name: 'View Products' }).click();
  await lot(page, productName).waitFor();
}

/** Opens the Place Bid dialog on a lot. */
async function openBid(page: Page, productName: string) {
  await dismissToasts(page);
  await lot(page, productName).getByRole('button', { name: 'Place Bid', exact: true }).click();
  await dialog(page).waitFor();
  return dialog(page);
}

describe('bidding rules in the browser', () => {
  let admin: Account;
  let rival: Account;
  let me: Account;
  const cameras = { id: unique('film'), name: 'Film Cameras' };
  const leica = { id: unique('leica'), name: 'Leica M6' };
  const nikon = { id: unique('nikon'), name: 'Nikon F3' };

  beforeAll(async () => {
    const { seed } = e2e;
    admin = await seed.admin();
    rival = await seed.user({ name: 'Rival Bidder' });
    me = await seed.user({ name: 'Priya Nair' });
    await seed.auction(admin, {
      ...cameras, endsInMs: 3 * 3600_000,
      products: [{ ...leica, starting_price: 100 }, { ...nikon, buy_now_price: 1500, starting_price: 200 }],
    });
    for (const u of [rival, me]) {
      await seed.topUp(u, 10_000);
      await seed.register(u, cameras.id);
    }
  });

  it('a maximum answers a plain bid at once; a higher maximum leads with "your maximum", held in the wallet', async () => {
    const { page, seed } = e2e;
    await step('the rival sets a maximum of ₹1,000: it leads at the starting price', async () => {
      expect(await seed.maxBid(rival, leica.id, 1000)).toMatchObject({ leading: true, highest_bid: 100 });
    });

    await step('Priya signs in and opens the lot', async () => {
      await loginViaUi(page, 'user', me.username, me.password);
      await openProducts(page, cameras.name, leica.name);
      await lot(page, leica.name).getByText('₹100').first().waitFor();
    });

    await step('the dialog offers the minimum, the next amounts and a maximum field', async () => {
      const modal = await openBid(page, leica.name);
      await modal.getByText('Available').first().waitFor();
      await modal.getByRole('group', { name: 'Quick bid amounts' }).getByRole('button').first().waitFor();
      expect(await modal.getByLabel('Your bid (₹)').inputValue()).toBe('101');
      expect(await modal.getByRole('group', { name: 'Quick bid amounts' }).getByRole('button').allTextContents()).toEqual(['₹101', '₹102', '₹103']);
      await shot(page, 'bidding-dialog');
    });

    await step('a plain bid of ₹300 is answered by the maximum: "You were outbid by an automatic bid"', async () => {
      const modal = dialog(page);
      await modal.getByLabel('Your bid (₹)').fill('300');
      await modal.getByRole('button', { name: 'Place Bid', exact: true }).click();
      await modal.getByRole('alert').filter({ hasText: 'You were outbid by an automatic bid' }).waitFor();
      await modal.getByText('₹301').first().waitFor();
      await shot(page, 'bidding-outbid-automatically');
      await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
      await modal.waitFor({ state: 'detached' });
      await lot(page, leica.name).getByText('Outbid — bid again').waitFor();
      await lot(page, leica.name).getByText('₹301').first().waitFor();
    });

    await step('a maximum of ₹2,000 leads at one step above the rival’s ₹1,000', async () => {
      const modal = await openBid(page, leica.name);
      await modal.getByLabel(/^Maximum bid/).fill('2000');
      await modal.getByRole('button', { name: 'Place Bid', exact: true }).click();
      await toastWith(page, 'Bid placed successfully!').waitFor();
      await modal.waitFor({ state: 'detached' });
      await lot(page, leica.name).getByText("You're the highest bidder · your maximum ₹2,000").waitFor();
      await lot(page, leica.name).getByText('₹1,001').first().waitFor();
      await shot(page, 'bidding-leading-with-maximum');
    });

    await step('the wallet holds the whole maximum: On hold ₹2,000, Available ₹8,000', async () => {
      await page.goto('/user/wallet');
      const card = (label: string) => page.locator('.stat-card').filter({ has: page.getByText(label, { exact: true }) }).locator('.stat-value');
      await card('On hold').filter({ hasText: '₹2,000' }).waitFor();
      await card('Available').filter({ hasText: '₹8,000' }).waitFor();
      await shot(page, 'bidding-wallet-on-hold');
    });
  });

  it('buy now: the lot is sold to the buyer at once', async () => {
    const { page, seed } = e2e;
    await loginViaUi(page, 'user', me.username, me.password);
    await openProducts(page, cameras.name, nikon.name);
    const before = await seed.balance(me);
    await step('Buy now asks first, then buys', async () => {
      await dismissToasts(page);
      await lot(page, nikon.name).getByRole('button', { name: 'Buy now ₹1,500' }).click();
      await dialog(page).waitFor();
      await shot(page, 'bidding-buy-now-confirm');
      await dialog(page).getByRole('button', { name: 'Buy now ₹1,500' }).click();
      await toastWith(page, `You bought ${nikon.name}!`).waitFor();
      await lot(page, nikon.name).getByText('You won').waitFor();
      await shot(page, 'bidding-bought');
    });
    expect(await seed.balance(me)).toBe(before - 1500);
    await expect(seed.call('POST', '/buy-now', { product_id: nikon.id }, rival.token)).rejects.toMatchObject({ status: 409 });
  });

  it('a bid in the soft-close window extends the countdown in another browser', async () => {
    const { page, seed, browser, server } = e2e;
    const lastCall = { id: unique('last'), name: 'Last Call' };
    const canon = { id: unique('canon'), name: 'Canon AE-1' };
    await seed.auction(admin, { ...lastCall, endsInMs: 50_000, products: [canon], rules: { soft_close_s: 120, max_extension_s: 600 } });
    for (const u of [rival, me]) await seed.register(u, lastCall.id);

    // The rival watches in a browser of their own.
    const other = await newContext(browser, server.url);
    try {
      const watcher = await other.newPage();
      await loginViaUi(watcher, 'user', rival.username, rival.password);
      await openProducts(watcher, lastCall.name, canon.name);
      const countdown = watcher.locator('.auc-panel-countdown');
      await step('under a minute left: the countdown shows seconds, in red, and the rule is explained', async () => {
        expect(await countdown.textContent()).toMatch(/^Ends in \d{1,2}s$/);
        expect(await countdown.getAttribute('class')).toContain('auc-countdown-urgent');
        await watcher.getByText('Bids in the last 2 min extend the auction', { exact: false }).waitFor();
        await shot(watcher, 'bidding-soft-close-before');
      });

      await step('Priya bids: the rival’s countdown jumps to about two minutes and says Extended', async () => {
        await loginViaUi(page, 'user', me.username, me.password);
        await openProducts(page, lastCall.name, canon.name);
        const modal = await openBid(page, canon.name);
        await modal.getByRole('button', { name: 'Place Bid', exact: true }).click();
        await toastWith(page, 'Bid placed successfully!').waitFor();
        await watcher.locator('.auc-panel-sub').getByText('Extended').waitFor();
        await expect.poll(async () => countdown.textContent(), { timeout: 10_000 }).toMatch(/^Ends in (1m [5-9]\ds|2m 00s)$/);
        await shot(watcher, 'bidding-soft-close-extended');
      });
    } finally {
      await other.close();
    }
  });

  it('a lot that ends below its reserve reads "Reserve not met", and the hold comes back', async () => {
    // Its admin ends it early: ending by the clock is the scheduler's tests' and the crash test's part.
    const { page, seed } = e2e;
    const reserveRoom = { id: unique('reserve'), name: 'Reserve Room' };
    const pentax = { id: unique('pentax'), name: 'Pentax 67' };
    await seed.auction(admin, { ...reserveRoom, endsInMs: 3600_000, products: [{ ...pentax, reserve_price: 5000 }], rules: { soft_close_s: 0 } });
    await seed.register(me, reserveRoom.id);
    await loginViaUi(page, 'user', me.username, me.password);
    await openProducts(page, reserveRoom.name, pentax.name);
    const balance = await seed.balance(me);

    await step('a bid of ₹1,000 leads, below the reserve', async () => {
      await lot(page, pentax.name).getByText('Reserve not met yet').waitFor();
      const modal = await openBid(page, pentax.name);
      // The dialog says what a maximum does against an unmet reserve.
      await modal.getByTestId('reserve-note').waitFor();
      await shot(page, 'bidding-dialog-reserve');
      await modal.getByLabel('Your bid (₹)').fill('1000');
      await modal.getByRole('button', { name: 'Place Bid', exact: true }).click();
      await toastWith(page, 'Bid placed successfully!').waitFor();
      await lot(page, pentax.name).getByText("You're the highest bidder").waitFor();
      expect(await seed.balance(me)).toBe(balance - 1000);
    });

    await step('the auction ends and settles: My Bids reads "Reserve not met", the wallet shows the refund', async () => {
      await seed.call('POST', `/admin/auction/${reserveRoom.id}/settle`, undefined, admin.token);
      await expect.poll(async () => (await seed.userBids(me)).find((b) => b.product_id === pentax.id)?.state, { timeout: 10_000, interval: 200 }).toBe('unsold');
      expect(await seed.balance(me)).toBe(balance);
      await page.goto('/user/bids');
      await waitForPath(page, '/user/bids');
      await page.getByRole('row').filter({ hasText: pentax.name }).getByText('Reserve not met').waitFor();
      await shot(page, 'bidding-reserve-not-met');
      await page.goto('/user/wallet');
      await page.getByText(`Reserve not met on ${pentax.name}: hold released`).first().waitFor();
      await shot(page, 'bidding-wallet-refund');
    });
  });
});
