/**
 * When frames go out (docs/live-protocol.md#frames): a room's frame goes out on the next turn when the
 * room published none within the frame interval (a quiet room costs no latency), otherwise once the
 * interval since its last frame has passed. The interval is LIVE_FRAME_MS, stretched while the event
 * loop is saturated (`adapt`). The pacer only keeps time: the hub says what a room has pending and
 * publishes what the pacer finds due.
 */

/** The longest a frame may be stretched to under load, as a multiple of LIVE_FRAME_MS. */
export const MAX_FRAME_STRETCH = 8;
/** Utilisation above which frames stretch (×2 per frame), and below which they shrink back. */
export const BUSY_UTILIZATION = 0.85;
export const CALM_UTILIZATION = 0.6;
/** Frames in a row above BUSY_UTILIZATION before the interval stretches. */
export const BUSY_FRAMES = 3;
/** A room due within this much of now is published with the rooms due now (a timer may fire a little early). */
export const TIMER_SLACK_MS = 1;

export function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    return delta.utilization;
  };
}

/** One publishing turn: when it began, and which rooms it publishes. */
export interface Turn {
  now: number;
  due(room: string): boolean;
}

export class FramePacer {
  /** The current frame interval: LIVE_FRAME_MS, stretched while the event loop is saturated. */
  private interval: number;
  private busyFrames = 0;
  private lastFlushAt = -Infinity;
  /** When the frame interval was last adapted to the load (performance.now()). */
  private lastAdaptAt = -Infinity;
  /** When each room's last frame was published (performance.now()). */
  private readonly publishedAt = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The next turn's publishing of rooms whose interval has passed (the first event after a quiet spell). */
  private immediate: NodeJS.Immediate | null = null;
  /** When `timer` fires (performance.now()), for a room that waits for its interval. */
  private timerAt = Infinity;

  /**
   * `publish(all)` is called when rooms are due (`all` false) or, with LIVE_FRAME_MS 0, at once for
   * every room (`all` true); `utilization` is the event loop's since the last call (0–1).
   */
  constructor(private readonly frameMs: number, private readonly utilization: () => number, private readonly publish: (all: boolean) => void) {
    this.interval = frameMs;
  }

  /** The frame interval now (ms). */
  get current() {
    return this.interval;
  }

  /**
   * A room has a new event: wakes when its frame is due, with whatever else arrived meanwhile merged
   * into it. So an event waits at most one interval: LIVE_FRAME_MS, or up to MAX_FRAME_STRETCH × that
   * while the loop is saturated.
   */
  schedule(room: string) {
    if (this.frameMs === 0) return this.publish(true);
    const now = performance.now();
    // The first event after a quiet spell: what the loop did meanwhile (reads, say) says nothing of
    // the fan-out, so frames start again at LIVE_FRAME_MS.
    if (!this.immediate && !this.timer && now - this.lastFlushAt > this.frameMs * MAX_FRAME_STRETCH) {
      this.interval = this.frameMs;
      this.busyFrames = 0;
      this.utilization();
    }
    const due = this.dueAt(room);
    if (due <= now) {
      this.immediate ??= setImmediate(this.tick);
      return;
    }
    this.wakeAt(due);
  }

  /** Begins a publishing turn (all rooms, or those whose interval has passed); any pending wake-up is this one. */
  begin(all: boolean): Turn {
    // Whatever wake-up was pending is this one (or superseded by it); wakeFor sets the next.
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now();
    return { now, due: (room) => all || this.dueAt(room) <= now + TIMER_SLACK_MS };
  }

  /** The turn publishes something: the load is judged, and the turn counts as a flush. */
  publishing(turn: Turn, all: boolean) {
    // The load is judged over an interval at least: rooms out of step publish several times within
    // one, and windows that short would read the fan-out's own slices as saturation.
    if (all || turn.now - this.lastAdaptAt >= this.interval - TIMER_SLACK_MS) {
      this.lastAdaptAt = turn.now;
      this.adapt();
    }
    this.lastFlushAt = turn.now;
  }

  /** A room's frame went out in this turn. */
  published(room: string, turn: Turn) {
    this.publishedAt.set(room, turn.now);
  }

  /** Ends the turn: forgets long-quiet rooms, and wakes when the earliest room still waiting is due. */
  end(turn: Turn, waiting: Iterable<string>) {
    if (this.publishedAt.size > 10_000) {
      // A room that published nothing for the longest interval publishes its next event at once anyway.
      const before = turn.now - this.frameMs * MAX_FRAME_STRETCH;
      for (const [room, at] of this.publishedAt) if (at < before) this.publishedAt.delete(room);
    }
    this.wakeFor(waiting);
  }

  /** Wakes when the earliest of these rooms is due. */
  wakeFor(waiting: Iterable<string>) {
    let next = Infinity;
    for (const room of waiting) next = Math.min(next, this.dueAt(room));
    if (next === Infinity) return;
    if (next <= performance.now()) this.immediate ??= setImmediate(this.tick);
    else this.wakeAt(next);
  }

  /**
   * The interval at which relayed frames are written to this process's sockets: this process's own
   * while its frames are recent; once it has flushed nothing for longer than the longest frame (it
   * only relays now), the stretch says nothing: LIVE_FRAME_MS.
   */
  relayInterval(): number {
    const stretched = performance.now() - this.lastFlushAt <= this.frameMs * MAX_FRAME_STRETCH;
    return stretched ? Math.max(this.frameMs, this.interval) : this.frameMs;
  }

  private dueAt(room: string) {
    return (this.publishedAt.get(room) ?? -Infinity) + this.interval;
  }

  private wakeAt(due: number) {
    if (due >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = due;
    this.timer = setTimeout(this.tick, Math.max(0, due - performance.now()));
  }

  /** Publishes the rooms whose interval has passed; wakes again for the earliest of the others. */
  private readonly tick = () => this.publish(false);

  /**
   * Load shedding for the fan-out. While the event loop is saturated (a bid storm: BUSY_FRAMES frames
   * in a row), each frame to a thousand watchers costs writes the bids need: the interval doubles per frame, up to
   * MAX_FRAME_STRETCH × LIVE_FRAME_MS, and halves back once the loop is calm. Watchers get state, so a
   * longer frame loses nothing, it only updates less often; a calm server keeps LIVE_FRAME_MS.
   */
  private adapt() {
    const { frameMs } = this;
    if (frameMs === 0) return;
    const load = this.utilization();
    // Saturated for BUSY_FRAMES frames in a row: one long pause (a garbage collection) is not a storm.
    this.busyFrames = load > BUSY_UTILIZATION ? this.busyFrames + 1 : 0;
    if (this.busyFrames >= BUSY_FRAMES) this.interval = Math.min(this.interval * 2, frameMs * MAX_FRAME_STRETCH);
    else if (load < CALM_UTILIZATION) this.interval = Math.max(this.interval / 2, frameMs);
  }
}
