/**
 * `live:hello` (docs/live-protocol.md#connecting): the first event of every connection carries the
 * version of the live contract, so a tab built for another version asks the person to reload. Real
 * socket.io and WebSocket clients against a listening app.
 */
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { LIVE_PROTOCOL_VERSION } from '@auction/shared';
import type { App } from '../context.js';
import { createAuction, makeApp, signUpAdmin, signUpUser } from '../test/helpers.js';
import { connectWs, eventually, listen, type LiveClient } from '../test/live-helpers.js';

const apps: App[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  for (const a of apps.splice(0)) await a.close();
});

async function liveApp() {
  const app = await makeApp();
  apps.push(app);
  return { app, base: await listen(app) };
}

/** A socket.io client recording every event it receives, in order, from its first packet on. */
async function recorded(base: string, token: string) {
  const socket: LiveClient = io(base, { auth: { token }, transports: ['websocket'], forceNew: true, reconnection: false });
  cleanups.push(() => socket.disconnect());
  const events: { event: string; data: unknown }[] = [];
  socket.onAny((event: string, data: unknown) => events.push({ event, data }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

const isHello = (data: unknown) => expect(data).toEqual({ protocol: LIVE_PROTOCOL_VERSION, server_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

describe('live:hello', () => {
  it('is the first event on every socket.io connection, bidder or admin, and comes once', async () => {
    const { app, base } = await liveApp();
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    for (const token of [user.token, admin.token]) {
      const c = await recorded(base, token);
      await eventually(() => expect(c.events.length).toBeGreaterThan(0));
      expect(c.events[0]!.event).toBe('live:hello');
      isHello(c.events[0]!.data);
      // Later events come after it; the hello is not repeated.
      const { auctionId } = await createAuction(app, admin.token);
      await eventually(() => expect(c.events.map((e) => e.event)).toContain('auction:created'));
      await eventually(() => expect(c.events.map((e) => e.event)).toEqual(['live:hello', 'auction:created']));
      expect((c.events[1]!.data as { id: string }).id).toBe(auctionId);
    }
  });

  it('comes first even while events are flowing as the socket connects', async () => {
    const { app, base } = await liveApp();
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    // Catalogue events go to every socket: keep them coming while sockets connect.
    let creating = true;
    const creations = (async () => {
      while (creating) await createAuction(app, admin.token);
    })();
    const clients = await Promise.all(Array.from({ length: 8 }, () => recorded(base, user.token)));
    creating = false;
    await creations;
    for (const c of clients) {
      await eventually(() => expect(c.events.length).toBeGreaterThan(0));
      expect(c.events[0]!.event).toBe('live:hello');
      isHello(c.events[0]!.data);
      expect(c.events.filter((e) => e.event === 'live:hello')).toHaveLength(1);
    }
  });

  it('on /api/ws: the first event, right after `ready`, as { event, data }, whether the token came in the URL or in a message', async () => {
    const { app, base } = await liveApp();
    const user = await signUpUser(app);
    const byUrl = await connectWs(base, user.token);
    cleanups.push(byUrl.close);
    const byMessage = await connectWs(base);
    cleanups.push(byMessage.close);
    byMessage.send({ type: 'auth', token: user.token });
    for (const ws of [byUrl, byMessage]) {
      await eventually(() => expect(ws.messages.length).toBeGreaterThanOrEqual(2));
      expect(ws.messages[0]).toMatchObject({ type: 'ready', role: 'user' });
      expect(ws.messages[1]!.event).toBe('live:hello');
      isHello(ws.messages[1]!.data);
    }
  });
});
