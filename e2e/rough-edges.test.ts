/**
 * The rough edges a new bidder met, in a real Chromium against the production server, each page
 * screenshotted at 1280 and 375 px and checked with axe-core (`shot`): sign-up explains its rules
 * before they fail, says what is wrong in plain words under the field and signs the bidder in; a new
 * page opens at its top; Browse keeps its view counts on phones and shows no empty panel under the
 * cards; the lot page keeps Place Bid in view on a phone; an end within the hour shows its seconds; the
 * bid dialog says when a maximum lifts the price to the reserve; Saved names the auction and the time
 * left; toasts do not pile up.
 */
import { describe, expect, it } from 'vitest';
import { shot, step, unique, useE2E } from './browser.js';

const e2e = useE2E();

describe('rough edges, as a new bidder meets them', () => {
  it('sign-up, scroll, Browse on a phone, the lot page bar, end seconds, the reserve note, Saved and toasts', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const auction = { id: unique('lamps'), name: 'Brass Lamps' };
    const lamp = { id: unique('lamp'), name: 'Railway Lantern' };
    const others = Array.from({ length: 12 }, (_, i) => ({ id: unique(`oil${i}`), name: `Oil Lamp ${i + 1}`, starting_price: 100 }));
    // Ends within the hour: its end time is shown to the second.
    await seed.auction(admin, { ...auction, endsInMs: 40 * 60_000, products: [{ ...lamp, starting_price: 500, reserve_price: 2000 }, ...others] });
    const username = unique('newbie');

    await step('sign-up shows its rules first, refuses in plain words under the field, then signs the bidder in', async () => {
      await page.goto('/user/register');
      await page.getByText('At least 6 characters').waitFor();
      await page.getByLabel('Full Name').fill('Nisha Verma');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Mobile Number').fill('12ab');
      await page.getByLabel('Password').fill('abc');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.getByText('Enter 7 to 15 digits; a leading + is fine').waitFor();
      expect(await page.getByText(/mobile_number|must match|pattern/).count()).toBe(0);
      await shot(page, 'rough-register-errors');
      await page.getByLabel('Mobile Number').fill('+91 98765-43210');
      await page.getByLabel('Password').fill('secret123');
      await page.getByRole('button', { name: 'Register' }).click();
      await page.waitForURL((url) => url.pathname === '/user/dashboard');
      await page.getByText('Registration successful! You are signed in.').waitFor();
    });

    const me = { username, password: 'secret123', token: '' };
    await step('a wallet and the auction, through the pages', async () => {
      const login = await seed.call<{ token: string }>('POST', '/login', { username, password: me.password });
      me.token = login.token;
      await seed.call('POST', '/wallet/topup', { amount: 5000 }, me.token);
      await seed.call('POST', '/auctions/register', { auction_id: auction.id }, me.token);
    });

    await step('Browse on a phone: the view tabs keep their counts, and no empty panel sits under the cards', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto('/user/auctions');
      const active = page.getByRole('tab', { name: /^Active/ });
      await active.waitFor();
      await page.locator('.auc-card').filter({ hasText: auction.name }).waitFor();
      // The counts come with the first page of cards.
      await expect.poll(() => active.textContent()).toMatch(/\d/);
      expect(await page.getByText('Select an Auction').isVisible()).toBe(false);
      await shot(page, 'rough-browse');
    });

    await step('a new page opens at its top', async () => {
      await page.setViewportSize({ width: 1280, height: 500 });
      await page.locator('.auc-card').filter({ hasText: auction.name }).getByRole('button', { name: 'View Products' }).click();
      await page.getByRole('heading', { name: 'Oil Lamp 12' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
      await page.getByRole('link', { name: 'Saved' }).first().click();
      await page.waitForURL((url) => url.pathname === '/user/saved');
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    });

    await step('the lot page on a phone keeps Place Bid in view, and the end within the hour shows its seconds', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`/auctions/${auction.id}/products/${lamp.id}`);
      const bid = page.getByRole('button', { name: 'Place Bid' });
      await bid.waitFor();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const box = await bid.boundingBox();
      expect(box && box.y + box.height).toBeLessThanOrEqual(800);
      expect(box && box.y).toBeGreaterThanOrEqual(0);
      // "27 Nov 2026, 4:15:07 am": hours, minutes and seconds.
      expect(await page.locator('.lot-timing').textContent()).toMatch(/\d{1,2}:\d{2}:\d{2}/);
      await shot(page, 'rough-lot-page');
    });

    await step('the bid dialog says a maximum that reaches the reserve lifts the price to it', async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: 'Place Bid' }).click();
      const dialog = page.getByRole('dialog', { name: 'Place Bid' });
      await dialog.getByText(/a maximum that reaches it lifts the price straight to the reserve/).waitFor();
      await shot(page, 'rough-bid-dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    await step('Saved names the auction and the time left; toasts do not pile up', async () => {
      const star = page.getByRole('button', { name: `Save ${lamp.name}` });
      await star.click();
      await page.getByRole('button', { name: `Saved: ${lamp.name} (remove)` }).waitFor();
      await page.goto('/user/saved');
      const row = page.getByRole('row').filter({ hasText: lamp.name }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain(auction.name);
      expect(await row.textContent()).toMatch(/Ends in \d+m/);
      expect(await row.textContent()).not.toContain(auction.id);
      await shot(page, 'rough-saved');
      // Share five times in a row: one toast of those words, never a stack of them.
      await page.goto(`/auctions/${auction.id}/products/${lamp.id}`);
      const share = page.getByRole('button', { name: /Share/ });
      for (let i = 0; i < 5; i++) await share.click();
      await page.locator('.toast').first().waitFor();
      expect(await page.locator('.toast').count()).toBeLessThanOrEqual(3);
      expect(await page.locator('.toast').filter({ hasText: /Link copied|Copy this link/ }).count()).toBeLessThanOrEqual(1);
    });
  }, 120_000);
});
