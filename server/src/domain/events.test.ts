import { describe, expect, it } from 'vitest';
import { EventBus, type DomainEvent } from './events.js';

const ended = (auctionId: string): DomainEvent => ({ type: 'auction:ended', auctionId, ownerId: 1 });
const wallet = (userId: number): DomainEvent => ({ type: 'wallet:updated', userId, balance: 0 });
const revoked = (id: number): DomainEvent => ({ type: 'account:revoked', role: 'user', id, ver: 2 });

describe('the event bus', () => {
  it('hands `on` only the events it names, in commit order across the names', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on(['auction:ended', 'account:revoked'], (e) => seen.push(e.type === 'auction:ended' ? `ended ${e.auctionId}` : `revoked ${e.id}`));
    bus.on('wallet:updated', (e) => seen.push(`wallet ${e.userId}`));
    bus.publish([revoked(7), wallet(3), ended('a'), revoked(8)]);
    // Listeners run in subscription order, each over the whole batch, as `subscribe` listeners do.
    expect(seen).toEqual(['revoked 7', 'ended a', 'revoked 8', 'wallet 3']);
  });

  it('hands `onBatch` a command\'s named events as one batch, and nothing for a batch without them', () => {
    const bus = new EventBus();
    const batches: string[][] = [];
    const off = bus.onBatch(['auction:ended', 'wallet:updated'], (events) => batches.push(events.map((e) => e.type)));
    bus.publish([ended('a'), revoked(1), wallet(2)]);
    bus.publish([revoked(3)]);
    expect(batches).toEqual([['auction:ended', 'wallet:updated']]);
    off();
    bus.publish([ended('b')]);
    expect(batches).toHaveLength(1);
  });
});
