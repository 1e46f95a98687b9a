/**
 * CPU time of processes on this machine, from /proc (Linux only; null elsewhere or when unreadable):
 * the bench reads it before and after each phase to report CPU microseconds per request.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's times (`getconf CLK_TCK`, 100 on nearly every Linux). */
const CLK_TCK = (() => {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return n > 0 ? n : 100;
  } catch {
    return 100;
  }
})();

interface Stat { ppid: number; utime: number; stime: number; cutime: number; cstime: number }

function readStat(pid: number): Stat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name, in parentheses, may hold spaces: the numeric fields start after the last ')'.
    // After it come field 3 (state) onwards: ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const n = (field: number) => Number(f[field - 3]);
    return { ppid: n(4), utime: n(14), stime: n(15), cutime: n(16), cstime: n(17) };
  } catch {
    return null;
  }
}

const ticksToUs = (ticks: number) => (ticks * 1e6) / CLK_TCK;

/** User + system CPU time of one process (all its threads), in microseconds; null if it is gone or unreadable. */
export function processCpuUs(pid: number | undefined): number | null {
  if (!pid) return null;
  const s = readStat(pid);
  return s ? ticksToUs(s.utime + s.stime) : null;
}

function isPostgres(pid: number): boolean {
  try {
    if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') return true;
    // A backend's title (`postgres: 15/main: user db 127.0.0.1(port) idle`) replaces its argv.
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.startsWith('postgres:') || /(^|\/)postgres\0/.test(cmd);
  } catch {
    return false;
  }
}

/**
 * User + system CPU time of every PostgreSQL process on this machine (the postmaster, its background
 * workers and every backend), in microseconds, plus what the postmaster's children that exited and were
 * reaped used (its cutime + cstime): a backend that ends between two readings is still counted. One
 * that ends but is not yet reaped at the second reading is missed, so the figure is approximate.
 * Every database's work counts, not just the bench's: anything else using this PostgreSQL inflates it.
 * Null when no PostgreSQL process is visible (a server on another machine or in another container).
 */
export function postgresCpuUs(): { us: number; processes: number } | null {
  let pids: number[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter(isPostgres);
  } catch {
    return null;
  }
  const set = new Set(pids);
  let ticks = 0;
  let processes = 0;
  for (const pid of pids) {
    const s = readStat(pid);
    if (!s) continue;
    processes++;
    ticks += s.utime + s.stime;
    // The postmaster (its parent is not PostgreSQL): its reaped children's time too.
    if (!set.has(s.ppid)) ticks += s.cutime + s.cstime;
  }
  return processes > 0 ? { us: ticksToUs(ticks), processes } : null;
}
