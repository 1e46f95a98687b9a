/**
 * The tab's one live connection (docs/live-protocol.md): a socket owned by this store, reconnecting with
 * backoff and re-watching what it watched. Frames are unpacked here; features subscribe to the events
 * they use by name (`onLive('bid:placed', handler)`, or a list of names for one handler), and to
 * reconnects, after which they re-read what they show (events sent while down are lost:
 * docs/live-protocol.md#reconnecting). The server's `live:resync` (its process may have missed events
 * of other processes) is handled as a reconnect.
 *
 * Room events arrive in frames; the personal and catalogue events are listened to on the socket by the
 * names the contract lists (PERSONAL_EVENT_NAMES, shared/src/live.ts). Features name only what they use;
 * the one table over every event is the server's deliveries (server/src/live/deliveries.ts).
 */
import { io, type Socket } from 'socket.io-client';
import { create } from 'zustand';
import {
  CARD_WATCH_MAX, LIVE_PROTOCOL_VERSION, PERSONAL_EVENT_NAMES, type CardChangedData, type CardEventMap, type ClientToServerEvents, type ControlEventMap, type PersonalEventMap, type RoomEvent,
  type RoomEventName, type ServerToClientEvents,
} from '@auction/shared';

export type LiveStatus = 'idle' | 'connecting' | 'live' | 'down';
/** Every live event type a feature may subscribe to: those in frames and those sent on their own. */
export type LiveEventName = RoomEventName | keyof PersonalEventMap;
/**
 * A live event of type `N` (every type by default) as listeners get it. `auction:extended` is both a
 * room event and a catalogue event: its data is either payload.
 */
export type LiveEvent<N extends LiveEventName = LiveEventName> =
  | Extract<RoomEvent, { event: N }>
  | { [K in N & keyof PersonalEventMap]: { event: K; data: PersonalEventMap[K] } }[N & keyof PersonalEventMap];
/** The data of a live event of type `N` (the union of their data for several). */
export type LiveData<N extends LiveEventName> = LiveEvent<N>['data'];
/** A listener of the events `N`: their data, and the whole event (for reducers that switch on its type). */
export type LiveHandler<N extends LiveEventName> = (data: LiveData<N>, e: LiveEvent<N>) => void;
type AnyHandler = (data: LiveData<LiveEventName>, e: LiveEvent) => void;

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface LiveState {
  status: LiveStatus;
  /**
   * The server speaks another live protocol than this tab was built for (`live:hello`): a new version
   * of the app is out and this tab should be reloaded. Set once per tab; `dismissOutdated` hides the
   * notice (it does not come back on a reconnect).
   */
  outdated: 'no' | 'yes' | 'dismissed';
  dismissOutdated: () => void;
  /** Watcher counts by auction id, from `auction:watchers`. */
  watchers: Record<string, number>;
  connect: (token: string) => void;
  disconnect: () => void;
  watch: (auctionId: string) => void;
  unwatch: (auctionId: string) => void;
  /**
   * The Browse cards on screen: replaces the list the server sends `catalogue:card` for (the last
   * CARD_WATCH_MAX ids when more are given; [] for none). Sent again after a reconnect.
   */
  watchCards: (auctionIds: readonly string[]) => void;
}

let socket: LiveSocket | null = null;
let currentToken: string | null = null;
const watched = new Map<string, number>();
/** Per event type, its listeners in the order they subscribed. */
const listeners = new Map<LiveEventName, Set<AnyHandler>>();
const reconnectListeners = new Set<() => void>();
const cardListeners = new Set<(data: CardChangedData) => void>();
/** The cards this tab shows (what the server was last asked to send `catalogue:card` for). */
let watchedCards: string[] = [];
/** How long a re-watch may wait for its ack before the re-reads go ahead anyway. */
export const WATCH_ACK_TIMEOUT_MS = 3000;

/**
 * The events `names` (one type or several), frames unpacked, in arrival order: listeners of one event
 * are called in the order they subscribed. Returns the unsubscribe function.
 */
export function onLive<N extends LiveEventName>(names: N | readonly N[], handler: LiveHandler<N>): () => void {
  const types: readonly N[] = typeof names === 'string' ? [names] : names;
  const h = handler as AnyHandler;
  for (const name of types) {
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(h);
  }
  return () => {
    for (const name of types) listeners.get(name)?.delete(h);
  };
}

/** Whether `e` is one of the event types `names` (narrowing it), for reducers given any live event. */
export function isLiveEvent<N extends LiveEventName>(e: LiveEvent, names: readonly N[]): e is LiveEvent<N> {
  return (names as readonly LiveEventName[]).includes(e.event);
}

/**
 * Called each time the socket is back after a drop (never on its first connect), once its rooms are
 * watched again, and each time the server says its process may have missed events (`live:resync`,
 * docs/live-protocol.md#re-reading-after-a-relay-gap). The server does not replay what was published
 * meanwhile, possibly by another process (docs/live-protocol.md#reconnecting): re-read from the API
 * what is shown. Returns the unsubscribe function.
 */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Every `catalogue:card` (a Browse card on screen changed, or is gone). Returns the unsubscribe function. */
export function onCard(listener: (data: CardChangedData) => void): () => void {
  cardListeners.add(listener);
  return () => cardListeners.delete(listener);
}

