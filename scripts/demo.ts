/**
 * `npm run demo`: a live platform to look at. Starts the server on a fresh demo database (or uses
 * `--url` of a running one), seeds an admin, the bidder accounts offered to visitors and auctions
 * ending over the next minutes (lots with photos drawn here and uploaded as a seller would, and
 * starting prices that suit them), then keeps simulated bidders bidding at a human pace and lists each
 * auction again when it ends, so countdowns, live bids and settlement are there whenever someone looks.
 * Runs until Ctrl-C, or `--minutes N` of simulation.
 *
 * Ended auctions do not pile up: the first KEEP_SETTLED that end are settled (winners, sold lots); after
 * that an ended auction is deleted before it is settled (its holds refunded) and its lots are listed
 * again, photos and all, in a new auction. A server that settles by itself (`--url` of one with
 * AUTO_SETTLE on) settles every auction before the demo can replace it: there they do pile up.
 *
 * The simulated bidders have accounts of their own: a visitor signed in as `meera` must never be told
 * "You were outbid" about a bid she did not place. DEMO_MINUTE_MS (default 60000) makes the demo's
 * minute shorter, for the end-to-end test: end times, the bidding pace and `--minutes` all scale.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { lotPhoto } from './lib/demo-photos.js';
import { formatRupees } from '@auction/shared';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    minutes: { type: 'string' },
  },
});

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_ADMIN = 'demo_admin';
/** The accounts the README offers visitors: funded and registered for every auction, never bid with here. */
export const DEMO_BIDDERS = ['asha', 'ravi', 'meera', 'kabir', 'zoya'];
/** The simulation's own bidders, not advertised (nor their password). */
export const SIMULATED_BIDDERS = ['sim_arjun', 'sim_bela', 'sim_dev', 'sim_isha', 'sim_neel'];
const SIMULATED_PASSWORD = 'simulated-bidder';

const MINUTE_MS = Number(process.env.DEMO_MINUTE_MS ?? 60_000);
/** Every wallet starts with this, and a simulated bidder that runs short gets it again. */
const FUNDS = 100_000;

/** How many ended auctions the demo settles; later ones are replaced (see above). */
export const KEEP_SETTLED = 3;

interface Lot { code: string; name: string; description: string; /** Starting price in rupees, what such a lot opens at. */ start: number }
/** Each entry: its auction's readable id stem, colour (the photos'), end and lots. */
export const CATALOGUE: { code: string; name: string; colour: string; endsInMin: number; lots: Lot[] }[] = [
  { code: 'CAMERAS', name: 'Vintage Cameras', colour: '#b45309', endsInMin: 2, lots: [
    { code: 'LEICA-M3', name: 'Leica M3 (1956)', description: 'Rangefinder with 50mm Summicron', start: 45_000 },
    { code: 'ROLLEIFLEX', name: 'Rolleiflex 2.8F', description: 'Twin-lens reflex, serviced', start: 28_000 },
  ] },
  { code: 'MINIATURES', name: 'Mughal Miniatures', colour: '#047857', endsInMin: 4, lots: [
    { code: 'COURT-SCENE', name: 'Court Scene, c. 1780', description: 'Opaque watercolour on paper', start: 18_000 },
    { code: 'HUNTING-PARTY', name: 'Hunting Party', description: 'Gold leaf detailing', start: 12_000 },
    { code: 'NOBLE-PORTRAIT', name: 'Portrait of a Noble', description: 'Framed, with provenance', start: 22_000 },
  ] },
  { code: 'WATCHES', name: 'Classic Watches', colour: '#1d4ed8', endsInMin: 7, lots: [
    { code: 'HMT-JANATA', name: 'HMT Janata', description: 'Hand-wound, 1970s', start: 2_500 },
    { code: 'OMEGA-SEAMASTER', name: 'Omega Seamaster 1962', description: 'Automatic, original dial', start: 60_000 },
  ] },
  { code: 'TEXTILES', name: 'Handloom Textiles', colour: '#be185d', endsInMin: 12, lots: [
    { code: 'KANJEEVARAM', name: 'Kanjeevaram Silk Saree', description: 'Pure zari border', start: 15_000 },
    { code: 'PASHMINA', name: 'Pashmina Shawl', description: 'Hand-embroidered, Kashmir', start: 8_000 },
  ] },
];

