/**
 * The plain WebSocket feed at /api/ws for scripts and non-browser clients (docs/live-protocol.md): the token as
 * `?token=` or a first `{ type: "auth" }` message, `{ type: "watch" }` to subscribe, then the same
 * JSON frames as socket.io watchers and personal events as `{ event, data }`; `{ type: "cards" }` sets the
 * Browse cards shown (`catalogue:card`).
 */
import type {} from '@fastify/websocket';
import type { WebSocket } from 'ws';
import { Type } from 'typebox';
import { adminRoom, auctionRoom, cardsRoom, feedRoom, userRoom, WS_CLOSE_UNAUTHENTICATED, type WsClientMessage } from '@auction/shared';
import type { App, AppContext } from '../context.js';
import type { Caller } from '../domain/accounts.js';
import { dropSlowConsumers, MessageRate, openSession, SOCKET_LIMITS } from './sessions.js';
import type { LiveHub, Transport } from './hub.js';
import { checkCards, checkWatch } from './watch.js';
import { CARDS_RATE_LIMITED, type CardAllowance } from './card-budget.js';

const AUTH_TIMEOUT_MS = 10_000;
/** Sockets written per slice of a frame (hub.ts paces the slices). */
const WS_SLICE = 64;
/** Messages a client may have waiting (sent while its authentication or a watch is still running). */
const MAX_QUEUED = 50;
/** Connections from one address that may be waiting to authenticate at once. */
const MAX_UNAUTHENTICATED_PER_IP = 20;

/**
 * Keep-alive (docs/live-protocol.md#socket-lifetime-and-limits): every peer is pinged every `pingMs`; one that has not answered `pongTimeoutMs`
 * after a ping is closed (a vanished peer frees its socket and its rooms). Tests shorten them.
 */
export const WS_KEEPALIVE = { pingMs: 25_000, pongTimeoutMs: 20_000 };

class Rooms {
  private readonly members = new Map<string, Set<WebSocket>>();

  join(room: string, ws: WebSocket) {
    let set = this.members.get(room);
    if (!set) this.members.set(room, (set = new Set()));
    const added = !set.has(ws);
    set.add(ws);
    return added;
  }

  leave(room: string, ws: WebSocket) {
    const set = this.members.get(room);
    const removed = set?.delete(ws) ?? false;
    if (set?.size === 0) this.members.delete(room);
    return removed;
  }

  get(room: string): ReadonlySet<WebSocket> {
    return this.members.get(room) ?? new Set();
  }
}

const CARDS_PREFIX = cardsRoom('');

/** A room a socket watches an auction through (merged, or every event with `feed=all`). */
const isWatch = (room: string) => room.startsWith('auction:') || room.startsWith('feed:');

function send(ws: WebSocket, json: string) {
  if (ws.readyState === ws.OPEN) ws.send(json);
}

