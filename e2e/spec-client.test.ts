/**
 * The spec's own client in Chromium: a page that knows only the spec's fields and rules (spec §4, §7):
 * it bids by product name with `user_id` as the username, labels a bid by `status` alone (success →
 * Active, failed → Failed, rolledback → Cancelled, anything else → Failed), sums an admin's revenue over
 * `success` bids, and edits an auction with a datetime-local input filled from the first 16 characters
 * of `valid_until`. A won bid must read Active, the revenue must survive settling, and saving the edit
 * form again and again must keep the end (docs/money.md#bid-statuses-on-the-wire, docs/money.md#times).
 */
import { describe, expect, it } from 'vitest';
import { unique, useE2E } from './browser.js';

const e2e = useE2E();

/** The spec client: plain DOM and fetch, same origin as the API, the token in localStorage as the spec keeps it. */
const SPEC_CLIENT = `<!doctype html><html><head><meta charset="utf-8"><title>Spec client</title></head><body>
<form id="login"><input name="username"><input name="password" type="password"><button>Login</button></form>
<form id="bid"><input name="product_name"><input name="bid_amount" type="number"><button>Place Bid</button></form>
<p id="message"></p>
<button id="load-bids">Refresh</button><table><tbody id="bids"></tbody></table>
<form id="revenue"><input name="product_key"><button>Revenue</button></form><p id="revenue-total"></p>
<form id="edit"><input name="id"><button id="open-edit">Edit</button></form>
<form id="edit-auction" hidden><input name="name"><input name="valid_until" type="datetime-local"><button>Save</button></form>
<script>
const token = () => localStorage.getItem('token') || localStorage.getItem('admin_token');
async function call(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token()) headers.authorization = 'Bearer ' + token();
  const res = await fetch('/api' + path, { method, headers, credentials: 'include', body: body === undefined ? undefined : JSON.stringify(body) });
  return res.json();
}
const LABEL = { success: 'Active', failed: 'Failed', rolledback: 'Cancelled' };
const form = (id) => Object.fromEntries(new FormData(document.getElementById(id)));
document.getElementById('login').onsubmit = async (e) => {
  e.preventDefault();
  const r = await call('POST', '/login', form('login'));
  localStorage.setItem('token', r.token);
  localStorage.setItem('user', JSON.stringify(r.user));
  document.getElementById('message').textContent = 'Login successful!';
};
document.getElementById('bid').onsubmit = async (e) => {
  e.preventDefault();
  const f = form('bid');
  const user = JSON.parse(localStorage.getItem('user'));
  const r = await call('POST', '/bid', { product_name: f.product_name, bid_amount: Number(f.bid_amount), user_id: user.username });
  document.getElementById('message').textContent = r.message;
};
document.getElementById('load-bids').onclick = async () => {
  const bids = await call('GET', '/user-bids');
  document.getElementById('bids').innerHTML = bids.map((b) =>
    '<tr data-bid="' + b.bid_id + '"><td>' + b.product_id + '</td><td>' + b.amount + '</td><td class="status">' + (LABEL[b.status] || 'Failed') + '</td></tr>').join('');
};
document.getElementById('revenue').onsubmit = async (e) => {
  e.preventDefault();
  const bids = await call('GET', '/bids?product_key=' + encodeURIComponent(form('revenue').product_key));
  document.getElementById('revenue-total').textContent = String(bids.filter((b) => b.status === 'success').reduce((s, b) => s + b.amount, 0));
};
let editing = null;
document.getElementById('edit').onsubmit = async (e) => {
  e.preventDefault();
  editing = await call('GET', '/admin/auction/' + form('edit').id);
  const f = document.getElementById('edit-auction');
  f.name.value = editing.name;
  f.valid_until.value = editing.valid_until.slice(0, 16);
  f.hidden = false;
};
document.getElementById('edit-auction').onsubmit = async (e) => {
  e.preventDefault();
  const f = form('edit-auction');
  const r = await call('PUT', '/admin/auction/' + editing.id, { name: f.name, valid_until: f.valid_until, product_ids: editing.product_ids });
  document.getElementById('message').textContent = r.message;
};
</script></body></html>`;

