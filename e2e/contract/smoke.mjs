#!/usr/bin/env node
// A copy of the team's contract smoke test (../shared/contract/smoke.mjs outside this repository), for
// checkouts that lack it (CI's clean clone); e2e/nginx.test.ts runs the original when it is there.
// Contract smoke test: walks the HTTP API of DESIGN §3 once, as a client written against the spec would,
// and reports every response whose status or shape differs from the contract.
// Usage: start the server (npm start), then: node ../shared/contract/smoke.mjs [http://127.0.0.1:3000]
// It creates its own users, admin, products and an auction with random names; run it on a scratch database.
const BASE = (process.argv[2] || 'http://127.0.0.1:3000').replace(/\/$/, '') + '/api';
let pass = 0, fail = 0;
const ok = (name, cond, got) => { if (cond) pass++; else { fail++; console.log(`FAIL ${name}${got !== undefined ? `\n     got: ${JSON.stringify(got).slice(0, 300)}` : ''}`); } };
const call = async (method, path, body, token) => {
  const headers = {}; if (body !== undefined) headers['content-type'] = 'application/json'; if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let json; try { json = await r.json(); } catch { json = undefined; }
  return { s: r.status, b: json };
};
const id = () => Math.random().toString(36).slice(2, 8);
const isErr = (r) => typeof r.b?.error === 'string' && typeof r.b?.message === 'string' && typeof r.b?.code === 'string';

const uname = `smoke_${id()}`, aname = `smokeadm_${id()}`;
let r = await call('POST', '/register', { name: 'Smoke User', username: uname, password: 'pass1234', mobile_number: '9000000001' });
ok('POST /register → 201 { user }', r.s === 201 && r.b?.user?.username === uname, r);
r = await call('POST', '/login', { username: uname, password: 'pass1234' });
ok('POST /login → { token, user{id,username,name,mobile_number} }', !!r.b?.token && ['id', 'username', 'name', 'mobile_number'].every((k) => k in (r.b?.user ?? {})), r);
const ut = r.b?.token, uid = r.b?.user?.id;
r = await call('POST', '/login', { username: uname, password: 'nope1234' });
ok('bad login → 400 INVALID_CREDENTIALS error shape (401 is only for tokens)', r.s === 400 && r.b?.code === 'INVALID_CREDENTIALS' && isErr(r), r);
r = await call('POST', '/admin/register', { name: 'Smoke Admin', username: aname, password: 'pass1234', mobile_number: '9000000002', role: 'admin' });
ok('POST /admin/register → 201 { admin }', r.s === 201 && !!r.b?.admin, r);
r = await call('POST', '/admin/login', { username: aname, password: 'pass1234', role: 'admin' });
ok('POST /admin/login → { token, admin{name,username,mobile_number} }', !!r.b?.token && ['name', 'username', 'mobile_number'].every((k) => k in (r.b?.admin ?? {})), r);
const at = r.b?.token;

const p1 = `SP${id()}`, p2 = `SP${id()}`, a1 = `SA${id()}`;
r = await call('POST', '/admin/product', { id: p1, name: `Smoke lamp ${p1}`, description: 'brass' }, at);
ok('POST /admin/product → 2xx', r.s >= 200 && r.s < 300, r);
await call('POST', '/admin/product', { id: p2, name: `Smoke rug ${p2}`, description: 'wool' }, at);
r = await call('GET', '/admin/products/unassigned', undefined, at);
ok('GET /admin/products/unassigned → array with the products', Array.isArray(r.b) && r.b.some((p) => p.id === p1), r);
r = await call('POST', '/admin/auction', { id: a1, name: 'Smoke sale', valid_until: new Date(Date.now() + 7200e3).toISOString(), product_ids: [p1, p2] }, at);
ok('POST /admin/auction → 2xx', r.s >= 200 && r.s < 300, r);
r = await call('POST', '/admin/auction', { id: `SA${id()}`, name: 'x', valid_until: new Date(Date.now() + 7200e3).toISOString(), product_ids: [] }, at);
ok('auction without products → 400 with spec text', r.s === 400 && r.b?.error === 'Please fill all fields and select at least one product', r);
r = await call('GET', '/admin/all_auctions', undefined, at);
ok('GET /admin/all_auctions → { auctions: [...] }', Array.isArray(r.b?.auctions), r);
r = await call('GET', '/admin/auctions/my', undefined, at);
ok('GET /admin/auctions/my → array', Array.isArray(r.b) && r.b.some((a) => a.id === a1), r);
r = await call('GET', `/admin/auction/${a1}`, undefined, at);
ok('GET /admin/auction/{id} → the auction', r.s === 200 && (r.b?.id ?? r.b?.auction?.id) === a1, r);
r = await call('GET', `/admin/auction_products/${a1}`, undefined, at);
ok('GET /admin/auction_products/{id} → { products: [...] }', Array.isArray(r.b?.products) && r.b.products.length === 2, r);
r = await call('GET', `/admin/auction/${a1}/products`, undefined, at);
ok('GET /admin/auction/{id}/products → array', Array.isArray(r.b) && r.b.length === 2, r);