type Json = Record<string, unknown>;
interface Answer { status: number; body: Json }
interface Account { kind: 'user' | 'admin'; username: string; password: string; token: string; signedOut?: boolean }
/** One catalogue entry's current auction; `round` counts its listings. */
interface Listing { entry: number; round: number; id: string; productIds: string[]; endsAt: number }

class DemoError extends Error {}

const time = () => new Date().toLocaleTimeString('en-IN');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
/** What the server said about a refusal. */
const why = (a: Answer) => (typeof a.body.message === 'string' ? a.body.message : `HTTP ${a.status}`);

async function main() {
  if (!(MINUTE_MS > 0)) throw new DemoError(`DEMO_MINUTE_MS must be a positive number of milliseconds (got "${String(process.env.DEMO_MINUTE_MS)}")`);
  const minutes = args.minutes === undefined ? null : Number(args.minutes);
  if (minutes !== null && !(minutes > 0)) throw new DemoError(`--minutes must be a positive number (got "${String(args.minutes)}")`);
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new DemoError(`--port must be an integer from 0 to 65535 (got "${args.port}")`);
  const server = args.url ? { url: args.url.replace(/\/$/, ''), api: args.url.replace(/\/$/, ''), allInterfaces: false } : await startOwnServer(port);

  const call = async (method: string, p: string, body?: unknown, token?: string): Promise<Answer> => {
    const res = await fetch(`${server.api}/api${p}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as Json };
  };
  const signIn = async (a: Omit<Account, 'token'>): Promise<string> => {
    const login = await call('POST', `${a.kind === 'admin' ? '/admin' : ''}/login`, { username: a.username, password: a.password });
    if (login.status !== 200) throw new DemoError(`cannot sign in ${a.username}: ${why(login)}`);
    return login.body.token as string;
  };
  /** Registers the account (already there on a running server: fine) and signs it in. */
  const account = async (kind: Account['kind'], username: string, password: string, name: string): Promise<Account> => {
    await call('POST', `${kind === 'admin' ? '/admin' : ''}/register`, { name, username, password, mobile_number: '9876500000', ...(kind === 'admin' ? { role: 'admin' } : {}) });
    return { kind, username, password, token: await signIn({ kind, username, password }) };
  };
  /**
   * A call as `a`; a token that expired (a long demo) is renewed once. An account that cannot sign in
   * any more (a visitor changed its password) is left alone from then on.
   */
  const as = async (a: Account, method: string, p: string, body?: unknown): Promise<Answer> => {
    if (a.signedOut) return { status: 401, body: {} };
    const res = await call(method, p, body, a.token);
    if (res.status !== 401) return res;
    try {
      a.token = await signIn(a);
    } catch {
      a.signedOut = true;
      return res;
    }
    return call(method, p, body, a.token);
  };

  const admin = await account('admin', DEMO_ADMIN, DEMO_PASSWORD, 'Demo Admin');
  const visitors: Account[] = [];
  for (const name of DEMO_BIDDERS) visitors.push(await account('user', name, DEMO_PASSWORD, name[0]!.toUpperCase() + name.slice(1)));
  const simulated: Account[] = [];
  for (const name of SIMULATED_BIDDERS) simulated.push(await account('user', name, SIMULATED_PASSWORD, `${name[4]!.toUpperCase()}${name.slice(5)} (simulated)`));
  for (const a of [...visitors, ...simulated]) await as(a, 'POST', '/wallet/topup', { amount: FUNDS });

  // Readable ids (LEICA-M3, CAMERAS-1); on a server that may hold an earlier demo's, with this run's stamp.
  const stamp = args.url ? `-${Date.now().toString(36).slice(-4).toUpperCase()}` : '';
  /** Each lot's starting price in rupees, by product id (the simulation bids from it). */
  const startOf = new Map<string, number>();
  /** Lot `lot` of entry `c` in its `round`-th listing: created with its starting price and its photo. */
  const createLot = async (c: (typeof CATALOGUE)[number], lot: Lot, round: number): Promise<string> => {
    const id = `${lot.code}${round > 1 ? `-${round}` : ''}${stamp}`;
    const res = await as(admin, 'POST', '/admin/product', { id, name: lot.name, description: lot.description, starting_price: lot.start });
    if (res.status !== 201) throw new DemoError(`cannot create product ${id}: ${why(res)}`);
    startOf.set(id, lot.start);
    // The photo goes up as a seller's would; a refused one (the media queue busy) leaves the lot without.
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await lotPhoto(lot.name, c.name, c.colour))], { type: 'image/png' }), `${lot.code.toLowerCase()}.png`);
    const photo = await fetch(`${server.api}/api/admin/products/${encodeURIComponent(id)}/images`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    if (photo.status !== 201) console.log(`${time()}  photo of ${id} refused (HTTP ${photo.status})`);
    return id;
  };
  /**
   * Lists catalogue entry `entry` (again): its lots (`reuse`: the lots of a replaced listing, else new
   * ones), a new end, every demo bidder registered.
   */
  const list = async (entry: number, round: number, minutesFromNow: number, reuse?: string[]): Promise<Listing> => {
    const c = CATALOGUE[entry]!;
    const productIds: string[] = reuse ?? [];
    if (!reuse) for (const lot of c.lots) productIds.push(await createLot(c, lot, round));
    const id = `${c.code}-${round}${stamp}`;
    const endsAt = Date.now() + minutesFromNow * MINUTE_MS;
    const res = await as(admin, 'POST', '/admin/auction', { id, name: c.name, valid_until: new Date(endsAt).toISOString(), product_ids: productIds });
    if (res.status !== 201) throw new DemoError(`cannot create auction ${id}: ${why(res)}`);
    // Visitors too: whoever signs in as one can bid at once. A visitor account made unusable (its
    // password changed, deactivated) is skipped.
    for (const a of [...visitors, ...simulated]) await as(a, 'POST', '/auctions/register', { auction_id: id });
    return { entry, round, id, productIds, endsAt };
  };
  const listings: Listing[] = [];
  for (const [i, c] of CATALOGUE.entries()) listings.push(await list(i, 1, c.endsInMin));
  let settled = 0;
  /**
   * The next listing of an ended one: settled (while fewer than KEEP_SETTLED were) and listed with new
   * lots, else deleted unsettled and its lots listed again. An auction the server settled already
   * cannot be deleted: it counts as settled.
   */
  const relist = async (l: Listing): Promise<{ next: Listing; how: string }> => {
    const c = CATALOGUE[l.entry]!;
    if (settled >= KEEP_SETTLED) {
      const del = await as(admin, 'DELETE', `/admin/auction/${l.id}`);
      if (del.status === 200) return { next: await list(l.entry, l.round + 1, c.endsInMin, l.productIds), how: 'replaced (its lots listed again)' };
      if (del.body.code !== 'AUCTION_SETTLED') throw new DemoError(`cannot delete auction ${l.id}: ${why(del)}`);
    } else {
      const res = await as(admin, 'POST', `/admin/auction/${l.id}/settle`);
      if (res.status !== 200 && res.body.code !== 'AUCTION_SETTLED') throw new DemoError(`cannot settle auction ${l.id}: ${why(res)}`);
    }
    settled += 1;
    return { next: await list(l.entry, l.round + 1, c.endsInMin), how: 'settled' };
  };

  const unit = MINUTE_MS === 60_000 ? 'min' : `× ${MINUTE_MS} ms`;
  console.log(`\nDemo running at ${server.url}${server.allInterfaces ? ' (reachable on all network interfaces)' : ''}`);
  console.log(`  admin:   ${DEMO_ADMIN} / ${DEMO_PASSWORD}   (${server.url}/admin/login)`);
  console.log(`  bidders: ${DEMO_BIDDERS.join(', ')} / ${DEMO_PASSWORD}   (${server.url}/user/login): funded with ${formatRupees(FUNDS)} and registered for every auction`);
  console.log(`  auctions end in ${CATALOGUE.map((c) => `${c.endsInMin} ${unit}`).join(', ')}, and each is listed again when it ends`);
  console.log(`  (the first ${KEEP_SETTLED} to end are settled; later ones are replaced by a new listing of the same lots, so few ended auctions stay);`);
  console.log(`  simulated bidders (${SIMULATED_BIDDERS.join(', ')}) bid every few seconds${minutes === null ? '' : ` for ${minutes} ${unit}`}. Ctrl-C to stop.\n`);

  const stopAt = minutes === null ? Infinity : Date.now() + minutes * MINUTE_MS;
  // A human pace: a bid every 2–6 s (scaled with the demo's minute).
  const pace = MINUTE_MS / 60_000;
  while (Date.now() < stopAt) {
    await sleep((2000 + Math.random() * 4000) * pace);
    // An auction that ended (and was settled by the server) is listed again, for as long as the demo runs.
    for (const [i, l] of listings.entries()) {
      if (l.endsAt > Date.now()) continue;
      const c = CATALOGUE[l.entry]!;
      const { next, how } = await relist(l);
      listings[i] = next;
      console.log(`${time()}  ${c.name} ended (${l.id}, ${how}); listed again as ${next.id}, ending in ${c.endsInMin} ${unit}`);
    }
    // Simulated bidders, like people, only bid where the auction is still open.
    const open = listings.filter((l) => l.endsAt > Date.now() + 1000 * pace);
    if (open.length === 0) continue;
    const productId = pick(pick(open).productIds);
    const bidder = pick(simulated);
    const highest = Number((await as(bidder, 'GET', `/highest-bid?product_key=${productId}`)).body.highest_bid ?? 0);
    // The first bid opens at the starting price; then a raise of 1–6 % of the price, in round rupees.
    const start = startOf.get(productId) ?? 500;
    const step = start >= 10_000 ? 100 : 10;
    const raise = Math.max(step, Math.round((highest * (0.01 + Math.random() * 0.05)) / step) * step);
    const amount = highest === 0 ? start : highest + raise;
    const res = await as(bidder, 'POST', '/bid', { product_id: productId, bid_amount: amount });
    const what = res.status === 201 ? 'bid' : `refused (${String(res.body.code)})`;
    console.log(`${time()}  ${bidder.username.padEnd(9)} ${what.padEnd(28)} ${formatRupees(amount)} on ${productId}`);
    // Lots won hold the simulation's money: a bidder that runs short is funded again.
    if (res.body.code === 'INSUFFICIENT_FUNDS') await as(bidder, 'POST', '/wallet/topup', { amount: FUNDS });
  }
  if (!args.url) {
    console.log(`Simulated bidding has stopped; the demo server stays up at ${server.url}. Ctrl-C to stop.`);
    return;
  }
  process.exit(0);
}

/**
 * The production app in this process, on a fresh demo database beside the default one, at HOST (and
 * the rest of the environment's settings) and `--port`. Returns the URL to show a person and the one
 * the demo itself calls (loopback when listening on every interface).
 */
async function startOwnServer(port: number): Promise<{ url: string; api: string; allInterfaces: boolean }> {
  const { ConfigError, loadConfig } = await import('../server/src/config.js');
  const { buildApp } = await import('../server/src/app.js');
  const { listenProblem, openableUrl, probePort } = await import('../server/src/listen.js');
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new DemoError(`configuration error: ${err.message}`);
    throw err;
  }
  const { host } = config;
  const cannotListen = (err: unknown): never => {
    const problem = listenProblem(err, host, port, (p) => `run npm run demo -- --port ${p}`);
    if (problem === null) throw err;
    console.error(problem);
    process.exit(1);
  };
  // Before the demo database is wiped: a demo already running on this port keeps its data.
  await probePort(host, port).catch(cannotListen);
  const dbFile = path.join(ROOT, 'data', 'demo.db');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
  // The demo settles and replaces its auctions itself (KEEP_SETTLED), and the sign-in pages name its accounts.
  const app = await buildApp({
    ...config, databaseUrl: dbFile, port, logLevel: process.env.LOG_LEVEL ?? 'warn', autoSettle: false,
    demo: { admin: DEMO_ADMIN, bidders: DEMO_BIDDERS, password: DEMO_PASSWORD },
  });
  await app.listen({ port, host }).catch(cannotListen);
  const stop = () => { void app.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const bound = app.server.address() as AddressInfo;
  const { url, allInterfaces } = openableUrl(host, bound);
  return { url, api: allInterfaces ? `http://127.0.0.1:${bound.port}` : url, allInterfaces };
}

main().catch((err: unknown) => {
  // A mistake a person can fix is one line; anything else keeps its stack.
  if (err instanceof DemoError) console.error(`Demo stopped: ${err.message}`);
  else if (err instanceof TypeError && err.message === 'fetch failed') console.error(`Demo stopped: cannot reach ${args.url ?? 'the server'} (${String((err.cause as Error | undefined)?.message ?? err.cause)})`);
  else console.error(err);
  process.exit(1);
});
