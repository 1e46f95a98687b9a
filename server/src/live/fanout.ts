/**
 * Paced socket writes: a transport hands back a delivery as a few slices of its sockets, written about
 * a millisecond of work at a time, letting HTTP requests in between. One frame to a thousand sockets
 * is ~12 ms of socket writes; in one piece it would stall every bid that arrives meanwhile. Slices run
 * strictly in order, so frames never overtake each other.
 */
const PUMP_BUDGET_MS = 1;

export class Fanout {
  /** Slice writes not yet done, oldest first. */
  private readonly queue: Array<() => void> = [];
  private pumping = false;

  /** Queues slices after those already queued and starts writing. */
  write(slices: ReadonlyArray<() => void>) {
    this.queue.push(...slices);
    this.pump();
  }

  /** Writes whatever is still queued, now (the sockets are about to close). */
  drain() {
    for (const send of this.queue.splice(0)) send();
  }

  /** Writes slices for about a millisecond, then yields to the event loop until all are written. */
  private readonly pump = () => {
    if (this.pumping || this.queue.length === 0) return;
    const until = performance.now() + PUMP_BUDGET_MS;
    let next = 0;
    do this.queue[next++]!();
    while (next < this.queue.length && performance.now() < until);
    this.queue.splice(0, next);
    if (this.queue.length === 0) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      this.pump();
    });
  };
}