export function wsFeed(app: App, ctx: AppContext, hub: LiveHub) {
  const rooms = new Rooms();
  const everyone = new Set<WebSocket>();
  const roomsOf = new Map<WebSocket, Set<string>>();
  /** Open connections, authenticated or not (for /metrics). */
  let socketCount = 0;

  /** Connections still authenticating, per client address (at most MAX_UNAUTHENTICATED_PER_IP). */
  const pending = new Map<string, number>();

  const transport: Transport = {
    name: 'websocket',
    socketCount: () => socketCount,
    frameSlices: (frame, json) => {
      const members = [...rooms.get(frame.room)];
      const sends: Array<() => void> = [];
      for (let i = 0; i < members.length; i += WS_SLICE) {
        const slice = members.slice(i, i + WS_SLICE);
        sends.push(() => { for (const ws of slice) send(ws, json); });
      }
      return sends;
    },
    sendToUser: (userId, event, data) => {
      const members = rooms.get(userRoom(userId));
      if (members.size === 0) return;
      const json = JSON.stringify({ event, data });
      for (const ws of members) send(ws, json);
    },
    sendToAll: (event, data) => {
      if (everyone.size === 0) return;
      const json = JSON.stringify({ event, data });
      for (const ws of everyone) send(ws, json);
    },
    cardSlices: (room, data) => {
      const members = [...rooms.get(room)];
      if (members.length === 0) return [];
      const json = JSON.stringify({ event: 'catalogue:card', data });
      const sends: Array<() => void> = [];
      for (let i = 0; i < members.length; i += WS_SLICE) {
        const slice = members.slice(i, i + WS_SLICE);
        sends.push(() => { for (const ws of slice) send(ws, json); });
      }
      return sends;
    },
    roomSize: (room) => rooms.get(room).size,
    close: () => {
      stopChecks();
      for (const ws of everyone) ws.close(1001, 'server shutting down');
    },
  };
  // A peer that stops reading is dropped once 1 MiB waits for it (terminate: its buffers are freed now).
  const stopChecks = dropSlowConsumers(() => everyone, (ws) => ws.bufferedAmount, (ws) => {
    hub.counts.slowDrops.websocket++;
    ws.terminate();
  });
  hub.attach(transport);

  app.get('/ws', {
    websocket: true,
    schema: { tags: ['live'], summary: 'Plain WebSocket feed (docs/live-protocol.md)', querystring: Type.Object({
      token: Type.Optional(Type.String({ maxLength: 4096 })),
      // Admins: every event of a watched auction, unmerged (watchers get the newest state per frame).
      feed: Type.Optional(Type.Literal('all')),
    }) },
  }, (ws, req) => {
    // Connections that have not authenticated yet are bounded per address, and closed after AUTH_TIMEOUT_MS.
    const waitingHere = (pending.get(req.ip) ?? 0) + 1;
    if (waitingHere > MAX_UNAUTHENTICATED_PER_IP) {
      ws.close(1008, 'too many connections waiting to authenticate');
      return;
    }
    pending.set(req.ip, waitingHere);
    socketCount++;
    let counted = true;
    const settled = () => {
      if (!counted) return;
      counted = false;
      const left = (pending.get(req.ip) ?? 1) - 1;
      if (left > 0) pending.set(req.ip, left);
      else pending.delete(req.ip);
    };
    let caller: Caller | null = null;
    /** The cards its lists add are budgeted once it is authenticated, with its account's other sockets (card-budget.ts). */
    let cardBudget: CardAllowance | null = null;
    const fullFeed = req.query.feed === 'all';
    /** The room this socket watches an auction through: every event with `feed=all`, else the merged one. */
    const watchRoom = (auctionId: string) => (fullFeed ? feedRoom(auctionId) : auctionRoom(auctionId));
    const mine = new Set<string>();
    roomsOf.set(ws, mine);
    const reply = (msg: object) => send(ws, JSON.stringify(msg));
    const fail = (code: string, message: string) => reply({ type: 'error', error: { code, message } });

    const admit = async (token: string | undefined) => {
      const session = await openSession(ctx.tokens, ctx.store.reads, token ?? null);
      if (!session) return ws.close(WS_CLOSE_UNAUTHENTICATED, 'unauthenticated');
      if (ws.readyState !== ws.OPEN) return;
      if (fullFeed && session.caller.role !== 'admin') {
        fail('FORBIDDEN', 'feed=all is for admins');
        return ws.close(1008, 'feed=all is for admins');
      }
      caller = session.caller;
      cardBudget = hub.cardBudgets.open(caller.role, caller.id);
      clearTimeout(authTimer);
      settled();
      // A socket lives no longer than its token, and an account has a bounded number of them.
      hub.sessions.add(ws, session, (why) => ws.close(WS_CLOSE_UNAUTHENTICATED, why === 'expired' ? 'token expired' : why === 'revoked' ? 'token revoked' : 'too many connections'));
      const own = caller.role === 'user' ? userRoom(caller.id) : adminRoom(caller.id);
      rooms.join(own, ws);
      mine.add(own);
      everyone.add(ws);
      reply({ type: 'ready', role: caller.role, id: caller.id });
      // The first event, before any other can reach the socket: the version of the live contract.
      reply({ event: 'live:hello', data: hub.hello() });
    };
    const authTimer = setTimeout(() => { if (!caller) ws.close(WS_CLOSE_UNAUTHENTICATED, 'no token'); }, AUTH_TIMEOUT_MS);

    // Messages are handled one after another, in order: a `watch` sent right after connecting waits
    // for the authentication in flight (`?token=` or a first `auth` message) instead of being refused.
    let chain: Promise<unknown> = Promise.resolve();
    let queued = 0;
    const inOrder = (step: () => Promise<unknown>) => {
      if (++queued > MAX_QUEUED) {
        ws.close(1008, 'too many messages waiting');
        return;
      }
      chain = chain.then(step).catch((err: unknown) => {
        req.log.error({ err }, 'ws message failed');
        fail('INTERNAL', 'Something went wrong on our side');
      }).finally(() => { queued--; });
    };

    const handle = async (msg: WsClientMessage) => {
      if (!caller) {
        if (msg.type === 'auth') return admit(msg.token);
        return ws.close(WS_CLOSE_UNAUTHENTICATED, 'authenticate first');
      }
      if (msg.type === 'watch') {
        const check = await checkWatch(ctx.store.reads, msg.auction_id, ctx.now());
        if (!check.ok) return fail(check.error.code, check.error.message);
        const room = watchRoom(check.auctionId);
        if (!mine.has(room) && [...mine].filter(isWatch).length >= SOCKET_LIMITS.watchedAuctions) {
          return fail('LIMIT_REACHED', `A connection may watch at most ${SOCKET_LIMITS.watchedAuctions} auctions`);
        }
        const added = rooms.join(room, ws);
        mine.add(room);
        const watchers = added ? await hub.watchersChanged(check.auctionId) : await hub.watchers(check.auctionId);
        reply({ type: 'watching', auction_id: check.auctionId, watchers });
        if (check.ending) reply({ room, server_time: check.ending.server_time, events: [{ event: 'auction:ending', data: check.ending }] });
      } else if (msg.type === 'cards') {
        // The cards this socket shows replace those it showed; unknown ids are harmless. Each card it
        // did not show yet follows the answer, as committed then: a list adding more than the budget
        // has left is refused whole, and the socket keeps its list.
        const check = checkCards(msg.auction_ids);
        if (!check.ok) return fail(check.error.code, check.error.message);
        const joining = check.auctionIds.filter((id) => !mine.has(cardsRoom(id)));
        if (!cardBudget?.allow(joining.length)) return fail(CARDS_RATE_LIMITED.code, CARDS_RATE_LIMITED.message);
        const wanted = new Set(check.auctionIds.map(cardsRoom));
        for (const room of [...mine]) {
          if (room.startsWith(CARDS_PREFIX) && !wanted.has(room)) {
            rooms.leave(room, ws);
            mine.delete(room);
          }
        }
        for (const room of wanted) {
          rooms.join(room, ws);
          mine.add(room);
        }
        reply({ type: 'cards', auction_ids: check.auctionIds });
        hub.showCards(joining, (data) => {
          if (mine.has(cardsRoom(data.auction_id))) send(ws, JSON.stringify({ event: 'catalogue:card', data }));
        });
      } else if (msg.type === 'unwatch') {
        const room = watchRoom(String(msg.auction_id));
        mine.delete(room);
        if (rooms.leave(room, ws)) await hub.watchersChanged(String(msg.auction_id));
      }
    };

    const rate = new MessageRate();
    ws.on('message', (raw: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      // Over SOCKET_LIMITS.messagesPerSecond: an error, then the connection closes.
      if (!rate.allow()) {
        fail('RATE_LIMITED', 'Too many messages; reconnect and slow down');
        ws.close(1008, 'too many messages');
        return;
      }
      let msg: WsClientMessage;
      try {
        if (isBinary) throw new Error('binary');
        const text = Array.isArray(raw) ? Buffer.concat(raw).toString('utf8') : Buffer.from(raw as ArrayBuffer).toString('utf8');
        msg = JSON.parse(text) as WsClientMessage;
      } catch {
        return fail('VALIDATION', 'Messages must be JSON');
      }
      if (typeof msg !== 'object' || msg === null || typeof (msg as { type?: unknown }).type !== 'string') {
        return fail('VALIDATION', 'Messages need a "type"');
      }
      inOrder(() => handle(msg));
    });

    // Keep-alive: a ping every pingMs; no pong pongTimeoutMs later closes the peer.
    let awaitingPong: NodeJS.Timeout | null = null;
    const pinger = setInterval(() => {
      if (awaitingPong || ws.readyState !== ws.OPEN) return;
      ws.ping();
      awaitingPong = setTimeout(() => ws.terminate(), WS_KEEPALIVE.pongTimeoutMs);
    }, WS_KEEPALIVE.pingMs);
    pinger.unref();
    ws.on('pong', () => {
      if (awaitingPong) clearTimeout(awaitingPong);
      awaitingPong = null;
    });

    ws.on('close', () => {
      socketCount--;
      settled();
      if (caller) hub.sessions.remove(ws, caller.role, caller.id);
      cardBudget?.close();
      clearTimeout(authTimer);
      clearInterval(pinger);
      if (awaitingPong) clearTimeout(awaitingPong);
      everyone.delete(ws);
      for (const room of mine) {
        rooms.leave(room, ws);
        if (isWatch(room)) hub.watchersChanged(room.slice(room.indexOf(':') + 1)).catch((err: unknown) => req.log.error({ err }, 'watcher count failed'));
      }
      roomsOf.delete(ws);
    });

    const token = (req.query).token;
    if (token) inOrder(() => admit(token));
  });
}