/**
 * The card events, declared over the contract's whole map: a card event added to it fails to compile
 * until it is handled here.
 */
const CARD_EVENTS: { [K in keyof CardEventMap]: (data: CardEventMap[K]) => void } = {
  'catalogue:card': (data) => {
    for (const l of cardListeners) l(data);
  },
};

function notifyReconnect() {
  for (const l of reconnectListeners) l();
}

function dispatch(e: LiveEvent) {
  if (e.event === 'auction:watchers') {
    const data = e.data;
    useLive.setState((s) => ({ watchers: { ...s.watchers, [data.auction_id]: data.watchers } }));
  }
  const set = listeners.get(e.event);
  if (set) for (const l of set) l(e.data, e);
}

/** What a control event does to this tab's socket, for every control event of the contract. */
const CONTROL: { [K in keyof ControlEventMap]: (s: LiveSocket, data: ControlEventMap[K]) => void } = {
  // Another protocol than this build's: tell the person once that a new version is out.
  'live:hello': (_s, data) => {
    if (data.protocol !== LIVE_PROTOCOL_VERSION && useLive.getState().outdated === 'no') useLive.setState({ outdated: 'yes' });
  },
  // The socket and its rooms stayed; what was published meanwhile elsewhere may not have reached it.
  'live:resync': (s) => {
    if (socket === s) notifyReconnect();
  },
};

/** Resolves once the server has answered (it joins the room first), or after WATCH_ACK_TIMEOUT_MS. */
function emitWatch(s: LiveSocket, auctionId: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, WATCH_ACK_TIMEOUT_MS);
    s.emit('auction:watch', auctionId, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export const useLive = create<LiveState>()((set) => ({
  status: 'idle',
  watchers: {},
  outdated: 'no',
  dismissOutdated: () => set((st) => (st.outdated === 'yes' ? { outdated: 'dismissed' } : st)),

  connect: (token) => {
    if (socket && currentToken === token) return;
    socket?.disconnect();
    currentToken = token;
    const base = import.meta.env.VITE_API_BASE ? new URL(import.meta.env.VITE_API_BASE, window.location.href).origin : undefined;
    const s: LiveSocket = io(base ?? '', {
      auth: { token },
      transports: ['websocket'],
      reconnectionDelay: 1000,
      reconnectionDelayMax: 10_000,
    });
    socket = s;
    set({ status: 'connecting' });
    // Counts this socket's connects: the first is not a reconnect, and a later one supersedes a pending one.
    let connects = 0;
    s.on('connect', () => {
      set({ status: 'live' });
      // After a reconnect the server has forgotten this socket's rooms and cards: ask for them again.
      if (watchedCards.length > 0) s.emit('catalogue:watch', watchedCards);
      const rejoined = [...watched.keys()].map((id) => emitWatch(s, id));
      const round = ++connects;
      if (round === 1) return;
      // Re-read only once the rooms are joined, so nothing published from here on can be missed.
      void Promise.all(rejoined).then(() => {
        if (socket === s && s.connected && round === connects) notifyReconnect();
      });
    });
    s.on('disconnect', () => set({ status: 'down' }));
    s.on('connect_error', (err) => {
      set({ status: 'down' });
      // A refused token will not get better by retrying; the next API call's 401 ends the session.
      if (err.message === 'UNAUTHENTICATED') s.disconnect();
    });
    for (const name of Object.keys(CONTROL) as (keyof ControlEventMap)[]) {
      (s.on as (ev: string, fn: (data: unknown) => void) => void)(name, (data) => (CONTROL[name] as (sock: LiveSocket, d: unknown) => void)(s, data));
    }
    s.on('frame', (frame) => { for (const e of frame.events) dispatch(e); });
    for (const name of Object.keys(CARD_EVENTS) as (keyof CardEventMap)[]) {
      (s.on as (ev: string, fn: (data: unknown) => void) => void)(name, (data) => (CARD_EVENTS[name] as (d: unknown) => void)(data));
    }
    for (const name of PERSONAL_EVENT_NAMES) {
      (s.on as (ev: string, fn: (data: unknown) => void) => void)(name, (data) => dispatch({ event: name, data } as LiveEvent));
    }
  },

  disconnect: () => {
    socket?.disconnect();
    socket = null;
    currentToken = null;
    watched.clear();
    watchedCards = [];
    set({ status: 'idle', watchers: {} });
  },

  watch: (auctionId) => {
    const n = watched.get(auctionId) ?? 0;
    watched.set(auctionId, n + 1);
    if (n === 0 && socket?.connected) void emitWatch(socket, auctionId);
  },

  unwatch: (auctionId) => {
    const n = watched.get(auctionId) ?? 0;
    if (n <= 1) {
      watched.delete(auctionId);
      socket?.emit('auction:unwatch', auctionId);
    } else watched.set(auctionId, n - 1);
  },

  watchCards: (auctionIds) => {
    const ids = [...new Set(auctionIds)].slice(-CARD_WATCH_MAX);
    if (ids.length === watchedCards.length && ids.every((id, i) => id === watchedCards[i])) return;
    watchedCards = ids;
    if (socket?.connected) socket.emit('catalogue:watch', ids);
  },
}));

/** For tests: feed an event as if it arrived from the server. */
export function injectLiveEvent(e: LiveEvent) {
  dispatch(e);
}
