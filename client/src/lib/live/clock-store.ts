/**
 * One shared 1-second clock for every countdown, corrected by the server's time (GET /api/time):
 * `now` is the server's time as best this tab knows it.
 */
import { create } from 'zustand';
import { api } from '../api-client';

interface ClockState {
  /** Server time minus local time, in ms. */
  offset: number;
  /** Server-corrected now, refreshed every second while something listens. */
  now: number;
  sync: () => Promise<void>;
}

/** Set by tests that put the clock at a moment of their own (freezeClock): nothing else moves it. */
let frozen = false;

export const useClock = create<ClockState>()((set) => ({
  offset: 0,
  now: Date.now(),
  sync: async () => {
    const sent = Date.now();
    try {
      const { server_time } = await api.get<{ server_time: string }>('/time', { as: 'none' });
      const received = Date.now();
      // The server read its clock about halfway through the round trip.
      const offset = Date.parse(server_time) - (sent + received) / 2;
      if (!frozen) set({ offset, now: Date.now() + offset });
    } catch {
      // Keep the local clock: countdowns are still right to within the machine's drift.
    }
  },
}));

let timer: ReturnType<typeof setInterval> | null = null;
let listeners = 0;

/** For tests: now is `at` (ms, server time) until set again; the tick and server syncs no longer move it. */
export function freezeClock(at: number): void {
  frozen = true;
  useClock.setState({ now: at, offset: at - Date.now() });
}

/** For tests: the clock as a fresh tab has it (not frozen, no server offset). */
export function resetClockForTests(): void {
  frozen = false;
  useClock.setState({ offset: 0, now: Date.now() });
}

/** Starts the shared tick (and a server sync) for as long as at least one caller holds it. */
export function holdClock(): () => void {
  listeners += 1;
  if (!timer) {
    void useClock.getState().sync();
    timer = setInterval(() => { if (!frozen) useClock.setState((s) => ({ now: Date.now() + s.offset })); }, 1000);
  }
  return () => {
    listeners -= 1;
    if (listeners === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}
