/**
 * The plain WebSocket feed's lifetime rules (docs/live-protocol.md#socket-lifetime-and-limits): messages sent
 * while authentication is still running wait for it instead of being refused, and a peer that stops
 * answering pings is closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../context.js';
import { createAuction, makeApp, signUpAdmin, signUpUser } from '../test/helpers.js';
import { eventually, listen } from '../test/live-helpers.js';
import { SOCKET_LIMITS } from './sessions.js';
import { WS_KEEPALIVE } from './ws.js';

const apps: App[] = [];
const sockets: WebSocket[] = [];
const keepalive = { ...WS_KEEPALIVE };
const limits = { ...SOCKET_LIMITS };
afterEach(async () => {
  Object.assign(WS_KEEPALIVE, keepalive);
  Object.assign(SOCKET_LIMITS, limits);
  for (const s of sockets.splice(0)) s.terminate();
  for (const a of apps.splice(0)) await a.close();
});

async function setup() {
  const app = await makeApp();
  apps.push(app);
  const base = await listen(app);
  const admin = await signUpAdmin(app);
  const { auctionId } = await createAuction(app, admin.token);
  const user = await signUpUser(app);
  return { app, base, auctionId, token: user.token };
}

/** Opens a socket and, the moment it is open, sends `first` messages; collects what comes back. */
function openAndSend(url: string, first: object[]) {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const got: Record<string, unknown>[] = [];
  let closed: number | null = null;
  ws.on('message', (raw: Buffer) => got.push(JSON.parse(raw.toString()) as Record<string, unknown>));
  ws.on('close', (code: number) => { closed = code; });
  ws.on('open', () => { for (const m of first) ws.send(JSON.stringify(m)); });
  return { ws, got, closed: () => closed };
}

describe('/api/ws: early messages', () => {
  it('a watch sent right after connecting with ?token= waits for the authentication (40 clients at once)', async () => {
    const { base, auctionId, token } = await setup();
    // One account, 40 connections: beyond the per-account limit, which is not what this is about.
    SOCKET_LIMITS.perAccount = 100;
    const url = `${base.replace('http', 'ws')}/api/ws?token=${encodeURIComponent(token)}`;
    const clients = Array.from({ length: 40 }, () => openAndSend(url, [{ type: 'watch', auction_id: auctionId }]));
    await eventually(() => {
      for (const c of clients) expect(c.got.filter((m) => 'type' in m).map((m) => m.type)).toEqual(['ready', 'watching']);
    }, 5000);
    expect(clients.filter((c) => c.closed() !== null)).toEqual([]);
  });

  it('with the first-message auth: auth then watch at once, in order', async () => {
    const { base, auctionId, token } = await setup();
    const url = `${base.replace('http', 'ws')}/api/ws`;
    const clients = Array.from({ length: 15 }, () => openAndSend(url, [{ type: 'auth', token }, { type: 'watch', auction_id: auctionId }]));
    await eventually(() => {
      for (const c of clients) expect(c.got.filter((m) => 'type' in m).map((m) => m.type)).toEqual(['ready', 'watching']);
    }, 5000);
    expect(clients.filter((c) => c.closed() !== null)).toEqual([]);
  });

  it('still refuses a watch from a client that never authenticates (4401)', async () => {
    const { base, auctionId } = await setup();
    const c = openAndSend(`${base.replace('http', 'ws')}/api/ws`, [{ type: 'watch', auction_id: auctionId }]);
    await eventually(() => expect(c.closed()).toBe(4401), 3000);
  });
});

describe('/api/ws: keep-alive', () => {
  it('pings; a peer that answers stays, one that stops answering is closed', async () => {
    Object.assign(WS_KEEPALIVE, { pingMs: 150, pongTimeoutMs: 150 });
    const { base, token } = await setup();
    const url = `${base.replace('http', 'ws')}/api/ws?token=${encodeURIComponent(token)}`;
    const alive = openAndSend(url, []);
    const silent = openAndSend(url, []);
    let pings = 0;
    alive.ws.on('ping', () => { pings++; });
    await eventually(() => expect(alive.got.filter((m) => 'type' in m).map((m) => m.type)).toEqual(['ready']), 3000);
    await eventually(() => expect(silent.got.filter((m) => 'type' in m).map((m) => m.type)).toEqual(['ready']), 3000);
    // The silent peer stops reading (a frozen or vanished client): it cannot answer pings.
    (silent.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    await new Promise((r) => setTimeout(r, 1000));
    (silent.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.resume();
    await eventually(() => expect(silent.closed()).not.toBeNull(), 3000);
    expect(alive.closed()).toBeNull();
    expect(pings).toBeGreaterThanOrEqual(3);
  });
});
