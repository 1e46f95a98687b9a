/** Frame pacing alone (frame-pacer.ts): at once in a quiet room, LIVE_FRAME_MS after a frame, stretched under saturation. */
import { afterEach, describe, expect, it } from 'vitest';
import { BUSY_FRAMES, FramePacer, MAX_FRAME_STRETCH } from './frame-pacer.js';

const FRAME_MS = 60;
const pacers: FramePacer[] = [];
afterEach(() => { for (const p of pacers.splice(0)) p.begin(true); });

/** A pacer that publishes the room `r` whenever it is due, recording when (performance.now()). */
function setUp(load: { value: number } = { value: 0 }) {
  const sent: number[] = [];
  const pacer: FramePacer = new FramePacer(FRAME_MS, () => load.value, (all) => {
    const turn = pacer.begin(all);
    if (!turn.due('r')) return pacer.wakeFor(['r']);
    pacer.publishing(turn, all);
    pacer.published('r', turn);
    sent.push(turn.now);
    pacer.end(turn, []);
  });
  pacers.push(pacer);
  return { pacer, sent, load };
}
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('frame pacing', () => {
  it('sends at once in a quiet room, then waits LIVE_FRAME_MS after a frame', async () => {
    const { pacer, sent } = setUp();
    const start = performance.now();
    pacer.schedule('r');
    await new Promise((r) => setImmediate(r));
    expect(sent).toHaveLength(1);
    expect(sent[0]! - start).toBeLessThan(FRAME_MS / 2);
    pacer.schedule('r');
    await new Promise((r) => setTimeout(r, FRAME_MS / 3));
    expect(sent).toHaveLength(1);
    await until(() => sent.length === 2);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(FRAME_MS - 2);
  });

  it('stretches the interval (×2 a frame) after BUSY_FRAMES saturated frames, up to MAX_FRAME_STRETCH, and shrinks it back when calm', () => {
    const { pacer } = setUp({ value: 0.99 });
    const frame = () => pacer.publishing(pacer.begin(true), true);
    for (let i = 1; i < BUSY_FRAMES; i++) frame();
    expect(pacer.current).toBe(FRAME_MS);
    frame();
    expect(pacer.current).toBe(FRAME_MS * 2);
    for (let i = 0; i < 10; i++) frame();
    expect(pacer.current).toBe(FRAME_MS * MAX_FRAME_STRETCH);
    // Relayed frames follow this process's own interval while it publishes.
    expect(pacer.relayInterval()).toBe(FRAME_MS * MAX_FRAME_STRETCH);
  });

  it('shrinks back towards LIVE_FRAME_MS once the loop is calm', () => {
    const { pacer, load } = setUp({ value: 0.99 });
    const frame = () => pacer.publishing(pacer.begin(true), true);
    for (let i = 0; i < BUSY_FRAMES + 1; i++) frame();
    expect(pacer.current).toBe(FRAME_MS * 4);
    load.value = 0.1;
    frame();
    expect(pacer.current).toBe(FRAME_MS * 2);
    frame();
    frame();
    expect(pacer.current).toBe(FRAME_MS);
  });
});
