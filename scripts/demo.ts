/**
 * `npm run demo`: a live platform to look at. Starts the server on a fresh demo database (or uses
 * `--url` of a running one), seeds an admin, bidders and auctions ending over the next minutes, then
 * keeps a few simulated bidders bidding at a human pace, so countdowns, live bids and automatic
 * settlement are visible at once. Ctrl-C stops it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    minutes: { type: 'string', default: '15' },
  },
});

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ADMIN = 'demo_admin';
export const DEMO_BIDDERS = ['asha', 'ravi', 'meera', 'kabir', 'zoya'];

const CATALOGUE: { name: string; endsInMin: number; products: [string, string][] }[] = [
  { name: 'Vintage Cameras', endsInMin: 2, products: [['Leica M3 (1956)', 'Rangefinder with 50mm Summicron'], ['Rolleiflex 2.8F', 'Twin-lens reflex, serviced']] },
  { name: 'Mughal Miniatures', endsInMin: 4, products: [['Court Scene, c. 1780', 'Opaque watercolour on paper'], ['Hunting Party', 'Gold leaf detailing'], ['Portrait of a Noble', 'Framed, with provenance']] },
  { name: 'Classic Watches', endsInMin: 7, products: [['HMT Janata', 'Hand-wound, 1970s'], ['Omega Seamaster 1962', 'Automatic, original dial']] },
  { name: 'Handloom Textiles', endsInMin: 12, products: [['Kanjeevaram Silk Saree', 'Pure zari border'], ['Pashmina Shawl', 'Hand-embroidered, Kashmir']] },
];

type Json = Record<string, unknown>;

async function main() {
  let base = args.url?.replace(/\/$/, '');
  if (!base) base = await startOwnServer(Number(args.port));
  const call = async (method: string, p: string, body?: unknown, token?: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${base}/api${p}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
  };
  const account = async (kind: 'user' | 'admin', username: string, name: string) => {
    const prefix = kind === 'admin' ? '/admin' : '';
    await call('POST', `${prefix}/register`, { name, username, password: DEMO_PASSWORD, mobile_number: '9876500000', ...(kind === 'admin' ? { role: 'admin' } : {}) });
    const login = await call('POST', `${prefix}/login`, { username, password: DEMO_PASSWORD });
    if (login.status !== 200) throw new Error(`cannot sign in ${username}: ${JSON.stringify(login.body)}`);
    return login.body.token as string;
  };

  const admin = await account('admin', DEMO_ADMIN, 'Demo Admin');
  const stamp = Date.now().toString(36).slice(-4);
  const auctions: { id: string; productIds: string[]; endsAt: number }[] = [];
  for (const [i, a] of CATALOGUE.entries()) {
    const productIds: string[] = [];
    for (const [j, [name, description]] of a.products.entries()) {
      const id = `D${stamp}-${i}${j}`;
      await call('POST', '/admin/product', { id, name, description }, admin);
      productIds.push(id);
    }
    const id = `DEMO-${stamp}-${i + 1}`;
    const endsAt = Date.now() + a.endsInMin * 60_000;
    const validUntil = new Date(endsAt).toISOString();
    const res = await call('POST', '/admin/auction', { id, name: a.name, valid_until: validUntil, product_ids: productIds }, admin);
    if (res.status !== 201) throw new Error(`cannot create auction: ${JSON.stringify(res.body)}`);
    auctions.push({ id, productIds, endsAt });
  }

  const bidders: { name: string; token: string }[] = [];
  for (const name of DEMO_BIDDERS) {
    const token = await account('user', name, name[0]!.toUpperCase() + name.slice(1));
    await call('POST', '/wallet/topup', { amount: 100_000 }, token);
    for (const a of auctions) await call('POST', '/auctions/register', { auction_id: a.id }, token);
    bidders.push({ name, token });
  }

  console.log(`\nDemo running at ${base}`);
  console.log(`  admin:   ${DEMO_ADMIN} / ${DEMO_PASSWORD}   (${base}/admin/login)`);
  console.log(`  bidders: ${DEMO_BIDDERS.join(', ')} / ${DEMO_PASSWORD}   (${base}/user/login)`);
  console.log(`  auctions end in ${CATALOGUE.map((a) => `${a.endsInMin} min`).join(', ')}; simulated bidders bid every few seconds. Ctrl-C to stop.\n`);

  const stopAt = Date.now() + Number(args.minutes) * 60_000;
  while (Date.now() < stopAt) {
    await new Promise((r) => setTimeout(r, 2000 + Math.random() * 4000));
    // Simulated bidders, like people, only bid where the auction is still open.
    const open = auctions.filter((a) => a.endsAt > Date.now() + 1000);
    if (open.length === 0) {
      console.log('Every demo auction has ended and been settled: see Reports in the admin portal.');
      break;
    }
    const auction = open[Math.floor(Math.random() * open.length)]!;
    const productId = auction.productIds[Math.floor(Math.random() * auction.productIds.length)]!;
    const bidder = bidders[Math.floor(Math.random() * bidders.length)]!;
    const highest = Number((await call('GET', `/highest-bid?product_key=${productId}`, undefined, bidder.token)).body.highest_bid ?? 0);
    const amount = (highest === 0 ? 500 : highest) + 10 * (1 + Math.floor(Math.random() * 25));
    const res = await call('POST', '/bid', { product_id: productId, bid_amount: amount }, bidder.token);
    const what = res.status === 201 ? 'bid' : `refused (${String(res.body.code)})`;
    console.log(`${new Date().toLocaleTimeString('en-IN')}  ${bidder.name.padEnd(6)} ${what.padEnd(28)} ₹${amount.toLocaleString('en-IN')} on ${productId}`);
  }
  if (!args.url) {
    console.log(`The demo server stays up at ${base}; Ctrl-C to stop.`);
    return;
  }
  process.exit(0);
}

/** The production app in this process, on a fresh demo database beside the default one. */
async function startOwnServer(port: number): Promise<string> {
  const dbFile = path.join(ROOT, 'data', 'demo.db');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
  const { loadConfig } = await import('../server/src/config.js');
  const { buildApp } = await import('../server/src/app.js');
  const app = await buildApp({ ...loadConfig(), databaseUrl: dbFile, port, logLevel: process.env.LOG_LEVEL ?? 'warn' });
  await app.listen({ port, host: '0.0.0.0' });
  const stop = () => { void app.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return `http://localhost:${port}`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
