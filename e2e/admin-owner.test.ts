/**
 * The platform owner's admin pages in a real Chromium: Users with real data, a
 * deactivation that locks the bidder out at once, Settings that really saves, Reports with revenue
 * from a settled sale and both CSV exports, and Manage Products add/edit/delete through the UI.
 * The owner is the first admin registered on this file's fresh server.
 * Every page and dialog on the way is screenshotted at 1280 and 375 px and checked with axe-core (`shot`).
 */
import fs from 'node:fs';
import type { Download, Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, DESKTOP, SeedError, dismissToasts, loginViaUi, shot, step, toastWith, unique, useE2E, waitForPath } from './browser.js';

const e2e = useE2E();

const stat = (page: Page, label: string) =>
  page.locator('.stat-card').filter({ has: page.getByText(label, { exact: true }) }).locator('.stat-value');

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all<[Promise<Download>, Promise<void>]>([page.waitForEvent('download'), click()]);
  const text = fs.readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  return { name: download.suggestedFilename(), lines: text.split(/\r\n/) };
}

describe('platform owner', () => {
  let owner: Account;
  let other: Account;
  let blocked: Account;
  const auctionId = unique('sold');
  const productId = unique('lamp');

  beforeAll(async () => {
    const { seed } = e2e;
    owner = await seed.admin({ name: 'Olivia Owner' });
    other = await seed.admin({ name: 'Second Admin' });
    blocked = await seed.user({ name: 'Bharat Blocked' });

    // A sale that settles: a short auction, one registered bidder with a winning bid.
    const buyer = await seed.user({ name: 'Kavya Buyer' });
    await seed.auction(owner, { id: auctionId, name: 'Brass Lamps', endsInMs: 4000, products: [{ id: productId, name: 'Brass Lamp' }] });
    await seed.topUp(buyer, 5000);
    await seed.register(buyer, auctionId);
    await seed.bid(buyer, productId, 1200);
    // Settled by the server when it ends (AUTO_SETTLE), or by the owner's call once it has ended.
    for (let i = 0; ; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      try {
        await seed.call('POST', `/admin/auction/${auctionId}/settle`, undefined, owner.token);
        break;
      } catch (err) {
        if (err instanceof SeedError && (err.body as { code?: string }).code === 'AUCTION_SETTLED') break;
        if (i > 15) throw err;
      }
    }
  });

  it('Users: real bidders for the owner; a deactivation locks the bidder out at once', async () => {
    const { page, seed } = e2e;
    await step('the owner signs in and opens Users from the sidebar', async () => {
      await loginViaUi(page, 'admin', owner.username, owner.password);
      // Desktop width: the sidebar is open; the owner's sidebar lists Users.
      await page.getByRole('navigation', { name: 'Admin Portal' }).getByRole('link', { name: 'Users' }).click();
      await waitForPath(page, '/admin/users');
    });

    const row = page.getByRole('row').filter({ hasText: `@${blocked.username}` });
    await step('the seeded bidders are listed with the numbers', async () => {
      await row.getByText('Bharat Blocked').waitFor();
      await row.getByText('Active', { exact: true }).waitFor();
      await stat(page, 'Total Users').filter({ hasText: /^2$/ }).waitFor();
      await stat(page, 'Active').filter({ hasText: /^2$/ }).waitFor();
      await shot(page, 'admin-users');
    });

    await step('search narrows the table on the server', async () => {
      await page.getByLabel('Search users').fill('kavya');
      await page.getByRole('row').filter({ hasText: 'Kavya Buyer' }).waitFor();
      await expect.poll(() => page.getByRole('row').count()).toBe(2);
      await page.getByLabel('Search users').fill('');
      await row.waitFor();
    });

    await step('deactivating asks first, then marks them Inactive', async () => {
      await row.getByRole('button', { name: /^Deactivate/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Deactivate user' });
      await dialog.getByText(`Deactivate Bharat Blocked (@${blocked.username})?`).waitFor();
      await shot(page, 'admin-users-deactivate-confirm');
      await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
      await toastWith(page, 'Bharat Blocked deactivated').waitFor();
      await row.getByText('Inactive', { exact: true }).waitFor();
      await stat(page, 'Inactive').filter({ hasText: /^1$/ }).waitFor();
      await dismissToasts(page);
      await shot(page, 'admin-users-inactive');
    });

    await step('the bidder’s next request is refused and they cannot log in', async () => {
      const res = await fetch(e2e.url('/api/wallet'), { method: 'POST', headers: { authorization: `Bearer ${blocked.token}`, 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).toBe(401);
      const login = await fetch(e2e.url('/api/login'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: blocked.username, password: blocked.password }) });
      expect(login.status).toBe(403);
      expect(((await login.json()) as { code: string }).code).toBe('ACCOUNT_INACTIVE');
    });

    await step('reactivating lets them log in again', async () => {
      await row.getByRole('button', { name: /^Activate/ }).click();
      await toastWith(page, 'Bharat Blocked activated').waitFor();
      await row.getByText('Active', { exact: true }).waitFor();
      await seed.call('POST', '/login', { username: blocked.username, password: blocked.password });
    });

    await step('Export Users downloads users.csv with the bidders', async () => {
      await dismissToasts(page); // the toasts sit over the toolbar's corner
      const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export Users' }).click());
      expect(csv.name).toBe('users.csv');
      expect(csv.lines[0]).toBe('id,name,username,mobile_number,wallet_balance,auctions_registered,status,created_at');
      expect(csv.lines.some((l) => l.includes(`,Bharat Blocked,${blocked.username},`) && l.includes(',active,'))).toBe(true);
    });
  });

  it('Users: another admin sees the owner-only page', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'admin', other.username, other.password);
    const nav = page.getByRole('navigation', { name: 'Admin Portal' });
    await nav.getByRole('link', { name: 'Reports' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await page.goto('/admin/users');
    await page.getByRole('heading', { name: 'Only the platform owner can manage users' }).waitFor();
    await shot(page, 'admin-users-forbidden');
  });

  it('Settings: the profile really saves and survives a reload; the system panel shows the server', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'admin', owner.username, owner.password);
    await page.goto('/admin/settings');
    const name = page.getByLabel('Full Name');
    await step('the form and the system settings load', async () => {
      await expect.poll(() => name.inputValue()).toBe('Olivia Owner');
      expect(await page.getByLabel('Username').getAttribute('readonly')).not.toBeNull();
      const panel = page.getByRole('region', { name: 'System Settings' });
      await panel.getByText('Asia/Kolkata').waitFor();
      await panel.getByText('30 ms').waitFor();
      await shot(page, 'admin-settings');
    });
    await step('Update Profile saves and the header follows', async () => {
      await name.fill('Olivia Founder');
      await page.getByLabel('Mobile Number').fill('+919812345678');
      await page.getByRole('button', { name: 'Update Profile' }).click();
      await toastWith(page, 'Profile updated successfully!').waitFor();
      await page.locator('.shell-name').filter({ hasText: 'Olivia Founder' }).waitFor();
    });
    await step('after a reload the header and the form keep the new name', async () => {
      await page.reload();
      await page.locator('.shell-name').filter({ hasText: 'Olivia Founder' }).waitFor();
      await expect.poll(() => page.getByLabel('Full Name').inputValue()).toBe('Olivia Founder');
      expect(await page.getByLabel('Mobile Number').inputValue()).toBe('+919812345678');
    });
    await step('the password checks speak before the server', async () => {
      await page.getByLabel('Current Password').fill(owner.password);
      await page.getByLabel('New Password', { exact: true }).fill('abcdef');
      await page.getByLabel('Confirm New Password').fill('abcdeg');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('New passwords do not match').waitFor();
      await shot(page, 'admin-settings-password-refused');
    });
  });

  it('Reports: revenue from the settled sale and both CSV exports', async () => {
    const { page } = e2e;
    await loginViaUi(page, 'admin', owner.username, owner.password);
    await page.goto('/admin/reports');
    await step('the numbers and the auction row', async () => {
      await stat(page, 'Revenue').filter({ hasText: '₹1,200' }).waitFor();
      await stat(page, 'Total Auctions').filter({ hasText: /^1$/ }).waitFor();
      const row = page.getByRole('row').filter({ hasText: 'Brass Lamps' });
      await row.getByText('Settled').waitFor();
      expect(await row.getByRole('link', { name: auctionId }).getAttribute('href')).toBe(`/admin/auctions/${auctionId}`);
      await page.getByRole('img', { name: /Brass Lamps: revenue ₹1,200/ }).waitFor();
      await shot(page, 'admin-reports');
    });
    await step('Export CSV on Auction Reports', async () => {
      await dismissToasts(page);
      const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
      expect(csv.name).toBe('auctions-report.csv');
      expect(csv.lines[0]).toBe('id,name,valid_until,status,product_count,bid_count,revenue,pending');
      expect(csv.lines[1]).toMatch(new RegExp(`^${auctionId},Brass Lamps,.*,settled,1,1,1200,0$`));
      await toastWith(page, 'CSV file generated.').waitFor();
    });
    await step('Export CSV on Product Reports', async () => {
      await dismissToasts(page);
      await page.getByRole('tab', { name: /Product Reports/ }).click();
      await page.getByRole('row').filter({ hasText: 'Brass Lamp' }).getByText('Sold').waitFor();
      await shot(page, 'admin-reports-products');
      const csv = await downloaded(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
      expect(csv.name).toBe('products-report.csv');
      expect(csv.lines[1]).toBe(`${productId},Brass Lamp,"Brass Lamp, in good condition",sold,${auctionId},1,1200`);
      await toastWith(page, 'CSV file generated.').waitFor();
    });
  });

  it('Manage Products: add, edit and delete through the UI', async () => {
    const { page } = e2e;
    const id = unique('vase');
    await loginViaUi(page, 'admin', owner.username, owner.password);
    await page.goto('/admin/products');
    await step('the empty unassigned tab and the add form’s message', async () => {
      await page.getByText('No unassigned products').waitFor();
      await page.getByRole('button', { name: 'Add Product' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Product' });
      await dialog.getByLabel('Name').fill('Glass Vase');
      await dialog.getByRole('button', { name: 'Add Product' }).click();
      await dialog.getByText('Please fill all fields').waitFor();
      await shot(page, 'admin-products-add-refused');
      await dialog.getByLabel('Product ID').fill(id);
      await dialog.getByLabel('Description').fill('Hand-blown, blue');
      await dialog.getByRole('button', { name: 'Add Product' }).click();
      await toastWith(page, 'Product created').waitFor();
      // The product exists now: the dialog offers its photos. A real PNG goes up and comes back as the cover.
      const photos = page.getByRole('dialog', { name: 'Add Photos' });
      // The toast covers none of the dialog's actions.
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 560 });
        const [toastBox, doneBox] = [await toastWith(page, 'Product created').boundingBox(), await photos.getByRole('button', { name: 'Done', exact: true }).boundingBox()];
        const apart = toastBox!.x + toastBox!.width <= doneBox!.x || doneBox!.x + doneBox!.width <= toastBox!.x
          || toastBox!.y + toastBox!.height <= doneBox!.y || doneBox!.y + doneBox!.height <= toastBox!.y;
        expect(apart, `the toast covers Done at ${width} px`).toBe(true);
      }
      await page.setViewportSize(DESKTOP);
      const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 200 } } }).png().toBuffer();
      // A refused upload keeps its preview beside the reason: the chosen file itself (a blob: URL, which
      // the page's Content-Security-Policy allows), not a broken image.
      await page.route('**/api/admin/products/*/images', (route) => route.fulfill({
        status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Not an image: JPEG, PNG or WebP only', message: 'Not an image: JPEG, PNG or WebP only', code: 'VALIDATION' }),
      }), { times: 1 });
      await photos.getByLabel('Photo files').setInputFiles({ name: 'refused.png', mimeType: 'image/png', buffer: png });
      const refused = photos.getByTestId('photo-upload').filter({ hasText: 'refused.png' });
      await refused.getByRole('alert').waitFor();
      await expect.poll(() => refused.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1200);
      // A file that is no picture at all shows an image icon in its place.
      await photos.getByLabel('Photo files').setInputFiles({ name: 'notes.png', mimeType: '', buffer: Buffer.from('not a picture') });
      const notes = photos.getByTestId('photo-upload').filter({ hasText: 'notes.png' });
      await notes.getByRole('alert').waitFor();
      await notes.getByTestId('preview-unavailable').waitFor();
      await shot(page, 'admin-products-photos-refused');
      for (const name of ['refused.png', 'notes.png']) await photos.getByRole('button', { name: `Dismiss ${name}` }).click();
      await photos.getByLabel('Photo files').setInputFiles({ name: 'vase.png', mimeType: 'image/png', buffer: png });
      await photos.getByRole('img', { name: 'Photo 1' }).waitFor();
      await photos.getByText('Cover', { exact: true }).first().waitFor();
      await shot(page, 'admin-products-photos');
      await photos.getByRole('button', { name: 'Done', exact: true }).click();
      await page.getByRole('row').filter({ hasText: id }).getByText('Available').waitFor();
      await page.getByRole('tab', { name: 'Unassigned (1)' }).waitFor();
    });
    await step('the By Auction tab shows the sold product', async () => {
      await page.getByRole('tab', { name: 'By Auction (1)' }).click();
      await page.getByRole('row').filter({ hasText: 'Brass Lamp' }).getByText('Sold').waitFor();
      await shot(page, 'admin-products-auction');
      await page.getByRole('tab', { name: /Unassigned/ }).click();
    });
    await step('edit', async () => {
      await dismissToasts(page);
      await page.getByRole('button', { name: 'Edit Glass Vase' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Product' });
      await dialog.getByLabel('Name').fill('Cobalt Vase');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await toastWith(page, 'Product updated').waitFor();
      await page.getByRole('row').filter({ hasText: 'Cobalt Vase' }).waitFor();
      await shot(page, 'admin-products');
    });
    await step('delete after the confirmation', async () => {
      await page.getByRole('button', { name: 'Delete Cobalt Vase' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Delete product?').waitFor();
      await shot(page, 'admin-products-delete-confirm');
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await toastWith(page, 'Deleted').waitFor();
      await page.getByText('No unassigned products').waitFor();
    });
  });
});
