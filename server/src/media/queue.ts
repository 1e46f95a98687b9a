/**
 * The media queue (docs/photos.md#the-media-queue): one per process, so that photo uploads cannot take
 * every core and all the memory from the bids. At most `concurrency` renditions run at once; at most
 * `queued` more uploads are admitted (being received, or received and waiting for their turn). An
 * upload takes its place before its body is read, so a full queue is answered at once, and the bodies
 * held in memory are bounded by `(concurrency + queued) × MEDIA_MAX_MB`.
 */
export interface MediaTicket {
  /** Runs `work` when a rendition slot is free (in the order the tickets asked). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place back; idempotent. Every admitted upload calls it once it is done, however it ends. */
  release(): void;
}

/** What a refused upload is told to wait, at most: a client should not be sent away for minutes. */
const MAX_RETRY_AFTER_S = 30;

export class MediaQueue {
  private admitted = 0;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** How long a rendition took lately (a moving average; a second to begin with), for Retry-After. */
  private typicalMs = 1000;

  constructor(readonly concurrency: number, readonly queued: number) {}

  /** A place for one upload, or null when every place is taken (the caller answers 503 before reading it). */
  admit(): MediaTicket | null {
    if (this.admitted >= this.concurrency + this.queued) return null;
    this.admitted++;
    let released = false;
    return {
      run: async (work) => {
        await this.slot();
        const started = performance.now();
        try {
          return await work();
        } finally {
          this.typicalMs = 0.8 * this.typicalMs + 0.2 * (performance.now() - started);
          this.running--;
          this.waiting.shift()?.();
        }
      },
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
      },
    };
  }

  /** Seconds until a place is likely free: the uploads admitted, at the pace renditions took lately. */
  retryAfterS(): number {
    const ahead = Math.ceil(this.admitted / this.concurrency) * this.typicalMs;
    return Math.min(MAX_RETRY_AFTER_S, Math.max(1, Math.ceil(ahead / 1000)));
  }

  /** For tests and diagnostics. */
  stats(): { admitted: number; running: number; waiting: number } {
    return { admitted: this.admitted, running: this.running, waiting: this.waiting.length };
  }

  private slot(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    // The rendition that finishes next wakes the first in line.
    return new Promise((resolve) => this.waiting.push(() => { this.running++; resolve(); }));
  }
}
