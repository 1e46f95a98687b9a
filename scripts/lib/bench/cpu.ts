/**
 * CPU microseconds per request completed, per phase of `npm run bench` (scripts/bench.ts): the server
 * process's (all its threads), and with the PostgreSQL store every PostgreSQL process's on this
 * machine, read before and after the phase; the server's own backends are counted apart too, so other
 * work on the same PostgreSQL does not count there.
 */
import { followClientBackends, postgresCpuUs, processCpuUs } from '../proc-cpu.js';

export type CpuPhase = 'storm_nowatch' | 'wallet' | 'health' | 'storm' | 'open_loop';
const cpuPhases = (): Record<CpuPhase, number | null> => ({ storm_nowatch: null, wallet: null, health: null, storm: null, open_loop: null });

export function cpuMeter(o: { postgres: boolean; serverPid: number | undefined; pgPort: number }) {
  const { serverPid, pgPort } = o;
  const serverCpu = cpuPhases();
  const pgCpu = cpuPhases();
  const backendCpu = cpuPhases();
  let pgVisible = false;
  let backendsVisible = false;
  const measured = async <T>(phase: CpuPhase, work: () => Promise<T>, requests: (r: T) => number): Promise<T> => {
    const s0 = processCpuUs(serverPid);
    const p0 = o.postgres ? postgresCpuUs() : null;
    const follow = o.postgres ? followClientBackends(serverPid, { postgresPort: pgPort, everyMs: 1000 }) : null;
    const r = await work();
    const b = follow?.stop() ?? null;
    const s1 = processCpuUs(serverPid);
    const p1 = o.postgres ? postgresCpuUs() : null;
    const n = requests(r);
    serverCpu[phase] = s0 !== null && s1 !== null && n > 0 ? Math.round((s1 - s0) / n) : null;
    pgCpu[phase] = p0 && p1 && n > 0 ? Math.round((p1.us - p0.us) / n) : null;
    backendCpu[phase] = b && n > 0 ? Math.round(b.us / n) : null;
    if (p0 && p1) pgVisible = true;
    if (b) backendsVisible = true;
    return r;
  };
  return {
    measured, serverCpu, pgCpu, backendCpu,
    /** Whether PostgreSQL's processes could be read (in some phase). */
    get pgVisible() { return pgVisible; },
    /** Whether the server's own backends could be found (in some phase). */
    get backendsVisible() { return backendsVisible; },
  };
}
