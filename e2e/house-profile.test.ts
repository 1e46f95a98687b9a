/**
 * The house profile in a real Chromium (docs/invoices.md): a new admin opens House from the
 * sidebar and is told what settling needs, fills the seller of record and the address, adds a pickup
 * location and saves; after a reload the profile is kept and the banner is gone. Screenshots at 1280
 * and 375 px, each checked with axe-core (`shot`).
 */
import type { House } from '@auction/shared';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, loginViaUi, shot, step, toastWith, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

async function openFromSidebar(page: Page, label: string, pathname: string) {
  const nav = page.getByRole('navigation', { name: 'Admin Portal' });
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

const BANNER = 'Your invoices will need these: please fill in legal name, address';

describe('house profile', () => {
  it('an admin fills in the house, adds a pickup location and saves: kept after a reload, the banner gone', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin({ name: 'Kavya Rao' });
    // The server is this file's own (a fresh store): the prefix is free.
    const prefix = 'RAO';

    await loginViaUi(page, 'admin', admin.username, admin.password);

    await step('open House: the banner says what settling needs', async () => {
      await openFromSidebar(page, 'House', '/admin/house');
      await page.getByRole('heading', { level: 1, name: 'House Profile' }).waitFor();
      await page.getByRole('status').filter({ hasText: BANNER }).waitFor();
      await page.getByRole('region', { name: 'Seller of record' }).waitFor();
      await dismissToasts(page);
      await shot(page, 'admin-house-empty');
    });

    await step('a GSTIN with a wrong check character is stopped before it is sent', async () => {
      const seller = page.getByRole('region', { name: 'Seller of record' });
      await seller.getByLabel('GSTIN').fill('27aapfu0939f1zw');
      await page.getByRole('button', { name: 'Save house profile' }).click();
      await seller.getByText('GSTIN has a wrong check character: please check it for a typo').waitFor();
      expect(await seller.getByLabel('GSTIN').getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('house-gstin');
      expect((await seed.call<House>('GET', '/admin/house', undefined, admin.token)).updated_at).toBeNull();
    });

    await step('fill the seller of record and the address, add a pickup location, save', async () => {
      const seller = page.getByRole('region', { name: 'Seller of record' });
      await seller.getByLabel('Legal name').fill('Rao Auctions LLP');
      await seller.getByLabel('Display name').fill('Rao Auctions');
      await seller.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
      await seller.getByLabel('Invoice prefix').fill(prefix);
      const address = page.getByRole('region', { name: 'Address' });
      await address.getByLabel('Address line 1').fill('12 MG Road');
      await address.getByLabel('City').fill('Pune');
      await address.getByLabel('State').selectOption({ label: 'Maharashtra (27)' });
      await address.getByLabel('PIN code').fill('411001');
      const contact = page.getByRole('region', { name: 'Contact for buyers' });
      await contact.getByLabel('Phone').fill('+919812345678');
      await contact.getByLabel('Email').fill('sales@rao.example');
      const payout = page.getByRole('region', { name: 'Payout account' });
      await payout.getByLabel('Account holder').fill('Rao Auctions LLP');
      await payout.getByLabel('IFSC').fill('HDFC0001234');
      await payout.getByLabel('Account number').fill('001234567890');

      const pickup = page.getByRole('region', { name: 'Pickup locations' });
      await pickup.getByRole('button', { name: 'Add a pickup location' }).click();
      const location = pickup.getByRole('group', { name: '1. Pickup location 1' });
      await location.getByLabel('Name').fill('Pune warehouse');
      const warehouse = pickup.getByRole('group', { name: '1. Pune warehouse' });
      await warehouse.getByLabel('Address line 1').fill('4 Industrial Estate');
      await warehouse.getByLabel('City').fill('Pune');
      await warehouse.getByLabel('State').selectOption('27');
      await warehouse.getByLabel('PIN code').fill('411019');
      await warehouse.getByLabel('Opening hours (optional)').fill('Mon–Sat 10:00–18:00');
      await warehouse.getByLabel('Instructions for buyers (optional)').fill('Gate 2, bring your invoice');
      await fromTop(page);
      await shot(page, 'admin-house-filled');

      await page.getByRole('button', { name: 'Save house profile' }).click();
      await toastWith(page, 'House profile saved').waitFor();
      await expect.poll(() => page.getByText(BANNER).count()).toBe(0);
      // The form shows the server's answer: the account number masked.
      expect(await payout.getByLabel('Account number').inputValue()).toBe('••7890');
    });

    await step('after a reload the profile is kept and the banner gone', async () => {
      await page.reload();
      const seller = page.getByRole('region', { name: 'Seller of record' });
      await seller.waitFor();
      expect(await seller.getByLabel('Legal name').inputValue()).toBe('Rao Auctions LLP');
      expect(await seller.getByLabel('Invoice prefix').inputValue()).toBe(prefix);
      const address = page.getByRole('region', { name: 'Address' });
      expect(await address.getByLabel('Address line 1').inputValue()).toBe('12 MG Road');
      expect(await address.getByLabel('State').inputValue()).toBe('27');
      expect(await page.getByRole('region', { name: 'Payout account' }).getByLabel('Account number').inputValue()).toBe('••7890');
      const warehouse = page.getByRole('region', { name: 'Pickup locations' }).getByRole('group', { name: '1. Pune warehouse' });
      expect(await warehouse.getByLabel('PIN code').inputValue()).toBe('411019');
      expect(await warehouse.getByLabel('Instructions for buyers (optional)').inputValue()).toBe('Gate 2, bring your invoice');
      expect(await page.getByText(BANNER).count()).toBe(0);
      await fromTop(page);
      await shot(page, 'admin-house');

      const house = await seed.call<House>('GET', '/admin/house', undefined, admin.token);
      expect(house).toMatchObject({ legal_name: 'Rao Auctions LLP', invoice_prefix: prefix, missing: [], payout: { account_number: '••7890' } });
      expect(house.pickup_locations.map((l) => [l.name, l.address.pin, l.hours])).toEqual([['Pune warehouse', '411019', 'Mon–Sat 10:00–18:00']]);
    });
  });
});