r = await call('GET', '/auctions', undefined, ut);
const a = Array.isArray(r.b) ? r.b.find((x) => x.id === a1) : undefined;
ok('GET /auctions → array with {id,name,valid_until,product_ids,registrations,registered,status}', !!a && ['id', 'name', 'valid_until', 'product_ids', 'registrations', 'registered', 'status'].every((k) => k in a), a ?? r);
r = await call('POST', '/auctions/register', { auction_id: a1 }, ut);
ok('POST /auctions/register → 2xx', r.s >= 200 && r.s < 300, r);
r = await call('GET', '/my_auctions', undefined, ut);
ok('GET /my_auctions → { user_details: { auctions: [ids] } }', Array.isArray(r.b?.user_details?.auctions) && r.b.user_details.auctions.includes(a1), r);
r = await call('GET', `/auctions/${a1}/products`, undefined, ut);
ok('GET /auctions/{id}/products → [{id,name,description,status,auction_id,highest_bid,bid_count}]', Array.isArray(r.b) && r.b.every((p) => ['id', 'name', 'description', 'status', 'auction_id', 'highest_bid', 'bid_count'].every((k) => k in p)), r);
r = await call('POST', '/wallet/topup', { amount: 2500 }, ut);
ok('POST /wallet/topup → { wallet_balance, transaction }', r.b?.wallet_balance === 2500 && !!r.b?.transaction, r);
r = await call('POST', '/wallet/topup', { amount: 5 }, ut);
ok('top-up below ₹10 → 400 with spec text', r.s === 400 && r.b?.error === 'Enter an amount between ₹10 and ₹1,00,000', r);
r = await call('POST', '/wallet', { username: uname }, ut);
ok('POST /wallet → { wallet_balance }', r.b?.wallet_balance === 2500, r);
r = await call('POST', '/bid', { product_name: p1, bid_amount: 400, user_id: uname }, ut);
ok('POST /bid → 201 { message, bid, highest_bid, wallet_balance }', r.s === 201 && r.b?.message === 'Bid placed successfully!' && r.b?.highest_bid === 400 && r.b?.wallet_balance === 2100 && !!r.b?.bid, r);
r = await call('POST', '/bid', { product_name: p1, bid_amount: 400, user_id: uname }, ut);
ok('equal bid → 409 BID_TOO_LOW with spec text', r.s === 409 && r.b?.code === 'BID_TOO_LOW' && r.b?.message === 'Bid must be higher than current highest bid of ₹400', r);
r = await call('POST', '/bid', { product_name: p2, bid_amount: '300', user_id: uname }, ut);
ok('string amount → 400 VALIDATION (no coercion)', r.s === 400 && r.b?.code === 'VALIDATION', r);
r = await call('GET', `/highest-bid?product_key=${p1}`, undefined, ut);
ok('GET /highest-bid → { highest_bid }', r.b?.highest_bid === 400, r);
r = await call('GET', `/time-left?product_key=${p1}`, undefined, ut);
ok('GET /time-left → { product_key, auction_id, valid_until, seconds_left, ended }', ['product_key', 'auction_id', 'valid_until', 'seconds_left', 'ended'].every((k) => k in (r.b ?? {})), r);
r = await call('GET', `/bids?product_key=${p1}`, undefined, ut);
ok('GET /bids → array of bids', Array.isArray(r.b) && r.b.length >= 1, r);
r = await call('GET', '/user-bids', undefined, ut);
const mine = Array.isArray(r.b) ? r.b : [];
ok('GET /user-bids → [{bid_id,product_id,product_name,auction_id,amount,timestamp,status}]', mine.length >= 2 && mine.every((b) => ['bid_id', 'product_id', 'product_name', 'auction_id', 'amount', 'timestamp', 'status'].every((k) => k in b)), r);
ok('user-bids records the refused attempt as failed', mine.some((b) => b.status === 'failed'), mine);
r = await call('GET', `/user-bids/auction/${a1}`, undefined, ut);
ok('GET /user-bids/auction/{id} → array', Array.isArray(r.b), r);
const lead = mine.find((b) => b.status === 'success');
r = await call('POST', '/rollback-bid', { bid_id: lead?.bid_id, username: uname }, ut);
ok('POST /rollback-bid → 2xx', r.s >= 200 && r.s < 300, r);
r = await call('GET', '/wallet/transactions', undefined, ut);
ok('GET /wallet/transactions → { transactions: [{_id,type,amount,timestamp,meta}] } with topup, bid, refund', Array.isArray(r.b?.transactions) && ['topup', 'bid', 'refund'].every((t) => r.b.transactions.some((x) => x.type === t)) && r.b.transactions.every((x) => ['_id', 'type', 'amount', 'timestamp', 'meta'].every((k) => k in x)), r);
r = await call('POST', `/admin/auction/${a1}/settle`, {}, ut);
ok('user token on an admin route → 403 error shape', r.s === 403 && isErr(r), r);
r = await call('POST', `/admin/auction/${a1}/settle`, {}, at);
ok('POST /admin/auction/{id}/settle → 2xx', r.s >= 200 && r.s < 300, r);
r = await call('GET', '/auctions', undefined);
ok('no token → 401 error shape', r.s === 401 && isErr(r), r);

console.log(`contract: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
