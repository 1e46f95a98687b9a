/**
 * Saved lots and notifications in a real Chromium against the production server (docs/notifications.md):
 * a lot with a real photo is starred in Browse and found on the Saved page with its cover; an outbid that
 * happens in another browser (a rival bidding on the lot's page) lights the bell, whose notice opens the lot's page and is
 * read; the lot is unsaved again. Every page on the way is screenshotted at 1280 and 375 px and checked
 * with axe-core (`shot`).
 */
import { describe, expect, it } from 'vitest';
import { loginViaUi, makePhoto, newContext, shot, step, unique, useE2E } from './browser.js';

const e2e = useE2E();

describe('saved lots and the bell', () => {
  it('stars a lot, finds it on Saved, hears of an outbid through the bell and opens the lot from it', async () => {
    const { page, seed, server } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const rival = await seed.user({ name: 'Rival Bidder' });
    const auction = { id: unique('clocks'), name: 'Antique Clocks' };
    const clock = { id: unique('clock'), name: 'Bracket Clock' };
    await seed.auction(admin, { ...auction, endsInMs: 3 * 3600_000, products: [{ ...clock, starting_price: 100 }] });

    // A real photo, through the upload route as the admin's form sends it.
    await seed.photo(admin, clock.id, await makePhoto('Clock', '#78461e', 1600, 1000), 'clock.png');

    for (const u of [me, rival]) {
      await seed.topUp(u, 5000);
      await seed.register(u, auction.id);
    }

    await step('star the lot in Browse', async () => {
      await loginViaUi(page, 'user', me.username, me.password);
      await page.goto('/user/auctions');
      await page.locator('.auc-card').filter({ hasText: auction.name }).getByRole('button', { name: 'View Products' }).click();
      const star = page.getByRole('button', { name: `Save ${clock.name}` });
      await star.click();
      await page.getByRole('button', { name: `Saved: ${clock.name} (remove)` }).waitFor();
      expect(await page.getByRole('button', { name: `Saved: ${clock.name} (remove)` }).getAttribute('aria-pressed')).toBe('true');
    });

    await step('the Saved page lists it with its cover photo', async () => {
      await page.goto('/user/saved');
      const row = page.getByRole('row').filter({ hasText: clock.name }).first();
      await row.waitFor();
      const cover = row.locator('img').first();
      await cover.waitFor();
      expect(await cover.getAttribute('src')).toMatch(/^(https?:\/\/[^/]+)?\/media\/[0-9a-f]+\.webp$/);
      await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await shot(page, 'saved-page');
    });

    await step('a bid, then a rival’s higher bid in another browser: the bell counts the outbid', async () => {
      await seed.bid(me, clock.id, 150);
      // The rival bids through the lot's page in a browser of their own.
      const theirs = await newContext(e2e.browser, server.url);
      try {
        const rivalPage = await theirs.newPage();
        await loginViaUi(rivalPage, 'user', rival.username, rival.password);
        await rivalPage.goto(`/auctions/${auction.id}/products/${clock.id}`);
        await rivalPage.getByRole('button', { name: 'Place Bid' }).click();
        const dialog = rivalPage.getByRole('dialog', { name: 'Place Bid' });
        await dialog.getByLabel('Your bid (₹)').fill('200');
        await dialog.getByRole('button', { name: 'Place Bid' }).click();
        await rivalPage.locator('.lot-summary').getByText("You're the highest bidder").waitFor();
      } finally {
        await theirs.close();
      }
      const bell = page.getByRole('button', { name: /^Notifications, 1 unread$/ });
      await bell.waitFor();
      await bell.click();
      const panel = page.getByRole('dialog', { name: /Notifications/ });
      await panel.getByText(`Outbid on ${clock.name}`).waitFor();
      await panel.getByText('The highest bid is now ₹200.').waitFor();
      await shot(page, 'bell-open');
      await panel.getByText(`Outbid on ${clock.name}`).click();
    });

    await step('the notice opens the lot’s page and is read', async () => {
      await page.waitForURL((url) => url.pathname === `/auctions/${auction.id}/products/${clock.id}`);
      await page.locator('.lot-summary').getByText('Outbid — bid again').waitFor();
      await page.getByRole('button', { name: /^Notifications$/ }).waitFor();
      await shot(page, 'bell-lot-opened');
    });

    await step('unsave from the Saved page: the empty state', async () => {
      await page.goto('/user/saved');
      await page.getByRole('button', { name: new RegExp(`Remove\\s+${clock.name} from Saved`) }).click();
      await page.getByText('No saved lots yet — tap the star on any lot to keep it here').waitFor();
      await shot(page, 'saved-empty');
    });
  });
});
