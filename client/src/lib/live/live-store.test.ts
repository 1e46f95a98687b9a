import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lastSocket, reconnect, sockets } from '../../test/fake-socket';
import { WATCH_ACK_TIMEOUT_MS, onCard, onLive, onReconnect, useLive, type LiveEvent } from './live-store';

vi.mock('socket.io-client', () => import('../../test/fake-socket'));

/** Lets the promise chain after a connect run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('live store reconnects', () => {
  let reconnects: ReturnType<typeof vi.fn<() => void>>;
  let stop: () => void;

  beforeEach(() => {
    sockets.length = 0;
    reconnects = vi.fn<() => void>();
    stop = onReconnect(reconnects);
  });
  afterEach(() => {
    stop();
    useLive.getState().disconnect();
    vi.useRealTimers();
  });

  it('does not notify on the first connect, and notifies once on each reconnect after re-watching the rooms', async () => {
    useLive.getState().connect('tok');
    useLive.getState().watch('AUC-1');
    const s = lastSocket();
    s.open();
    await flush();
    expect(useLive.getState().status).toBe('live');
    expect(s.watches()).toEqual(['AUC-1']);
    expect(reconnects).not.toHaveBeenCalled();

    s.drop();
    expect(useLive.getState().status).toBe('down');
    s.open();
    await flush();
    expect(s.watches()).toEqual(['AUC-1', 'AUC-1']);
    expect(reconnects).toHaveBeenCalledTimes(1);

    reconnect();
    await flush();
    expect(reconnects).toHaveBeenCalledTimes(2);
  });

  it('notifies only once the server has answered the re-watches, so the re-reads miss nothing', async () => {
    useLive.getState().connect('tok');
    useLive.getState().watch('AUC-1');
    useLive.getState().watch('AUC-2');
    const s = lastSocket();
    s.open();
    s.holdAcks = true;
    reconnect();
    await flush();
    expect(s.pendingAcks).toHaveLength(2);
    s.pendingAcks[0]!();
    await flush();
    expect(reconnects).not.toHaveBeenCalled();
    s.pendingAcks[1]!();
    await flush();
    expect(reconnects).toHaveBeenCalledTimes(1);
  });

  it('goes ahead without an answer after the ack timeout', async () => {
    vi.useFakeTimers();
    useLive.getState().connect('tok');
    useLive.getState().watch('AUC-1');
    const s = lastSocket();
    s.open();
    s.holdAcks = true;
    reconnect();
    await vi.advanceTimersByTimeAsync(WATCH_ACK_TIMEOUT_MS - 1);
    expect(reconnects).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reconnects).toHaveBeenCalledTimes(1);
  });

  it('does not notify for a reconnect that dropped again before its rooms were watched', async () => {
    useLive.getState().connect('tok');
    useLive.getState().watch('AUC-1');
    const s = lastSocket();
    s.open();
    s.holdAcks = true;
    reconnect();
    s.drop();
    s.pendingAcks[0]!();
    await flush();
    expect(reconnects).not.toHaveBeenCalled();
  });

  it('a new connection (another token) starts afresh: its first connect is not a reconnect', async () => {
    useLive.getState().connect('tok');
    lastSocket().open();
    useLive.getState().disconnect();
    useLive.getState().connect('other');
    expect(sockets).toHaveLength(2);
    lastSocket().open();
    await flush();
    expect(reconnects).not.toHaveBeenCalled();
  });

  it('notifies on the server\'s live:resync as on a reconnect, without watching again (the socket kept its rooms)', async () => {
    useLive.getState().connect('tok');
    useLive.getState().watch('AUC-1');
    const s = lastSocket();
    s.open();
    await flush();
    s.resync();
    expect(reconnects).toHaveBeenCalledTimes(1);
    expect(s.watches()).toEqual(['AUC-1']);
    expect(useLive.getState().status).toBe('live');
    // A socket this store has let go of re-reads nothing.
    useLive.getState().disconnect();
    s.resync();
    expect(reconnects).toHaveBeenCalledTimes(1);
  });

  it('stops notifying a listener once it unsubscribes', async () => {
    useLive.getState().connect('tok');
    lastSocket().open();
    stop();
    reconnect();
    await flush();
    expect(reconnects).not.toHaveBeenCalled();
  });
});

describe('live store events', () => {
  afterEach(() => useLive.getState().disconnect());

  it('passes on the catalogue auction:extended and the one inside frames, as sent', () => {
    const got: LiveEvent[] = [];
    const stop = onLive('auction:extended', (_data, e) => got.push(e));
    useLive.getState().connect('tok');
    const s = lastSocket();
    s.open();
    const server_time = '2026-06-01T10:00:00.000Z';
    const room = { auction_id: 'AUC-1', valid_until: '2026-06-01T10:02:00.000Z', original_valid_until: '2026-06-01T10:00:30.000Z', server_time };
    const summary = {
      id: 'AUC-1', auction_id: 'AUC-1', name: 'Watches', valid_until: room.valid_until, original_valid_until: room.original_valid_until,
      product_count: 1, status: 'active', increment_rule: 'flat', soft_close_s: 120, max_extension_s: 3600, extended: true, server_time,
    };
    s['fire']('frame', { room: 'auction:AUC-1', server_time, events: [{ event: 'auction:extended', data: room }] });
    s['fire']('auction:extended', summary);
    stop();
    expect(got).toEqual([{ event: 'auction:extended', data: room }, { event: 'auction:extended', data: summary }]);
  });
});

describe('live store subscriptions by event type', () => {
  afterEach(() => useLive.getState().disconnect());

  it('hands each listener only the events it named, their data first, in arrival order, until it unsubscribes', () => {
    const got: string[] = [];
    const server_time = '2026-06-01T10:00:00.000Z';
    const stopEnds = onLive(['auction:ended', 'auction:settled'], (data, e) => got.push(`ends ${e.event} ${data.auction_id}`));
    const stopWallet = onLive('wallet:updated', (data) => got.push(`wallet ${data.wallet_balance}`));
    useLive.getState().connect('tok');
    const s = lastSocket();
    s.open();
    s.send('frame', {
      room: 'auction:AUC-1', server_time, events: [
        { event: 'auction:ending', data: { auction_id: 'AUC-1', seconds_left: 10, server_time } },
        { event: 'auction:ended', data: { auction_id: 'AUC-1', server_time } },
      ],
    });
    s.send('wallet:updated', { wallet_balance: 5, server_time });
    s.send('frame', { room: 'auction:AUC-1', server_time, events: [{ event: 'auction:settled', data: { auction_id: 'AUC-1', server_time } }] });
    stopEnds();
    s.send('frame', { room: 'auction:AUC-2', server_time, events: [{ event: 'auction:ended', data: { auction_id: 'AUC-2', server_time } }] });
    s.send('wallet:updated', { wallet_balance: 6, server_time });
    stopWallet();
    s.send('wallet:updated', { wallet_balance: 7, server_time });
    expect(got).toEqual(['ends auction:ended AUC-1', 'wallet 5', 'ends auction:settled AUC-1', 'wallet 6']);
  });
});

describe('live store: the Browse cards this tab shows', () => {
  beforeEach(() => {
    sockets.length = 0;
  });
  afterEach(() => {
    useLive.getState().disconnect();
  });

  const cardWatches = () => lastSocket().emitted.filter((e) => e.event === 'catalogue:watch').map((e) => e.args[0]);

  it('asks for the list given before the socket is up once it connects, each change once, and the same list again after a reconnect', () => {
    useLive.getState().watchCards(['A', 'B']);
    useLive.getState().connect('tok');
    lastSocket().open();
    expect(cardWatches()).toEqual([['A', 'B']]);
    useLive.getState().watchCards(['A', 'B']);
    expect(cardWatches()).toHaveLength(1);
    useLive.getState().watchCards(['A', 'B', 'C']);
    reconnect();
    expect(cardWatches()).toEqual([['A', 'B'], ['A', 'B', 'C'], ['A', 'B', 'C']]);
    useLive.getState().watchCards([]);
    expect(cardWatches().at(-1)).toEqual([]);
  });

  it('asks for at most CARD_WATCH_MAX cards, each once: the last ones given', () => {
    useLive.getState().connect('tok');
    lastSocket().open();
    const ids = Array.from({ length: 130 }, (_, i) => `A-${i}`);
    useLive.getState().watchCards([...ids, 'A-129']);
    expect(cardWatches().at(-1)).toEqual(ids.slice(30));
  });

  it('hands each catalogue:card to its listeners', () => {
    const cards: unknown[] = [];
    const stop = onCard((data) => cards.push(data));
    useLive.getState().connect('tok');
    lastSocket().open();
    const data = { auction_id: 'A', card: null, server_time: new Date(0).toISOString() };
    lastSocket().send('catalogue:card', data);
    stop();
    lastSocket().send('catalogue:card', data);
    expect(cards).toEqual([data]);
  });
});
