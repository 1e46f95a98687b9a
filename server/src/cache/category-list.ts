/**
 * `GET /api/categories` from memory. Counting each category's open lots reads every open lot (about
 * 350 ms at 200,000 lots on SQLite, where it would hold up every other request meanwhile), so the list
 * is read once and shared:
 * - a committed change that can move an open-lot count (an auction created, edited, extended, ended,
 *   settled or deleted, a lot sold), another process's catalogue announcement, or a category's own
 *   change discards it at once;
 * - it is never served older than MAX_AGE_MS (another process's change that went unheard, a sale
 *   counted elsewhere), nor once the clock has moved that far (tests move it by hours);
 * - requests that arrive while it is being read wait for that one read.
 */
import type { Reads } from '../db/index.js';
import type { CategoryView } from '../db/index.js';
import type { DomainEvent, DomainEventType } from '../domain/events.js';

/** The oldest a list is ever served. */
export const CATEGORY_LIST_MAX_AGE_MS = 5_000;

/** The events that can change a category's count of open lots (the cache subscribes to these alone). */
export const CATEGORY_COUNT_EVENTS = [
  'product:sold', 'auction:ended', 'auction:created', 'auction:updated', 'auction:deleted', 'auction:extended', 'auction:settled',
] as const satisfies readonly DomainEventType[];
const MOVES_COUNTS: ReadonlySet<DomainEventType> = new Set(CATEGORY_COUNT_EVENTS);

export class CategoryListCache {
  private cached: { readAt: number; clockAt: number; list: Promise<CategoryView[]> } | null = null;

  constructor(private readonly reads: Reads, private readonly now: () => number, private readonly maxAgeMs = CATEGORY_LIST_MAX_AGE_MS) {}

  invalidate = (): void => {
    this.cached = null;
  };

  onEvents = (events: readonly DomainEvent[]): void => {
    if (events.some((e) => MOVES_COUNTS.has(e.type))) this.invalidate();
  };

  list(): Promise<CategoryView[]> {
    const clock = this.now();
    const c = this.cached;
    if (c && performance.now() - c.readAt < this.maxAgeMs && Math.abs(clock - c.clockAt) < this.maxAgeMs) return c.list;
    const entry = { readAt: performance.now(), clockAt: clock, list: this.reads.categories(clock) };
    this.cached = entry;
    // A failed read is not kept: the next request reads again.
    entry.list.catch(() => {
      if (this.cached === entry) this.cached = null;
    });
    return entry.list;
  }
}
