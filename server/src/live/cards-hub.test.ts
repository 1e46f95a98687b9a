/**
 * The hub's card reads without a server (docs/live-protocol.md#browse-cards): only cards this
 * process's sockets show are read, one batch at a time and at most one per frame interval, so a
 * socket never gets an older card after a newer one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CardChangedData } from '@auction/shared';
import type { AuctionView, Reads } from '../db/index.js';
import { eventually } from '../test/live-helpers.js';
import { LiveHub, type Transport } from './hub.js';

const hubs: LiveHub[] = [];
/** Every read's answer: a read left unanswered by a failing test is answered before its hub closes. */
const answers: ((views: AuctionView[]) => void)[] = [];
afterEach(async () => {
  for (const answer of answers.splice(0)) answer([]);
  for (const h of hubs.splice(0)) await h.close();
});

/** A transport whose `cards:<id>` rooms have the given sizes, recording the cards it is asked to send. */
function recorder(roomSizes: Record<string, number>) {
  const cards: CardChangedData[] = [];
  const transport: Transport = {
    name: 'socketio',
    socketCount: () => 0,
    frameSlices: () => [],
    sendToUser: () => undefined,
    sendToAll: () => undefined,
    cardSlices: (room, data) => ((roomSizes[room] ?? 0) > 0 ? [() => { cards.push(data); }] : []),
    roomSize: (room) => roomSizes[room] ?? 0,
    close: () => undefined,
  };
  return { transport, cards };
}

const view = (id: string, highestRupees: number): AuctionView => ({
  id, name: `Auction ${id}`, validUntil: Date.now() + 3_600_000, originalValidUntil: Date.now() + 3_600_000, incrementRule: 'flat',
  incrementAmount: 100, incrementTiers: null, cancelPolicy: 'until_end', softCloseS: 0, maxExtensionS: 0, buyerPremiumBp: 0, premiumGstPct: 18, createdBy: 1, createdAt: 0,
  settledAt: null, productIds: ['P'], registrations: [], cover: null, highest: highestRupees * 100, bidCount: highestRupees,
});

/** Reads whose every batch of cards waits until the test answers it. */
function handReads() {
  const calls: { ids: string[]; answer: (views: AuctionView[]) => void }[] = [];
  const reads = {
    auctionCards: (ids: readonly string[]) => new Promise<AuctionView[]>((resolve) => {
      calls.push({ ids: [...ids], answer: resolve });
      answers.push(resolve);
    }),
  } as unknown as Reads;
  return { reads, calls };
}

function hubWith(frameMs: number, roomSizes: Record<string, number>) {
  const { reads, calls } = handReads();
  const errors: unknown[] = [];
  const hub = new LiveHub({ reads, now: Date.now, frameMs, onError: (err) => { errors.push(err); } });
  hubs.push(hub);
  const rec = recorder(roomSizes);
  hub.attach(rec.transport);
  const changed = (...auctionIds: string[]) => hub.relay.publish({ kind: 'cards', auctionIds });
  return { hub, calls, cards: rec.cards, changed, errors };
}

describe('card reads', () => {
  it('reads only the cards its sockets show, and none when they show none', () => {
    const { calls, changed } = hubWith(0, { 'cards:A': 2 });
    changed('B', 'C');
    expect(calls).toEqual([]);
    changed('B', 'A', 'C');
    expect(calls.map((c) => c.ids)).toEqual([['A']]);
    calls[0]!.answer([]);
  });

  it('one read at a time: a change during a read waits for it, so cards go out in the order read', async () => {
    const { calls, cards, changed, errors } = hubWith(0, { 'cards:A': 1, 'cards:B': 1 });
    changed('A');
    changed('A', 'B');
    changed('B');
    // The second read has not started: it would see a newer commit and could answer first.
    expect(calls).toHaveLength(1);
    calls[0]!.answer([view('A', 10)]);
    await eventually(() => expect(calls).toHaveLength(2));
    // The changes that came meanwhile are merged into one batch.
    expect(calls[1]!.ids.sort()).toEqual(['A', 'B']);
    calls[1]!.answer([view('A', 20)]);
    await eventually(() => expect(cards).toHaveLength(3));
    expect(cards.map((c) => [c.auction_id, c.card?.highest_bid ?? null])).toEqual([['A', 10], ['A', 20], ['B', null]]);
    expect(cards[0]!.card).not.toHaveProperty('registered');
    expect(errors).toEqual([]);
  });

  it('at most one read per frame interval', async () => {
    const { calls, changed } = hubWith(150, { 'cards:A': 1 });
    changed('A');
    expect(calls).toHaveLength(1);
    calls[0]!.answer([view('A', 1)]);
    await new Promise((r) => setTimeout(r, 10));
    changed('A');
    changed('A');
    await new Promise((r) => setTimeout(r, 60));
    expect(calls).toHaveLength(1);
    await eventually(() => expect(calls).toHaveLength(2), 1000, 5);
    calls[1]!.answer([view('A', 2)]);
  });
});
