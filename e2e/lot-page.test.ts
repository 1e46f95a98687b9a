/**
 * The lot page in a real Chromium against the production server (docs/photos.md#the-lot-page): Browse shows the
 * auction's cover and highest bid; a lot's name leads to its page, whose gallery moves by keyboard,
 * by thumbnail and by swipe; a rival's bid elsewhere lands live in the price and the history (as
 * "Bidder 1"); a bid from the page's dialog leads (as "You"); a maximum bid answers the next bid
 * automatically (marked Auto); the star saves and unsaves; Share copies the page's address. Screenshots
 * at 1280 and 375 px, each checked with axe-core (`shot`).
 */
import { describe, expect, it } from 'vitest';
import { DESKTOP, dismissToasts, loginViaUi, makePhoto, shot, step, toastWith, unique, useE2E } from './browser.js';

const e2e = useE2E();

describe('the lot page', () => {
  it('shows a lot with its photos, bids on it live, saves it and shares its link', async () => {
    const { page, seed, context } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const rival = await seed.user({ name: 'Rival Bidder' });
    const auction = { id: unique('radios'), name: 'Vintage Radios' };
    const radio = { id: unique('radio'), name: 'Murphy Valve Radio (1952)', description: 'Walnut cabinet, all original valves.\nServiced in 2025; plays on MW and SW.' };
    const other = { id: unique('spare'), name: 'Spare Valves (box of 12)' };
    await seed.auction(admin, { ...auction, endsInMs: 3 * 3600_000, products: [{ ...radio, starting_price: 100 }, { ...other, starting_price: 50 }] });
    await seed.photo(admin, radio.id, await makePhoto('Front', '#7c3aed'), 'front.png');
    await seed.photo(admin, radio.id, await makePhoto('Back', '#0e7490', 1200, 1600), 'back.png');
    await seed.photo(admin, radio.id, await makePhoto('Dial', '#b45309'), 'dial.png');
    for (const u of [me, rival]) {
      await seed.topUp(u, 5000);
      await seed.register(u, auction.id);
    }

    await step('Browse shows the cover and the highest bid on the card', async () => {
      await seed.bid(rival, other.id, 60);
      await loginViaUi(page, 'user', me.username, me.password);
      await page.goto('/user/auctions');
      const card = page.locator('.auc-card').filter({ hasText: auction.name });
      const cover = card.locator('.auc-card-cover img');
      await cover.waitFor();
      expect(await cover.getAttribute('src')).toMatch(/\/media\/[0-9a-f]+\.webp$/);
      await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await card.getByText('Highest bid ₹60').waitFor();
      await card.getByRole('button', { name: 'View Products' }).click();
      // The row has its cover too; its name leads to the lot's page.
      const row = page.locator('li.auc-product').filter({ hasText: radio.name });
      await row.locator('.auc-product-thumb img').waitFor();
      await shot(page, 'browse-covers');
      await row.getByRole('link', { name: radio.name }).click();
      await page.waitForURL((url) => url.pathname === `/auctions/${auction.id}/products/${radio.id}`);
    });

    const gallery = page.getByRole('region', { name: `Photos of ${radio.name}` });
    const shown = () => gallery.locator('.lot-photo').getAttribute('alt');

    await step('the lot page: photos, description, price, countdown', async () => {
      await page.getByRole('heading', { name: radio.name, level: 2 }).waitFor();
      await page.getByText('Serviced in 2025; plays on MW and SW.').waitFor();
      await page.locator('.lot-price').getByText('Starting bid').waitFor();
      await page.locator('.lot-amount').getByText('₹100').waitFor();
      await page.getByText('No bids yet').waitFor();
      expect(await page.getByRole('timer').textContent()).toMatch(/\d/);
      expect(await shown()).toBe(`${radio.name}, photo 1 of 3`);
      await expect.poll(() => gallery.locator('.lot-photo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
      await shot(page, 'lot-page');
      // On a phone, scrolled down to the history, the price and the bid action are still in view.
      await page.setViewportSize({ width: 375, height: 740 });
      await page.getByRole('heading', { name: /^Bid history/ }).scrollIntoViewIfNeeded();
      const bar = page.locator('.lot-actions-bar');
      expect(await bar.getByRole('button', { name: /Place Bid|Register to bid/ }).isVisible()).toBe(true);
      const box = (await bar.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(740);
      expect(box.y).toBeGreaterThan(600);
      await page.setViewportSize(DESKTOP);
    });

    await step('the gallery moves by keyboard, thumbnail and swipe', async () => {
      await gallery.focus();
      await page.keyboard.press('ArrowRight');
      expect(await shown()).toBe(`${radio.name}, photo 2 of 3`);
      await gallery.getByText('2 / 3').waitFor();
      await page.keyboard.press('End');
      expect(await shown()).toBe(`${radio.name}, photo 3 of 3`);
      await page.keyboard.press('ArrowRight');
      expect(await shown()).toBe(`${radio.name}, photo 1 of 3`);
      await gallery.getByRole('button', { name: 'Show photo 2 of 3' }).click();
      expect(await shown()).toBe(`${radio.name}, photo 2 of 3`);
      expect(await gallery.getByRole('button', { name: 'Show photo 2 of 3' }).getAttribute('aria-current')).toBe('true');
      await gallery.getByRole('button', { name: 'Previous photo' }).click();
      expect(await shown()).toBe(`${radio.name}, photo 1 of 3`);

      // A finger swiping left shows the next photo; a mostly vertical movement (a scroll) does not.
      const stage = gallery.locator('.lot-stage');
      const box = (await stage.boundingBox())!;
      const y = box.y + box.height / 2;
      const swipe = async (fromX: number, toX: number, toY = y) => {
        await stage.dispatchEvent('pointerdown', { pointerType: 'touch', pointerId: 7, isPrimary: true, clientX: fromX, clientY: y, bubbles: true });
        await stage.dispatchEvent('pointerup', { pointerType: 'touch', pointerId: 7, isPrimary: true, clientX: toX, clientY: toY, bubbles: true });
      };
      await swipe(box.x + box.width * 0.8, box.x + box.width * 0.2);
      expect(await shown()).toBe(`${radio.name}, photo 2 of 3`);
      await swipe(box.x + box.width * 0.2, box.x + box.width * 0.8);
      expect(await shown()).toBe(`${radio.name}, photo 1 of 3`);
      await swipe(box.x + box.width * 0.5, box.x + box.width * 0.5 - 50, y + 200);
      expect(await shown()).toBe(`${radio.name}, photo 1 of 3`);
    });

    const history = page.locator('.lot-history-list');

    await step('a rival’s bid elsewhere lands live, as Bidder 1', async () => {
      await seed.bid(rival, radio.id, 150);
      await page.locator('.lot-price').getByText('Highest bid').waitFor();
      await page.locator('.lot-amount').getByText('₹150').waitFor();
      await history.locator('.lot-entry').first().getByText('Bidder 1').waitFor();
      expect(await history.locator('.lot-entry').first().locator('.lot-entry-amount').textContent()).toBe('₹150');
    });

    await step('a bid from the page leads, as You', async () => {
      await page.getByRole('button', { name: 'Place Bid' }).click();
      const dialog = page.getByRole('dialog', { name: 'Place Bid' });
      await dialog.getByLabel('Your bid (₹)').fill('200');
      await dialog.getByRole('button', { name: 'Place Bid' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('.lot-summary').getByText("You're the highest bidder").waitFor();
      const first = history.locator('.lot-entry').first();
      await first.getByText('You').waitFor();
      expect(await first.locator('.lot-entry-amount').textContent()).toBe('₹200');
      await first.getByText('Leading').waitFor();
      expect(await history.locator('.lot-entry').count()).toBe(2);
    });

    await step('a rival’s maximum answers automatically, marked Auto', async () => {
      await seed.maxBid(rival, radio.id, 400);
      await page.locator('.lot-summary').getByText('Outbid — bid again').waitFor();
      await page.locator('.lot-amount').getByText('₹201').waitFor();
      await seed.bid(me, radio.id, 250).then((r) => expect(r.highest_bid).toBe(251));
      const first = history.locator('.lot-entry').first();
      await first.getByText('Auto').waitFor();
      expect(await first.locator('.lot-entry-amount').textContent()).toBe('₹251');
      expect(await first.locator('.lot-entry-bidder').textContent()).toBe('Bidder 1');
      // The maximum's own entry is at the price it was placed at, under its raises.
      expect(await history.locator('.lot-entry').nth(2).locator('.lot-entry-amount').textContent()).toBe('₹201');
      await dismissToasts(page);
      await shot(page, 'lot-page-history');
    });

    await step('the star saves the lot (it stays saved after a reload) and unsaves it', async () => {
      const summary = page.locator('.lot-summary');
      await summary.getByRole('button', { name: `Save ${radio.name}` }).click();
      await summary.getByRole('button', { name: `Saved: ${radio.name} (remove)` }).waitFor();
      await expect.poll(async () => (await seed.call<{ id: string }[]>('GET', '/saved', undefined, me.token)).map((p) => p.id)).toEqual([radio.id]);
      await page.reload();
      await summary.getByRole('button', { name: `Saved: ${radio.name} (remove)` }).click();
      await summary.getByRole('button', { name: `Save ${radio.name}` }).waitFor();
      await expect.poll(async () => (await seed.call<unknown[]>('GET', '/saved', undefined, me.token)).length).toBe(0);
    });

    await step('Share copies the page’s address', async () => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      // The clipboard path (desktop Chromium has no share sheet here); a share sheet would be the system's.
      await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined, configurable: true }));
      await page.getByRole('button', { name: 'Share' }).click();
      await toastWith(page, 'Link copied').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    });

    await step('a lot that is not found says so', async () => {
      await page.goto(`/auctions/${auction.id}/products/no-such-lot`);
      await page.getByText('This lot no longer exists').waitFor();
      await page.getByRole('link', { name: 'Browse Auctions' }).first().waitFor();
    });
  });
});
