/** socket.io on Fastify's HTTP server: token handshake, personal rooms, watch/unwatch and the cards shown, with acks. */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { adminRoom, auctionRoom, cardsRoom, userRoom, type ClientToServerEvents, type ServerToClientEvents } from '@auction/shared';
import type { Reads } from '../db/index.js';
import type { Caller } from '../domain/accounts.js';
import type { TokenService } from '../auth/tokens.js';
import type { LiveHub, Transport } from './hub.js';
import { dropSlowConsumers, MessageRate, openSession, SOCKET_LIMITS, type Session } from './sessions.js';
import { checkCards, checkWatch } from './watch.js';
import { CARDS_RATE_LIMITED } from './card-budget.js';

interface SocketData {
  caller: Caller;
  session: Session;
}

type LiveServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type LiveSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const AUCTION_PREFIX = 'auction:';
const CARDS_PREFIX = cardsRoom('');
/** Sockets written per slice of a card event (hub.ts paces the slices). */
const CARD_SLICE = 64;

/**
 * Each auction room is also split into this many slice rooms, a watcher joining one of them in turn,
 * so the hub can write a frame slice by slice (hub.ts). socket.io encodes a broadcast once, so a frame
 * is encoded once per slice, not once per socket.
 */
const SLICES = 16;
const sliceRoom = (room: string, k: number) => `slice:${k}:${room}`;
/** The auction room a slice room belongs to, or null. */
const sliceOf = (r: string) => (r.startsWith('slice:') ? r.slice(r.indexOf(':', 'slice:'.length) + 1) : null);

