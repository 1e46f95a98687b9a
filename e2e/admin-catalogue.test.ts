/**
 * The catalogue's admin side in a real Chromium: create a category and a subcategory on the
 * Categories page, import a CSV with a bad row and read that row named by line, fix it and import
 * again, then find the products with their categories on Manage Products (the unassigned list and
 * the paged All Products list, filtered through the URL). Every screen is screenshotted at 1280 and
 * 375 px and checked with axe-core (`shot`).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, loginViaUi, pathOf, shot, step, toastWith, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

async function openFromSidebar(page: Page, label: string, pathname: string) {
  const nav = page.getByRole('navigation', { name: 'Admin Portal' });
  const menu = page.getByRole('button', { name: 'Open menu' });
  // The shell first: the sidebar, or at narrow widths the button that opens it.
  await nav.or(menu).first().waitFor();
  if (!(await nav.isVisible())) await menu.click();
  await nav.getByRole('link', { name: label }).click();
  await waitForPath(page, pathname);
}

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

describe('admin catalogue', () => {
  it('creates a category, imports a CSV (a bad row named, then fixed) and finds the products with their category', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin({ name: 'Meera Iyer' });
    const tag = unique('g').replace(/[^a-z0-9]/gi, '').toLowerCase();
    const garden = `Garden ${tag}`;
    const planters = `Planters ${tag}`;
    const [p1, p2] = [unique('pot'), unique('urn')];

    await loginViaUi(page, 'admin', admin.username, admin.password);

    await step('create a category and a subcategory', async () => {
      await openFromSidebar(page, 'Categories', '/admin/categories');
      await page.getByRole('heading', { name: 'Add a category' }).waitFor();
      await page.getByLabel('Name').fill(garden);
      await page.getByRole('button', { name: 'Add Category' }).click();
      await toastWith(page, `Created “${garden}”`).waitFor();
      await page.getByRole('row').filter({ hasText: garden }).waitFor();
      await page.getByLabel('Name').fill(planters);
      await page.getByLabel('Parent').selectOption({ label: garden });
      await page.getByRole('button', { name: 'Add Category' }).click();
      await toastWith(page, `Created “${planters}”`).waitFor();
      await page.getByRole('row').filter({ hasText: planters }).getByText('Subcategory').waitFor();
      await dismissToasts(page);
      await shot(page, 'admin-categories');
    });

    const gardenSlug = `garden-${tag}`;
    const planterSlug = `planters-${tag}`;
    const header = 'id,name,description,category,starting_price,reserve_price,buy_now_price';

    await step('import a CSV with a bad row: the row is named, nothing is created', async () => {
      await openFromSidebar(page, 'Manage Products', '/admin/products');
      await page.getByText('No unassigned products').waitFor();
      await page.getByRole('button', { name: 'Import CSV' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import products' });
      await dialog.getByText(header, { exact: true }).waitFor();
      await dialog.getByTestId('import-file').setInputFiles(csvFile('garden.csv', [
        header,
        `${p1},Terracotta pot,"Hand-thrown, 30 cm",${planterSlug},250,,`,
        `${p2},Stone urn,Weathered granite,${gardenSlug},twelve,,`,
      ].join('\r\n')));
      const problems = dialog.getByRole('table');
      await problems.waitFor();
      await dialog.getByText('The file has 1 problem. Nothing was imported: fix it and import the file again.').waitFor();
      const row = problems.getByRole('row').nth(1);
      expect(await row.getByRole('cell').allTextContents()).toEqual(['3', 'starting_price', expect.stringContaining('starting_price')]);
      await shot(page, 'admin-products-import-problems');
      // Nothing was created.
      expect(await seed.call<unknown[]>('GET', '/admin/products/unassigned', undefined, admin.token)).toEqual([]);
    });

    await step('fix the row and import again', async () => {
      const dialog = page.getByRole('dialog', { name: 'Import products' });
      await dialog.getByTestId('import-file').setInputFiles(csvFile('garden-fixed.csv', [
        header,
        `${p1},Terracotta pot,"Hand-thrown, 30 cm",${planterSlug},250,,`,
        `${p2},Stone urn,Weathered granite,${gardenSlug},1200,,`,
      ].join('\r\n')));
      await dialog.getByRole('status').filter({ hasText: 'Imported 2 products' }).waitFor();
      await shot(page, 'admin-products-imported');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });
    });

    await step('the products appear with their category', async () => {
      await dismissToasts(page);
      await page.getByRole('tab', { name: 'Unassigned (2)' }).waitFor();
      await page.getByRole('row').filter({ hasText: 'Terracotta pot' }).getByText(planters).waitFor();
      await page.getByRole('row').filter({ hasText: 'Stone urn' }).getByText(garden).waitFor();
      await page.getByRole('tab', { name: /All Products/ }).click();
      await page.getByRole('tab', { name: 'All Products (2)' }).waitFor();
      await page.getByLabel('Show').selectOption('unassigned');
      await page.getByLabel('Search products by name').fill('urn');
      await page.waitForURL((url) => url.searchParams.get('q') === 'urn');
      expect(pathOf(page)).toBe('/admin/products?view=all&status=unassigned&q=urn');
      await page.getByRole('row').filter({ hasText: 'Stone urn' }).getByText(garden).waitFor();
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Terracotta pot' }).count()).toBe(0);
      await shot(page, 'admin-products-all');
      // The URL alone brings the same list back.
      await page.reload();
      await page.getByRole('row').filter({ hasText: 'Stone urn' }).waitFor();
      expect(await page.getByLabel('Search products by name').inputValue()).toBe('urn');
    });

    await step('the category page counts no open lots yet, and a category in use is not deleted', async () => {
      await openFromSidebar(page, 'Categories', '/admin/categories');
      await page.getByRole('button', { name: `Delete ${planters}` }).click();
      await page.getByRole('dialog', { name: 'Delete category' }).getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alert').filter({ hasText: `“${planters}” was not deleted.` }).waitFor();
      await shot(page, 'admin-categories-in-use');
    });

    await step('Users (the owner’s page) reads a page at a time, its search in the URL', async () => {
      const prefix = unique('pg');
      for (let i = 0; i < 26; i++) await seed.registerUser(`${prefix}${String(i).padStart(2, '0')}`, 'secret123', `Bidder ${i}`);
      await openFromSidebar(page, 'Users', '/admin/users');
      await page.getByLabel('Search users').fill(prefix);
      await page.waitForURL((url) => url.searchParams.get('q') === prefix);
      await page.getByText('Showing 24 users').waitFor();
      await shot(page, 'admin-users-paged');
      await page.getByRole('button', { name: 'Load more' }).click();
      await page.getByText('All users shown').waitFor();
      expect(await page.getByRole('row').filter({ hasText: prefix }).count()).toBe(26);
    });
  });
});
