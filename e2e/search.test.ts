/**
 * Search in a real Chromium against the production server (docs/catalogue.md): the header's search box
 * suggests lots as a word is typed and opens one with the keyboard; Enter shows the Search page with the
 * results, which a category narrows (kept in the URL). At 375 px the box is a button that opens a search
 * row. Every page on the way is screenshotted at 1280 and 375 px and checked with axe-core (`shot`).
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS_DIR, loginViaUi, makePhoto, pathOf, shot, step, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

/** Presses ArrowDown until the option named `name` is the highlighted one, then Enter. */
async function openSuggestion(page: Page, name: string): Promise<void> {
  const box = page.getByRole('combobox', { name: 'Search lots' });
  const option = page.getByRole('option', { name: new RegExp(name) });
  await option.waitFor();
  const id = await option.getAttribute('id');
  for (let i = 0; i < 8; i += 1) {
    await box.press('ArrowDown');
    if ((await box.getAttribute('aria-activedescendant')) === id) break;
  }
  expect(await option.getAttribute('aria-selected')).toBe('true');
  await box.press('Enter');
}

describe('search', () => {
  it('suggests lots in the header, opens one with the keyboard, lists the results on Enter and narrows them by category', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    // A word no other test's lots use: the search finds only these.
    const word = unique('zephyr').replace(/[0-9]/g, '');
    const cap = word.charAt(0).toUpperCase() + word.slice(1);
    const lighting = (await seed.call<{ category: { id: number; slug: string } }>('POST', '/admin/categories', { name: 'Lighting' }, admin.token)).category;
    const clocks = (await seed.call<{ category: { id: number } }>('POST', '/admin/categories', { name: 'Clocks' }, admin.token)).category;
    const lamp = { id: unique('lamp'), name: `Brass ${cap} Lamp`, category_id: lighting.id, starting_price: 500, buy_now_price: 4000 };
    const clock = { id: unique('clock'), name: `${cap} Mantel Clock`, category_id: clocks.id, starting_price: 800 };
    const kettle = { id: unique('kettle'), name: 'Copper Kettle', category_id: null, starting_price: 100 };
    for (const p of [lamp, clock, kettle]) await seed.call('POST', '/admin/product', { description: `${p.name}, in good condition`, ...p }, admin.token);
    await seed.photo(admin, lamp.id, await makePhoto('Lamp', '#8a6d1f', 1200, 900), 'lamp.png');
    const auction = { id: unique('sale'), name: 'Spring House Sale' };
    await seed.call('POST', '/admin/auction', {
      ...auction, valid_until: new Date(Date.now() + 3 * 3600_000).toISOString(), product_ids: [lamp.id, clock.id, kettle.id],
    }, admin.token);
    await seed.topUp(me, 5000);
    await seed.register(me, auction.id);
    await seed.bid(me, clock.id, 900);

    await loginViaUi(page, 'user', me.username, me.password);
    const box = page.getByRole('combobox', { name: 'Search lots' });

    await step('typing a word in the header suggests its lots; the keyboard opens one', async () => {
      await box.click();
      await box.pressSequentially(word, { delay: 20 });
      await page.getByRole('option', { name: new RegExp(`Brass ${cap} Lamp`) }).waitFor();
      await page.getByRole('option', { name: new RegExp(`${cap} Mantel Clock.*₹900`) }).waitFor();
      expect(await page.getByRole('option', { name: /Copper Kettle/ }).count()).toBe(0);
      // The open list as it is (shot() resizes the page, and a field hidden at 375 px loses the focus).
      await page.screenshot({ path: path.join(SHOTS_DIR, 'search-suggestions-1280.png') });
      await openSuggestion(page, `Brass ${cap} Lamp`);
      await waitForPath(page, `/auctions/${auction.id}/products/${lamp.id}`);
      await page.getByRole('heading', { name: `Brass ${cap} Lamp` }).first().waitFor();
    });

    await step('Enter with nothing highlighted shows the Search page with the results', async () => {
      await box.click();
      await box.fill(word);
      await page.getByRole('option', { name: new RegExp(`Brass ${cap} Lamp`) }).waitFor();
      await box.press('Enter');
      await waitForPath(page, '/user/search');
      expect(pathOf(page)).toBe(`/user/search?q=${word}`);
      await page.getByRole('heading', { name: '2 lots' }).waitFor();
      const cards = page.locator('.lot-card');
      expect(await cards.count()).toBe(2);
      const lampCard = cards.filter({ hasText: `Brass ${cap} Lamp` });
      await lampCard.getByText('Starting bid').waitFor();
      await lampCard.getByText('Buy now ₹4,000').waitFor();
      await lampCard.getByText('Spring House Sale').waitFor();
      const cover = lampCard.locator('img');
      expect(await cover.getAttribute('src')).toMatch(/^(https?:\/\/[^/]+)?\/media\/[0-9a-f]+\.webp$/);
      await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      await lampCard.getByRole('link', { name: `Lot 1: Brass ${cap} Lamp` }).waitFor();
      const clockCard = cards.filter({ hasText: `${cap} Mantel Clock` });
      await clockCard.getByText('₹900').waitFor();
      await clockCard.getByText('1 bid').waitFor();
      await shot(page, 'search-page');
    });

    await step('a category narrows the results and goes into the URL', async () => {
      await page.getByLabel('Category').selectOption(lighting.slug);
      await page.getByRole('heading', { name: '1 lot' }).waitFor();
      expect(pathOf(page)).toBe(`/user/search?q=${word}&category=${lighting.slug}`);
      expect(await page.locator('.lot-card').count()).toBe(1);
      await page.locator('.lot-card').filter({ hasText: `Brass ${cap} Lamp` }).waitFor();
      await shot(page, 'search-page-category');
    });

    await step('at 375 px the header opens a search row; the keyboard opens a suggested lot', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto('/user/dashboard');
      const toggle = page.getByRole('button', { name: 'Search lots' });
      await toggle.waitFor();
      // The button leaves the page title its whole word.
      expect(await page.locator('.shell-title').evaluate((t) => t.scrollWidth <= t.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await toggle.click();
      await box.waitFor();
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      const { width } = (await box.boundingBox())!;
      expect(width).toBeGreaterThan(250);
      expect(width).toBeLessThanOrEqual(375);
      await box.pressSequentially(word, { delay: 20 });
      await page.getByRole('option', { name: new RegExp(`${cap} Mantel Clock`) }).waitFor();
      await page.screenshot({ path: path.join(SHOTS_DIR, 'search-header-row-375.png') });
      await openSuggestion(page, `${cap} Mantel Clock`);
      await waitForPath(page, `/auctions/${auction.id}/products/${clock.id}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });
  });
});
