import { describe, expect, it } from 'vitest';
import { MediaQueue } from './queue.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => { open = resolve; });
  return { promise, resolve: () => open() };
}

describe('MediaQueue', () => {
  it('admits concurrency + queued uploads, runs `concurrency` at once in the order asked, and frees places on release', async () => {
    const queue = new MediaQueue(1, 2);
    const tickets = [queue.admit(), queue.admit(), queue.admit()];
    expect(tickets.every(Boolean)).toBe(true);
    expect(queue.admit()).toBeNull();
    const order: number[] = [];
    const gates = tickets.map(gate);
    const runs = tickets.map((t, i) => t!.run(async () => { order.push(i); await gates[i]!.promise; return i; }));
    await tick();
    expect(order).toEqual([0]);
    expect(queue.stats()).toEqual({ admitted: 3, running: 1, waiting: 2 });
    gates[0]!.resolve();
    expect(await runs[0]).toBe(0);
    await tick();
    expect(order).toEqual([0, 1]);
    // A place comes back only when its upload releases it, once however often it is released.
    expect(queue.admit()).toBeNull();
    tickets[0]!.release();
    tickets[0]!.release();
    const fourth = queue.admit();
    expect(fourth).not.toBeNull();
    expect(queue.admit()).toBeNull();
    gates[1]!.resolve();
    gates[2]!.resolve();
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2]);
    for (const t of [...tickets, fourth]) t!.release();
    expect(queue.stats()).toEqual({ admitted: 0, running: 0, waiting: 0 });
  });

  it('a rendition that throws frees its slot for the next', async () => {
    const queue = new MediaQueue(1, 1);
    const [a, b] = [queue.admit()!, queue.admit()!];
    const failing = a.run(() => Promise.reject(new Error('corrupt')));
    const next = b.run(() => Promise.resolve('ok'));
    await expect(failing).rejects.toThrow('corrupt');
    expect(await next).toBe('ok');
  });

  it('Retry-After: the admitted uploads at the pace renditions take, from 1 to 30 seconds', async () => {
    const queue = new MediaQueue(2, 100);
    expect(queue.retryAfterS()).toBe(1);
    for (let i = 0; i < 6; i++) queue.admit();
    // 6 admitted, 2 at a time, about a second each to begin with.
    expect(queue.retryAfterS()).toBe(3);
    for (let i = 0; i < 100; i++) queue.admit();
    expect(queue.retryAfterS()).toBe(30);
  });
});
