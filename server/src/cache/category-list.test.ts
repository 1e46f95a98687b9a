/** The category list from memory: one read shared, dropped by what moves its counts, never older than its bound. */
import { describe, expect, it, vi } from 'vitest';
import type { Reads } from '../db/index.js';
import type { DomainEvent } from '../domain/events.js';
import { CategoryListCache } from './category-list.js';

function setUp() {
  let answer = 0;
  const categories = vi.fn((_now: number) => Promise.resolve([{ id: 1, name: 'Lamps', slug: 'lamps', parentId: null, openLots: ++answer }]));
  let clock = 1_000_000;
  const cache = new CategoryListCache({ categories } as unknown as Reads, () => clock, 5_000);
  return { cache, categories, tick: (ms: number) => { clock += ms; } };
}

const counts = async (cache: CategoryListCache) => (await cache.list()).map((c) => c.openLots);

describe('the category list cache', () => {
  it('serves requests at once from one read, and reads again after a change that moves counts', async () => {
    const { cache, categories } = setUp();
    const answers = await Promise.all([cache.list(), cache.list(), cache.list()]);
    expect(categories).toHaveBeenCalledTimes(1);
    expect(new Set(answers).size).toBe(1);
    // Bids and wallet traffic leave the counts alone.
    cache.onEvents([{ type: 'bid:placed' } as DomainEvent, { type: 'wallet:updated' } as DomainEvent]);
    expect(await counts(cache)).toEqual([1]);
    // An auction's change or a sale does not.
    for (const type of ['auction:created', 'auction:updated', 'auction:ended', 'auction:settled', 'auction:deleted', 'product:sold'] as const) {
      cache.onEvents([{ type } as DomainEvent]);
      await cache.list();
    }
    expect(categories).toHaveBeenCalledTimes(7);
    cache.invalidate();
    expect(await counts(cache)).toEqual([8]);
  });

  it('reads again once the clock has moved past its bound, and after a failed read', async () => {
    const { cache, categories, tick } = setUp();
    await cache.list();
    tick(4_000);
    await cache.list();
    expect(categories).toHaveBeenCalledTimes(1);
    tick(2_000);
    await cache.list();
    expect(categories).toHaveBeenCalledTimes(2);
    categories.mockImplementationOnce(() => Promise.reject(new Error('database gone')));
    cache.invalidate();
    await expect(cache.list()).rejects.toThrow('database gone');
    expect(await counts(cache)).toEqual([3]);
  });
});