async function openSpecClient() {
  const { page } = e2e;
  await page.route('**/spec-client', (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: SPEC_CLIENT }));
  await page.goto('/spec-client');
  return page;
}

describe('the spec’s own client', () => {
  it('shows a won bid as Active, keeps the revenue after settling, and an outbid bid as Failed', async () => {
    const { seed } = e2e;
    const admin = await seed.admin();
    const lamp = unique('LAMP');
    const name = `Spec lamp ${lamp}`;
    const auction = await seed.auction(admin, { id: unique('SPEC'), name: 'Spec sale', endsInMs: 3_600_000, products: [{ id: lamp, name }] });
    const rival = await seed.user();
    const bidder = await seed.user();
    for (const u of [rival, bidder]) {
      await seed.topUp(u, 5000);
      await seed.register(u, auction.id);
    }
    await seed.bid(rival, lamp, 300);

    const page = await openSpecClient();
    await page.fill('#login [name=username]', bidder.username);
    await page.fill('#login [name=password]', bidder.password);
    await page.click('#login button');
    await page.getByText('Login successful!').waitFor();
    await page.fill('#bid [name=product_name]', name);
    await page.fill('#bid [name=bid_amount]', '500');
    await page.click('#bid button');
    await page.getByText('Bid placed successfully!').waitFor();

    await seed.call('POST', `/admin/auction/${auction.id}/settle`, undefined, admin.token);
    await page.click('#load-bids');
    await page.locator('#bids tr').first().waitFor();
    expect(await page.locator('#bids .status').allTextContents()).toEqual(['Active']);

    // The rival's outbid bid, and the revenue the admin's spec client sums.
    await page.evaluate((t) => { localStorage.setItem('token', t); }, rival.token);
    await page.click('#load-bids');
    await page.locator('#bids .status', { hasText: 'Failed' }).waitFor();
    await page.evaluate((t) => { localStorage.removeItem('token'); localStorage.setItem('admin_token', t); }, admin.token);
    await page.fill('#revenue [name=product_key]', lamp);
    await page.click('#revenue button');
    await page.locator('#revenue-total', { hasText: /\d/ }).waitFor();
    expect(await page.locator('#revenue-total').textContent()).toBe('500');
  });

  it('keeps an auction’s end when its edit form is saved again and again', async () => {
    const { seed } = e2e;
    const admin = await seed.admin();
    const id = unique('EDIT');
    const lot = unique('LOT');
    await seed.product(admin, { id: lot, name: 'Brass bell' });
    await seed.call('POST', '/admin/auction', { id, name: 'Evening sale', valid_until: '2030-12-08T19:42', product_ids: [lot] }, admin.token);
    const end = Date.parse('2030-12-08T19:42:00+05:30');

    const page = await openSpecClient();
    await page.evaluate((t) => { localStorage.setItem('admin_token', t); }, admin.token);
    for (let save = 1; save <= 3; save++) {
      await page.fill('#edit [name=id]', id);
      await page.click('#open-edit');
      await page.locator('#edit-auction:not([hidden])').waitFor();
      expect(await page.inputValue('#edit-auction [name=valid_until]')).toBe('2030-12-08T19:42');
      await page.evaluate(() => { document.getElementById('message')!.textContent = ''; });
      await page.click('#edit-auction button');
      await page.getByText('Auction updated successfully!').waitFor();
      const read = await seed.call<{ valid_until: string }>('GET', `/admin/auction/${id}`, undefined, admin.token);
      expect(Date.parse(read.valid_until), `after save ${save}: ${read.valid_until}`).toBe(end);
    }
  });
});
