/**
 * A visitor who has not signed in, in a real Chromium against the production server: a shared lot
 * link opens the lot (not a login wall), with Sign in and Register in the header and only the public
 * pages in the menu; saving and bidding ask them to sign in, and signing in brings them back to the
 * lot, where they register and bid. Screenshots at 1280 and 375 px, each checked with axe-core.
 */
import { describe, expect, it } from 'vitest';
import { dismissToasts, shot, step, toastWith, unique, useE2E } from './browser.js';

const e2e = useE2E();

describe('a visitor', () => {
  it('opens a shared lot link, is asked to sign in to bid, and comes back to the lot to bid', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Kavya Iyer' });
    await seed.topUp(me, 2000);
    const auction = { id: unique('maps'), name: 'Maps and Charts' };
    const map = { id: unique('map'), name: 'Map of Bengal (1780)', description: 'A hand-coloured copper engraving by James Rennell.' };
    await seed.auction(admin, { ...auction, endsInMs: 3 * 3600_000, products: [{ ...map, starting_price: 500 }] });
    const lotUrl = `/auctions/${auction.id}/products/${map.id}?ref=share`;

    await step('the shared link opens the lot for a visitor', async () => {
      await page.goto(lotUrl);
      await page.getByRole('heading', { name: map.name, level: 2 }).waitFor();
      await page.getByText('A hand-coloured copper engraving by James Rennell.').waitFor();
      const header = page.getByRole('banner');
      await header.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('button', { name: 'Logout' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Wallet' }).count()).toBe(0);
      await shot(page, 'visitor-lot');
    });

    await step('the star asks the visitor to sign in, and Back returns to the lot', async () => {
      await page.getByRole('button', { name: `Save ${map.name}` }).click();
      await page.waitForURL((url) => url.pathname === '/user/login');
      await page.goBack();
      await page.getByRole('heading', { name: map.name, level: 2 }).waitFor();
    });

    await step('Sign in to bid → the login page → back on the lot, signed in', async () => {
      await page.getByRole('button', { name: 'Sign in to bid' }).click();
      await page.waitForURL((url) => url.pathname === '/user/login');
      await page.getByLabel('Username').fill(me.username);
      await page.getByLabel('Password').fill(me.password);
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await page.waitForURL((url) => `${url.pathname}${url.search}` === lotUrl);
      await page.getByRole('button', { name: 'Logout' }).waitFor();
      await dismissToasts(page);
    });

    await step('registers and bids from the lot page', async () => {
      await page.getByRole('button', { name: 'Register to bid' }).click();
      await toastWith(page, 'Successfully registered for auction!').waitFor();
      await page.getByRole('button', { name: 'Place Bid' }).click();
      const dialog = page.getByRole('dialog', { name: 'Place Bid' });
      await dialog.getByLabel('Your bid (₹)').fill('600');
      await dialog.getByRole('button', { name: 'Place Bid' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.lot-summary').getByText("You're the highest bidder").waitFor();
      await page.locator('.lot-amount').getByText('₹600').waitFor();
      expect((await seed.userBids(me)).map((b) => [b.product_id, b.amount])).toEqual([[map.id, 600]]);
    });
  });
});
