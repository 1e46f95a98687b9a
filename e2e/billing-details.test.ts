/**
 * The bidder's billing details in a real Chromium (docs/invoices.md): a bidder opens Account from
 * the menu, a bad PIN is stopped before it is sent, then fills who invoices are made out to (a business
 * buyer with its GSTIN) and saves; after a reload the details are kept. Screenshots at 1280 and 375 px,
 * each checked with axe-core (`shot`).
 */
import type { Billing } from '@auction/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, loginViaUi, shot, step, toastWith, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

async function openFromMenu(page: Page, label: string, pathname: string) {
  const nav = page.getByRole('navigation', { name: 'User Portal' });
  const menu = page.getByRole('button', { name: 'Open menu' });
  await nav.or(menu).first().waitFor();
  if (!(await nav.isVisible())) await menu.click();
  await nav.getByRole('link', { name: label }).click();
  await waitForPath(page, pathname);
}

/** The page from its top, nothing focused: a full-page picture of a scrolled page draws the sticky header mid-way. */
async function fromTop(page: Page) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

describe('billing details', () => {
  it('a bidder fills in the billing details on Account and saves: kept after a reload', async () => {
    const { page, seed } = e2e;
    const bidder = await seed.user({ name: 'Asha Rao' });
    await loginViaUi(page, 'user', bidder.username, bidder.password);

    const card = page.getByRole('region', { name: 'Billing details' });
    await step('open Account: the billing details are empty', async () => {
      await openFromMenu(page, 'Account', '/user/account');
      await card.getByLabel('Name', { exact: true }).waitFor();
      await card.getByText(/Your invoices are made out to these details/).waitFor();
      expect(await card.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    });

    await step('a bad PIN and a GSTIN of another state are stopped before they are sent', async () => {
      await card.getByLabel('Name', { exact: true }).fill('Acme Traders');
      await card.getByLabel('Address line 1').fill('7 Residency Road');
      await card.getByLabel('City').fill('Bengaluru');
      await card.getByLabel('State').selectOption({ label: 'Karnataka (29)' });
      await card.getByLabel('PIN code').fill('56002');
      await card.getByLabel('GSTIN (optional)').fill('27aapfu0939f1zv');
      await card.getByRole('button', { name: 'Save billing details' }).click();
      await card.getByText('Enter a PIN code of 6 digits, e.g. 411001').waitFor();
      await card.getByText('GSTIN must begin with the state code of the address').waitFor();
      expect(await card.getByLabel('PIN code').getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('billing-address-pin');
      expect((await seed.call<Billing>('GET', '/me/billing', undefined, bidder.token)).name).toBeNull();
      await dismissToasts(page);
      await fromTop(page);
      await shot(page, 'account-billing-errors');
    });

    await step('fill them right and save', async () => {
      await card.getByLabel('PIN code').fill('560025');
      await card.getByLabel('Address line 2 (optional)').fill('Floor 3');
      await card.getByLabel('GSTIN (optional)').fill('29AAGCB7383J1Z4');
      await card.getByRole('button', { name: 'Save billing details' }).click();
      await toastWith(page, 'Billing details saved').waitFor();
      expect(await card.getByLabel('PIN code').getAttribute('aria-invalid')).toBeNull();
    });

    await step('after a reload the details are kept', async () => {
      await page.reload();
      await card.getByLabel('Name', { exact: true }).waitFor();
      await expect.poll(() => card.getByLabel('Name', { exact: true }).inputValue()).toBe('Acme Traders');
      expect(await card.getByLabel('Address line 1').inputValue()).toBe('7 Residency Road');
      expect(await card.getByLabel('Address line 2 (optional)').inputValue()).toBe('Floor 3');
      expect(await card.getByLabel('City').inputValue()).toBe('Bengaluru');
      expect(await card.getByLabel('PIN code').inputValue()).toBe('560025');
      expect(await card.getByLabel('State').inputValue()).toBe('29');
      expect(await card.getByLabel('GSTIN (optional)').inputValue()).toBe('29AAGCB7383J1Z4');
      await dismissToasts(page);
      await fromTop(page);
      await shot(page, 'account-billing');

      const billing = await seed.call<Billing>('GET', '/me/billing', undefined, bidder.token);
      expect(billing).toMatchObject({
        name: 'Acme Traders',
        address: { line1: '7 Residency Road', line2: 'Floor 3', city: 'Bengaluru', state_code: '29', pin: '560025' },
        gstin: '29AAGCB7383J1Z4',
      });
    });
  });
});
