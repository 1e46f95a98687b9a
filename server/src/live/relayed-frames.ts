/**
 * Several processes each publish a frame per room every LIVE_FRAME_MS, so a room could receive N
 * frames in that time; written as they come, every socket's cost would grow with the number of
 * processes and nothing would scale. So this process writes at most one frame per room per frame
 * interval to its sockets: a frame arriving sooner after the last one waits, merged with any
 * others, until that time has passed (the first after a quiet spell goes out at once). The interval
 * is this process's own, stretched while it is saturated (frame-pacer.ts), as its own frames are: a
 * storm costs each socket what it costs with one process. One process (its own frames already paced)
 * writes each at once.
 */
import type { Frame } from '@auction/shared';
import { TIMER_SLACK_MS, type FramePacer } from './frame-pacer.js';
import { RoomBuffer } from './room-buffer.js';

export class RelayedFrames {
  /** Relayed frames waiting for their room's next turn, merged. */
  private readonly held = new Map<string, { buffer: RoomBuffer; serverTime: string; timer: NodeJS.Timeout }>();
  /** When this process last wrote a frame to each room's sockets (performance.now()). */
  private readonly lastFrameAt = new Map<string, number>();

  /** `paced`: several processes' frames arrive (else each is written at once); `write` writes a frame to this process's sockets. */
  constructor(private readonly paced: boolean, private readonly pacer: FramePacer, private readonly write: (frame: Frame, json: string) => void) {}

  deliver(frame: Frame, json: string) {
    if (!this.paced) return this.write(frame, json);
    const room = frame.room;
    const held = this.held.get(room);
    if (held) {
      for (const e of frame.events) held.buffer.add(e);
      held.serverTime = frame.server_time;
      return;
    }
    const interval = this.pacer.relayInterval();
    const wait = (this.lastFrameAt.get(room) ?? -Infinity) + interval - performance.now();
    if (this.lastFrameAt.size > 10_000) {
      // Rooms quiet for a second need no memory of their last frame.
      const before = performance.now() - 1000;
      for (const [r, at] of this.lastFrameAt) if (at < before) this.lastFrameAt.delete(r);
    }
    // This process's own frames are published up to TIMER_SLACK_MS early and come back from the relay
    // a little later than they left: not worth a timer.
    if (wait <= TIMER_SLACK_MS) {
      this.lastFrameAt.set(room, performance.now());
      return this.write(frame, json);
    }
    // Several processes' frames of an auction room merge as its own do: one bid event per product, one count.
    const auction = room.startsWith('auction:');
    const buffer = new RoomBuffer(auction, auction);
    for (const e of frame.events) buffer.add(e);
    this.held.set(room, { buffer, serverTime: frame.server_time, timer: setTimeout(() => this.release(room), wait) });
  }

  /** Writes every held frame now (the sockets are closing). */
  releaseAll() {
    for (const room of [...this.held.keys()]) this.release(room);
  }

  /** Writes a room's held frames as one. */
  private release(room: string) {
    const held = this.held.get(room);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(room);
    this.lastFrameAt.set(room, performance.now());
    const frame: Frame = { room, server_time: held.serverTime, events: held.buffer.list() };
    this.write(frame, JSON.stringify(frame));
  }
}
