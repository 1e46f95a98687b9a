/** The card publisher alone (card-publisher.ts): changed ids go with the frame; only the cards this process shows are read. */
import { describe, expect, it } from 'vitest';
import type { CardChangedData } from '@auction/shared';
import type { AuctionView } from '../db/index.js';
import { CardPublisher } from './card-publisher.js';
import { Fanout } from './fanout.js';
import type { Transport } from './transport.js';

const view = (id: string): AuctionView => ({
  id, name: `Auction ${id}`, validUntil: Date.now() + 3_600_000, originalValidUntil: Date.now() + 3_600_000, incrementRule: 'flat',
  incrementAmount: 100, incrementTiers: null, cancelPolicy: 'until_end', softCloseS: 0, maxExtensionS: 0, buyerPremiumBp: 0, premiumGstPct: 18, createdBy: 1, createdAt: 0,
  settledAt: null, productIds: ['P'], registrations: [], cover: null, highest: 500, bidCount: 5,
});

function setUp(shown: Record<string, number>, known: string[]) {
  const sent: Array<{ room: string; data: CardChangedData }> = [];
  const reads: string[][] = [];
  const transport: Transport = {
    name: 'socketio', socketCount: () => 0, frameSlices: () => [], sendToUser: () => undefined, sendToAll: () => undefined,
    cardSlices: (room, data) => ((shown[room] ?? 0) > 0 ? [() => { sent.push({ room, data }); }] : []),
    roomSize: (room) => shown[room] ?? 0, close: () => undefined,
  };
  const cards = new CardPublisher({
    reads: { auctionCards: (ids) => { reads.push([...ids]); return Promise.resolve(ids.filter((id) => known.includes(id)).map(view)); } },
    now: Date.now, serverTime: () => 'now', transports: [transport], interval: () => 50, fanout: new Fanout(), onError: (err) => { throw err; },
  });
  return { cards, sent, reads };
}
const settle = async (cards: CardPublisher) => {
  await new Promise((r) => setImmediate(r));
  await cards.settled();
};

describe('the card publisher', () => {
  it('hands over the ids changed since the last frame once, merged per auction', () => {
    const { cards } = setUp({}, []);
    cards.changed('A');
    cards.changed('B');
    cards.changed('A');
    expect(cards.pending).toBe(true);
    expect(cards.take()).toEqual(['A', 'B']);
    expect(cards.pending).toBe(false);
    expect(cards.take()).toEqual([]);
  });

  it('reads only the published cards this process\'s sockets show, and sends them to their rooms (null: gone)', async () => {
    const { cards, sent, reads } = setUp({ 'cards:A': 1, 'cards:C': 2 }, ['A']);
    cards.published(['A', 'B', 'C']);
    await settle(cards);
    expect(reads).toEqual([['A', 'C']]);
    expect(sent.map((s) => [s.room, s.data.card?.id ?? null])).toEqual([['cards:A', 'A'], ['cards:C', null]]);
    expect(sent[0]!.data.server_time).toBe('now');
  });

  it('reads nothing when no socket here shows a changed card', async () => {
    const { cards, reads } = setUp({}, ['A']);
    cards.published(['A']);
    await settle(cards);
    expect(reads).toEqual([]);
  });

  it('sends a socket that starts showing cards those that exist, to it alone; none once stopped', async () => {
    const { cards, sent } = setUp({}, ['A']);
    const own: CardChangedData[] = [];
    cards.show(['A', 'X'], (data) => own.push(data));
    await settle(cards);
    expect(own.map((d) => d.auction_id)).toEqual(['A']);
    expect(sent).toEqual([]);
    cards.stop();
    cards.show(['A'], (data) => own.push(data));
    await settle(cards);
    expect(own).toHaveLength(1);
  });
});
