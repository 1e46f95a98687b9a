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

/** Local ports of the TCP connections process `pid` holds to remote port `remotePort` (any address). */
function connectionPorts(pid: number, remotePort: number): Set<number> {
  const inodes = new Set<string>();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch { /* closed meanwhile */ }
    }
  } catch {
    return new Set();
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9]!)) continue;
      if (parseInt(f[2]!.split(':')[1]!, 16) === remotePort) ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/**
 * CPU microseconds of each PostgreSQL backend serving a connection of process `clientPid` (found by
 * the client port in the backend's title), by backend pid: the database work of that one client,
 * whatever else uses the same PostgreSQL. Empty when none is visible.
 */
export function clientBackendsCpuUs(clientPid: number | undefined, postgresPort = 5432): Map<number, number> {
  const out = new Map<number, number>();
  if (!clientPid) return out;
  const ports = connectionPorts(clientPid, postgresPort);
  if (ports.size === 0) return out;
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const pid = Number(d);
    let cmd: string;
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const m = /^postgres:.*\((\d+)\)/.exec(cmd);
    if (!m || !ports.has(Number(m[1]))) continue;
    const s = readStat(pid);
    if (s) out.set(pid, ticksToUs(s.utime + s.stime));
  }
  return out;
}

/**
 * Follows the backends of `clientPid` from now on, reading them every `everyMs` (connections come and
 * go: a backend is counted from its first reading, or from zero when it started after `start`, to its
 * last one, so up to `everyMs` of a backend that ends is missed). `stop()` reads once more and gives
 * their CPU microseconds since the start, or null when no backend of that client was ever seen.
 */
export function followClientBackends(clientPid: number | undefined, opts: { postgresPort?: number; everyMs?: number } = {}): { stop: () => { us: number; backends: number } | null } {
  const start = clientBackendsCpuUs(clientPid, opts.postgresPort);
  const last = new Map(start);
  const read = () => { for (const [pid, us] of clientBackendsCpuUs(clientPid, opts.postgresPort)) last.set(pid, us); };
  const timer = setInterval(read, opts.everyMs ?? 250);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      read();
      if (last.size === 0) return null;
      let us = 0;
      for (const [pid, v] of last) us += v - (start.get(pid) ?? 0);
      return { us, backends: last.size };
    },
  };
}
