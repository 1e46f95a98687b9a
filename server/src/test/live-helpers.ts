/** Real socket.io and WebSocket clients against a listening app, collecting what they receive. */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import WebSocket from 'ws';
import type { ClientToServerEvents, Frame, RoomEvent, ServerToClientEvents } from '@auction/shared';
import type { App } from '../context.js';

export type LiveClient = Socket<ServerToClientEvents, ClientToServerEvents>;

export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A connected client that records every frame's events and every personal event, in arrival order. */
export async function connect(base: string, token: string | undefined) {
  const socket: LiveClient = io(base, { auth: token === undefined ? {} : { token }, transports: ['websocket'], forceNew: true, reconnection: false });
  const frames: Frame[] = [];
  const personal: { event: string; data: unknown }[] = [];
  socket.on('frame', (f) => frames.push(f));
  socket.onAny((event: string, data: unknown) => { if (event !== 'frame') personal.push({ event, data }); });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
  return {
    socket,
    frames,
    personal,
    roomEvents: (name?: string): RoomEvent[] => frames.flatMap((f) => f.events).filter((e) => name === undefined || e.event === name),
    personalOf: (name: string) => personal.filter((p) => p.event === name).map((p) => p.data),
    watch: (auctionId: string) => socket.emitWithAck('auction:watch', auctionId),
    close: () => { socket.disconnect(); },
  };
}

export async function connectRefused(base: string, token: string | undefined): Promise<string> {
  try {
    const c = await connect(base, token);
    c.close();
    return 'connected';
  } catch (err) {
    return (err as Error).message;
  }
}

/** A plain WebSocket client of /api/ws recording every JSON message. */
export async function connectWs(base: string, token?: string, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ ...(token ? { token } : {}), ...query }).toString();
  const url = `${base.replace('http', 'ws')}/api/ws${params ? `?${params}` : ''}`;
  const ws = new WebSocket(url);
  const messages: Record<string, unknown>[] = [];
  let closeCode: number | null = null;
  ws.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString()) as Record<string, unknown>));
  const closed = new Promise<number>((resolve) => ws.on('close', (code: number) => { closeCode = code; resolve(code); }));
  await new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
  return {
    ws,
    messages,
    closed,
    closeCode: () => closeCode,
    send: (msg: object) => ws.send(JSON.stringify(msg)),
    frames: () => messages.filter((m) => 'room' in m) as unknown as Frame[],
    close: () => ws.close(),
  };
}

/** Polls until `check` passes or the time is up (then runs it once more to fail with its message). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000, stepMs = 20) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