export function attachSocketIo(props: { server: HttpServer; hub: LiveHub; tokens: TokenService; reads: Reads; now: () => number; corsOrigin?: string; onError: (err: unknown) => void }) {
  const { server, hub, tokens, reads, now, corsOrigin, onError } = props;
  const io: LiveServer = new Server(server, {
    serveClient: false,
    // socket.io answers outside Fastify's hooks, so it takes CORS_ORIGIN itself.
    ...(corsOrigin ? { cors: { origin: corsOrigin, credentials: true } } : {}),
    // Other upgrades (the plain /api/ws feed) belong to Fastify.
    destroyUpgrade: false,
  });

  io.use((socket, next) => {
    const token: unknown = socket.handshake.auth.token;
    openSession(tokens, reads, typeof token === 'string' ? token : null).then((session) => {
      if (!session) return next(new Error('UNAUTHENTICATED'));
      socket.data.caller = session.caller;
      socket.data.session = session;
      next();
    }, () => next(new Error('UNAUTHENTICATED')));
  });

  let nextSlice = 0;
  io.on('connection', (socket: LiveSocket) => {
    const { caller, session } = socket.data;
    // Before anything else reaches the socket: the version of the live contract this server speaks.
    socket.emit('live:hello', hub.hello());
    void socket.join(caller.role === 'user' ? userRoom(caller.id) : adminRoom(caller.id));
    // A socket lives no longer than its token, and an account has a bounded number of them.
    hub.sessions.add(socket, session, () => { socket.disconnect(true); });
    // The cards its lists add are budgeted, with its account's other sockets (card-budget.ts).
    const cardBudget = hub.cardBudgets.open(caller.role, caller.id);
    socket.on('disconnect', () => {
      hub.sessions.remove(socket, caller.role, caller.id);
      cardBudget.close();
    });

    // At most SOCKET_LIMITS.messagesPerSecond messages a second: the one over gets an error ack, then
    // the socket is closed (it reconnects and re-reads state: docs/live-protocol.md#reconnecting).
    const rate = new MessageRate();
    socket.use((packet, next) => {
      if (rate.allow()) return next();
      const ack: unknown = packet.at(-1);
      if (typeof ack === 'function') (ack as (r: unknown) => void)({ status: 'error', error: { code: 'RATE_LIMITED', message: 'Too many messages; reconnect and slow down' } });
      socket.disconnect(true);
    });

    socket.on('auction:watch', (auctionId, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const watch = async () => {
        const check = await checkWatch(reads, auctionId, now());
        if (!check.ok) return reply({ status: 'error', error: check.error });
        const room = auctionRoom(check.auctionId);
        const already = socket.rooms.has(room);
        if (!already && [...socket.rooms].filter((r) => r.startsWith(AUCTION_PREFIX)).length >= SOCKET_LIMITS.watchedAuctions) {
          return reply({ status: 'error', error: { code: 'LIMIT_REACHED', message: `A connection may watch at most ${SOCKET_LIMITS.watchedAuctions} auctions` } });
        }
        if (!already) void socket.join([room, sliceRoom(room, nextSlice++ % SLICES)]);
        const watchers = already ? await hub.watchers(check.auctionId) : await hub.watchersChanged(check.auctionId);
        reply({ status: 'ok', data: { auction_id: check.auctionId, watchers } });
        if (check.ending) socket.emit('frame', { room, server_time: check.ending.server_time, events: [{ event: 'auction:ending', data: check.ending }] });
      };
      watch().catch((err: unknown) => {
        onError(err);
        reply({ status: 'error', error: { code: 'INTERNAL', message: 'Something went wrong on our side' } });
      });
    });

    socket.on('auction:unwatch', (auctionId, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (typeof auctionId !== 'string') return reply({ status: 'error', error: { code: 'VALIDATION', message: 'auction_id must be a string' } });
      const room = auctionRoom(auctionId);
      const was = socket.rooms.has(room);
      for (const r of [...socket.rooms]) if (r === room || sliceOf(r) === room) void socket.leave(r);
      reply({ status: 'ok', data: { auction_id: auctionId } });
      if (was) hub.watchersChanged(auctionId).catch(onError);
    });

    // The cards this socket shows replace those it showed; unknown ids are harmless. Each card it did
    // not show yet follows the answer, as committed then: a list adding more than the budget has left
    // is refused whole, and the socket keeps its list.
    socket.on('catalogue:watch', (auctionIds, ack) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      const check = checkCards(auctionIds);
      if (!check.ok) return reply({ status: 'error', error: check.error });
      const joining = check.auctionIds.filter((id) => !socket.rooms.has(cardsRoom(id)));
      if (!cardBudget.allow(joining.length)) return reply({ status: 'error', error: CARDS_RATE_LIMITED });
      const wanted = new Set(check.auctionIds.map(cardsRoom));
      for (const r of [...socket.rooms]) if (r.startsWith(CARDS_PREFIX) && !wanted.has(r)) void socket.leave(r);
      if (joining.length > 0) void socket.join(joining.map(cardsRoom));
      reply({ status: 'ok', data: { auction_ids: check.auctionIds } });
      hub.showCards(joining, (data) => {
        if (socket.connected && socket.rooms.has(cardsRoom(data.auction_id))) socket.emit('catalogue:card', data);
      });
    });

    socket.on('disconnecting', () => {
      const watched = [...socket.rooms].filter((r) => r.startsWith(AUCTION_PREFIX)).map((r) => r.slice(AUCTION_PREFIX.length));
      // The socket is still in its rooms while disconnecting: count after it has left.
      setImmediate(() => { for (const id of watched) hub.watchersChanged(id).catch(onError); });
    });
  });

  const transport: Transport = {
    name: 'socketio',
    socketCount: () => io.engine.clientsCount,
    // socket.io encodes a room broadcast once and writes the same packet to every socket of the slice.
    frameSlices: (frame) => {
      // Personal rooms (an admin's own bid feed) are small: one piece.
      if (!frame.room.startsWith(AUCTION_PREFIX)) return [() => io.to(frame.room).emit('frame', frame)];
      const rooms = io.sockets.adapter.rooms;
      const sends: Array<() => void> = [];
      for (let k = 0; k < SLICES; k++) {
        const slice = sliceRoom(frame.room, k);
        if (rooms.has(slice)) sends.push(() => io.to(slice).emit('frame', frame));
      }
      return sends;
    },
    // socket.io encodes a broadcast before it looks for its sockets: an account with none here costs nothing.
    sendToUser: (userId, event, data) => {
      const room = userRoom(userId);
      if (!io.sockets.adapter.rooms.has(room)) return;
      (io.to(room).emit as (e: string, d: unknown) => boolean)(event, data);
    },
    sendToAll: (event, data) => {
      (io.emit as (e: string, d: unknown) => boolean)(event, data);
    },
    // Encoded once per slice: a slice names its sockets by id (each socket is in a room of its own id).
    cardSlices: (room, data) => {
      const members = io.sockets.adapter.rooms.get(room);
      if (!members || members.size === 0) return [];
      if (members.size <= CARD_SLICE) return [() => io.to(room).emit('catalogue:card', data)];
      const ids = [...members];
      const sends: Array<() => void> = [];
      for (let i = 0; i < ids.length; i += CARD_SLICE) {
        const slice = ids.slice(i, i + CARD_SLICE);
        sends.push(() => io.to(slice).emit('catalogue:card', data));
      }
      return sends;
    },
    roomSize: (room) => io.sockets.adapter.rooms.get(room)?.size ?? 0,
    close: () => {
      stopChecks();
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
  // A peer that stops reading is dropped once 1 MiB waits for it: engine.io's queue plus the bytes
  // its WebSocket has not handed to the network yet; the raw socket is terminated, freeing them now.
  type Raw = { writeBuffer?: { data?: unknown }[]; transport?: { socket?: { bufferedAmount?: number; terminate?: () => void } } };
  const rawOf = (socket: LiveSocket) => socket.conn as unknown as Raw;
  const stopChecks = dropSlowConsumers(
    () => io.sockets.sockets.values(),
    (socket) => {
      const raw = rawOf(socket);
      const queued = (raw.writeBuffer ?? []).reduce((n, p) => n + (typeof p.data === 'string' ? p.data.length : 0), 0);
      return queued + (raw.transport?.socket?.bufferedAmount ?? 0);
    },
    (socket) => {
      hub.counts.slowDrops.socketio++;
      rawOf(socket).transport?.socket?.terminate?.();
      socket.disconnect(true);
    },
  );
  hub.attach(transport);
  return io;
}
