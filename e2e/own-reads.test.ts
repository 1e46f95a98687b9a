/**
 * Our own pages read only what they show (docs/architecture.md, "The client"): the dashboard, My Bids,
 * Saved and a lot page, in a real Chromium against the production server, never ask for the whole
 * auction list (`GET /api/auctions`, the spec's route, about 1 MB compressed at 2,000 auctions), and
 * still show the right numbers: the dashboard's counts and newest auctions from a page of the catalogue,
 * My Bids' Cancel from each bid's own auction end, Saved's auction and time left from its own read.
 * Bids are read by their full `state` (an outbid bid is Outbid, not Failed as its `status` says).
 * AUTO_SETTLE is off so that an ended auction stays ended (not settled) while the pages are looked at.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loginViaUi, shot, step, unique, useE2E } from './browser.js';

const e2e = useE2E({ env: { AUTO_SETTLE: 'false' } });

/** The value of the stat card labelled `label`. */
function stat(page: Page, label: string) {
  return page.locator('.stat-card').filter({ has: page.getByText(label, { exact: true }) }).locator('.stat-value');
}

/** The API paths (no query) the page asks for from now on. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) paths.push(url.pathname);
  });
  return paths;
}

/** What the page asked for since `from` (an index into `asked`), and that none of it was the whole auction list. */
function expectNoWholeList(asked: string[], from: number, where: string) {
  const since = asked.slice(from);
  expect(since.length, `${where} asked for nothing`).toBeGreaterThan(0);
  expect(since.filter((p) => p === '/api/auctions'), `${where} asked for the whole auction list`).toEqual([]);
  return asked.length;
}

describe('our pages read only what they show', () => {
  it('dashboard, My Bids, Saved and a lot page: no GET /api/auctions, and the numbers as before', async () => {
    const { page, seed } = e2e;
    const admin = await seed.admin();
    const me = await seed.user({ name: 'Priya Nair' });
    const rival = await seed.user({ name: 'Rival Bidder' });
    for (const u of [me, rival]) await seed.topUp(u, 10_000);

    // Created first, ending in seconds: by the time the pages are looked at it has ended (not settled).
    const closing = { id: unique('closing'), name: 'Closing Clearance' };
    const crate = { id: unique('crate'), name: 'Tea Crate' };
    const closingEnd = Date.now() + 6_000;
    await seed.auction(admin, { ...closing, endsInMs: closingEnd - Date.now(), products: [crate] });
    await seed.register(me, closing.id);
    await seed.bid(me, crate.id, 50);

    // Ends within 24 hours: Active and Ending Soon.
    const soon = { id: unique('soon'), name: 'Evening Silverware' };
    const teapot = { id: unique('teapot'), name: 'Silver Teapot' };
    await seed.auction(admin, { ...soon, endsInMs: 2 * 3600_000, products: [teapot] });
    // Ends in three days: Active only; the newest auction.
    const later = { id: unique('later'), name: 'Weekend Rugs' };
    const rug = { id: unique('rug'), name: 'Kashan Rug' };
    await seed.auction(admin, { ...later, endsInMs: 3 * 24 * 3600_000, products: [rug] });

    for (const a of [soon, later]) await seed.register(me, a.id);
    await seed.register(rival, later.id);
    await seed.bid(me, teapot.id, 150);
    await seed.bid(me, rug.id, 200);
    // The rival outbids me on the rug: my bid's status is `failed` for the spec's clients, its state `outbid`.
    await seed.bid(rival, rug.id, 300);
    await seed.call('PUT', `/saved/${encodeURIComponent(teapot.id)}`, undefined, me.token);
    const mine = await seed.call<{ product_id: string; status: string; state: string }[]>('GET', '/user-bids', undefined, me.token);
    expect(mine.find((b) => b.product_id === rug.id)).toMatchObject({ status: 'failed', state: 'outbid' });

    // Wait out the closing auction's end.
    await new Promise((r) => setTimeout(r, Math.max(0, closingEnd - Date.now() + 500)));

    const asked = recordRequests(page);
    await loginViaUi(page, 'user', me.username, me.password);
    let seen = 0;

    await step('the dashboard: counts, Recent Auctions newest first, the bids that did not fail', async () => {
      await page.goto('/user/dashboard');
      await page.getByRole('heading', { name: 'Welcome, Priya Nair' }).waitFor();
      await expect.poll(() => stat(page, 'Active Auctions').textContent()).toBe('2');
      expect(await stat(page, 'Ending Soon').textContent()).toBe('1');
      expect(await stat(page, 'Registered Auctions').textContent()).toBe('3');
      // Three bids, none refused; the one on the rug was outbid (not failed), two lead.
      expect(await stat(page, 'My Bids').textContent()).toBe('3');
      await page.getByText('2 active', { exact: true }).waitFor();
      const recent = page.getByRole('region', { name: 'Recent Auctions' }).getByRole('listitem');
      seen = expectNoWholeList(asked, seen, 'the dashboard');
      // The newest open auctions, newest first (the ended one is not open).
      await expect.poll(() => recent.allTextContents()).toEqual([expect.stringContaining(later.name), expect.stringContaining(soon.name)]);
      await shot(page, 'own-reads-dashboard');
    });

    await step('My Bids: Outbid read from the state, Cancel only where the auction is open', async () => {
      await page.goto('/user/bids');
      const row = (name: string) => page.getByRole('row').filter({ hasText: name });
      await row(rug.name).getByText('Outbid').waitFor();
      expect(await stat(page, 'Total Bids').textContent()).toBe('3');
      expect(await stat(page, 'Active Bids').textContent()).toBe('2');
      expect(await stat(page, 'Failed / Cancelled').textContent()).toBe('0');
      expect(await stat(page, 'Total Amount').textContent()).toBe('₹200');
      await row(teapot.name).getByRole('button', { name: /Cancel bid/ }).waitFor();
      // Leading, but its auction has ended: no Cancel.
      await row(crate.name).getByText('Active').waitFor();
      expect(await row(crate.name).getByRole('button').count()).toBe(0);
      await row(crate.name).getByText('N/A').waitFor();
      seen = expectNoWholeList(asked, seen, 'My Bids');
      await shot(page, 'own-reads-my-bids');
    });

    await step('Saved: the lot with its auction and the time left', async () => {
      await page.goto('/user/saved');
      const saved = page.getByTestId(`saved-${teapot.id}`);
      await saved.getByText(soon.name).waitFor();
      await saved.getByText(/^Ends in /).waitFor();
      await saved.getByText("You're the highest bidder").waitFor();
      seen = expectNoWholeList(asked, seen, 'Saved');
    });

    await step('a lot page: its auction, registered, and the bid form opens', async () => {
      await page.goto(`/auctions/${soon.id}/products/${teapot.id}`);
      await page.getByRole('heading', { name: teapot.name, level: 2 }).waitFor();
      await page.locator('.lot-auction-name').getByText(soon.name).waitFor();
      await page.locator('.lot-summary').getByText("You're the highest bidder").waitFor();
      const bid = page.getByRole('button', { name: 'Place Bid', exact: true });
      await expect.poll(() => bid.isEnabled()).toBe(true);
      await bid.click();
      await page.getByRole('dialog', { name: 'Place Bid' }).waitFor();
      expectNoWholeList(asked, seen, 'the lot page');
    });
  });
});
