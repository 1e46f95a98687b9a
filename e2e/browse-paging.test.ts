/**
 * Browse a page at a time in a real Chromium against the production server (docs/catalogue.md): more
 * auctions than one page holds, paged through with the keyboard alone (Tab to "Load more", Enter) and by
 * scrolling, filtered by a category (kept in the URL), on a phone too; and a card's highest bid moving
 * live when a rival bids. Screenshots at 1280 and 375 px, each checked with axe-core (`shot`).
 */
import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { DESKTOP, loginViaUi, shot, step, unique, useE2E, type Account, type E2E } from './browser.js';

const e2e = useE2E();

const AUCTIONS = 30;
const PAGE = 24;

/** `count` auctions ending an hour apart, one lot each; every third lot in `categoryId`. */
async function seedCatalogue({ seed }: E2E, admin: Account, count: number, categoryId: number) {
  const tag = unique('b');
  const auctions: { id: string; name: string; productId: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const productId = `${tag}-p${i}`;
    await seed.call('POST', '/admin/product', {
      id: productId, name: i % 3 === 0 ? `Brass lamp ${i + 1}` : `Teak chair ${i + 1}`, description: 'In good condition',
      starting_price: 100, ...(i % 3 === 0 ? { category_id: categoryId } : {}),
    }, admin.token);
    const id = `${tag}-a${String(i).padStart(2, '0')}`;
    const name = `Estate Sale ${i + 1}`;
    await seed.call('POST', '/admin/auction', { id, name, valid_until: new Date(Date.now() + (i + 1) * 3600_000).toISOString(), product_ids: [productId] }, admin.token);
    auctions.push({ id, name, productId });
  }
  return auctions;
}

/** Whether the server answers `catalogue:watch` (the live half of Browse's cards). */
async function serverSendsCards(baseUrl: string, token: string): Promise<boolean> {
  const socket = io(baseUrl, { auth: { token }, transports: ['websocket'], reconnection: false });
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 3000);
      socket.on('connect', () => {
        socket.emit('catalogue:watch', [], (res: { status?: string }) => {
          clearTimeout(timer);
          resolve(res.status === 'ok');
        });
      });
      socket.on('connect_error', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  } finally {
    socket.disconnect();
  }
}

describe('Browse, a page at a time', () => {
  it('pages through with the keyboard and by scrolling, filters by a category, and fits a phone', async () => {
    const { page, seed, context } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const { category } = await seed.call<{ category: { id: number } }>('POST', '/admin/categories', { name: 'Lighting' }, admin.token);
    const auctions = await seedCatalogue(e2e, admin, AUCTIONS, category.id);
    const cards = page.locator('article.auc-card');
    const loadMore = page.getByRole('button', { name: 'Load more' });

    await step('the first page, with the tabs’ counts', async () => {
      // The keyboard alone pages this tab: no infinite scroll to read the next page first.
      await page.addInitScript(() => { Reflect.deleteProperty(window, 'IntersectionObserver'); });
      await loginViaUi(page, 'user', me.username, me.password);
      await page.goto('/user/auctions');
      await cards.nth(PAGE - 1).waitFor();
      expect(await cards.count()).toBe(PAGE);
      await page.getByRole('tab', { name: /^Active/ }).getByText(String(AUCTIONS)).waitFor();
      await page.getByText(`Showing ${PAGE} of ${AUCTIONS} auctions`).waitFor();
      await shot(page, 'browse-first-page');
    });

    await step('Tab to Load more, Enter: the next page joins the list and the focus stays on the page', async () => {
      await cards.nth(PAGE - 1).getByRole('button', { name: 'View Products' }).focus();
      await page.keyboard.press('Tab');
      expect(await loadMore.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await cards.nth(AUCTIONS - 1).waitFor();
      expect(await cards.count()).toBe(AUCTIONS);
      const names = await cards.locator('h3').allTextContents();
      expect(new Set(names).size).toBe(AUCTIONS);
      expect(names.at(-1)).toBe(auctions.at(-1)?.name);
      // The last page: the button gave way to a line that holds the focus, and Tab goes on from there.
      const end = page.getByText(`All ${AUCTIONS} auctions shown`);
      await expect.poll(() => end.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('View Products');
    });

    await step('scrolling to the end reads the next page by itself', async () => {
      const other = await context.newPage();
      await other.setViewportSize(DESKTOP);
      await other.goto('/user/auctions');
      const list = other.locator('article.auc-card');
      await list.nth(PAGE - 1).waitFor();
      await list.nth(PAGE - 1).scrollIntoViewIfNeeded();
      await list.nth(AUCTIONS - 1).waitFor();
      expect(await list.count()).toBe(AUCTIONS);
      await other.close();
    });

    await step('a category narrows the list, in the URL; back returns to all', async () => {
      await page.getByLabel('Category').selectOption('lighting');
      await page.waitForURL((url) => url.searchParams.get('category') === 'lighting');
      await expect.poll(() => cards.count()).toBe(AUCTIONS / 3);
      expect(await cards.first().locator('h3').textContent()).toBe(auctions[0]?.name);
      // Its lot shows its number and category.
      await cards.first().getByRole('button', { name: 'View Products' }).click();
      const row = page.locator('li.auc-product').filter({ hasText: 'Brass lamp 1' });
      await row.getByText('Lot 1', { exact: true }).waitFor();
      await row.getByText('Lighting', { exact: true }).waitFor();
      await shot(page, 'browse-category');
      await page.goBack();
      await page.waitForURL((url) => !url.searchParams.has('category'));
      await expect.poll(() => cards.count()).toBeGreaterThanOrEqual(PAGE);
    });

    await step('on a phone the filters fold under "Filters"; the same choice works there', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto('/user/auctions');
      await cards.first().waitFor();
      const category = page.getByLabel('Category');
      expect(await category.isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Filters' }).click();
      await category.selectOption('lighting');
      await expect.poll(() => cards.count()).toBe(AUCTIONS / 3);
      // Nothing wider than the phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await shot(page, 'browse-phone-filters');
      await page.setViewportSize(DESKTOP);
    });
  });

  // The live half (the server's `catalogue:watch` and `catalogue:card`) is built alongside this page: it
  // runs wherever the server answers `catalogue:watch`, and is skipped (saying why) where it does not yet.
  it('a card’s highest bid moves live when a rival bids', async (ctx) => {
    const { page, seed, server } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const rival = await seed.user({ name: 'Rival Bidder' });
    if (!(await serverSendsCards(server.url, me.token))) ctx.skip(true, 'the server does not answer catalogue:watch yet');
    const auction = { id: unique('live'), name: 'Live Card Sale' };
    const lot = { id: unique('lot'), name: 'Copper kettle', starting_price: 100 };
    await seed.auction(admin, { ...auction, endsInMs: 3600_000, products: [lot] });
    await seed.topUp(rival, 5000);
    await seed.register(rival, auction.id);

    await step('the card shows no bid, then the rival’s bid arrives live', async () => {
      await loginViaUi(page, 'user', me.username, me.password);
      await page.goto('/user/auctions');
      const card = page.locator('article.auc-card').filter({ hasText: auction.name });
      await card.getByText('No bids yet').waitFor();
      await seed.bid(rival, lot.id, 250);
      await card.getByText('Highest bid ₹250').waitFor();
      await card.getByText('1 bid', { exact: true }).waitFor();
    });
  });
});
