/**
 * The deployment files as they are shipped: docs/auction.service read the way systemd reads it (only as
 * far as the test needs), and docs/nginx.conf with its machine-specific lines pointed at this machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server.js';

/** Where Debian's package puts nginx (.ci/run installs it). */
export const NGINX = '/usr/sbin/nginx';

export interface ServiceUnit {
  /** The [Service] section's settings, each key with every value it was given, in order. */
  service: Map<string, string[]>;
  /** ExecStart split into words, without systemd's prefixes (`-`, `@`, `+`…). */
  execStart: string[];
}

/**
 * The parts of a unit file this test relies on. Throws on what systemd would read differently from
 * what it looks like: a comment after a value (systemd keeps it as part of the value) and, in
 * ExecStart, quoting or variables (not supported here).
 */
export function readServiceUnit(file = path.join(ROOT, 'docs', 'auction.service')): ServiceUnit {
  const service = new Map<string, string[]>();
  let section = '';
  for (const [i, raw] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (!setting) throw new Error(`${file}:${i + 1}: neither a section, a setting nor a comment: ${line}`);
    const key = setting[1]!;
    const value = setting[2]!;
    if (/\s[#;]/.test(value)) throw new Error(`${file}:${i + 1}: ${key}= holds a comment, which systemd would read as part of the value`);
    if (section === 'Service') service.set(key, [...(service.get(key) ?? []), value.trim()]);
  }
  const exec = service.get('ExecStart');
  if (exec?.length !== 1) throw new Error(`${file}: one ExecStart= expected, found ${exec?.length ?? 0}`);
  const command = exec[0]!.replace(/^[-@:+!]+/, '');
  if (/["'\\$%]/.test(command)) throw new Error(`${file}: ExecStart= quotes, escapes or expands; this test runs plain words only: ${command}`);
  const execStart = command.split(/\s+/);
  if (!path.isAbsolute(execStart[0]!)) throw new Error(`${file}: ExecStart= must start with an absolute path (${execStart[0]})`);
  return { service, execStart };
}

/** Runs a unit's ExecStart from the repository root (standing for its WorkingDirectory). */
export function spawnExecStart(unit: ServiceUnit, extraArgs: string[], env: Record<string, string>): ChildProcess {
  const [program, ...args] = unit.execStart as [string, ...string[]];
  // A machine whose node is not /usr/bin/node (nvm, a tarball) runs the same command with its own node.
  const executable = !fs.existsSync(program) && path.basename(program) === 'node' ? process.execPath : program;
  // A process group of its own, as the unit's control group: the test can end whatever it left behind.
  return spawn(executable, [...args, ...extraArgs], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

/**
 * docs/nginx.conf for this machine: its upstream servers at `upstreamPort` on 127.0.0.1, listening on
 * `listenPort` of 127.0.0.1, its pid file and temporary files in `dir`. Each rewrite throws if the line
 * it expects is not there, so the test never runs a file other than the one shipped.
 */
export function nginxConfForTest(conf: string, o: { upstreamPort: number; listenPort: number; dir: string }): string {
  let out = conf;
  const rewrite = (pattern: RegExp, to: string, what: string, count: 'one' | 'some') => {
    const found = out.match(new RegExp(pattern.source, `${pattern.flags}g`))?.length ?? 0;
    if (found === 0 || (count === 'one' && found > 1)) throw new Error(`docs/nginx.conf: expected ${count === 'one' ? 'exactly one' : 'a'} ${what} (${pattern}), found ${found}`);
    out = out.replace(new RegExp(pattern.source, `${pattern.flags}g`), to);
  };
  rewrite(/^(\s*)server 10\.0\.0\.\d+:3000 /m, `$1server 127.0.0.1:${o.upstreamPort} `, 'upstream server line', 'some');
  rewrite(/^(\s*)listen 80;$/m, `$1listen 127.0.0.1:${o.listenPort};`, '`listen 80;`', 'one');
  rewrite(/^pid \S+;$/m, `pid ${o.dir}/nginx.pid;`, '`pid` line', 'one');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${o.dir}/${t};`).join('\n');
  rewrite(/^http \{$/m, `http {\n${temp}`, '`http {` line', 'one');
  return out;
}

export interface NginxProcess {
  url: string;
  proc: ChildProcess;
  /** nginx's error log and its own output so far. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts nginx in the foreground on `conf` (prefix and error log in `dir`); resolves once `probe` answers through it. */
export async function startNginx(dir: string, conf: string, listenPort: number, probe: string): Promise<NginxProcess> {
  const file = path.join(dir, 'nginx.conf');
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(file, conf);
  // nginx started by root runs its workers as nobody: they must reach the temporary files here.
  fs.chmodSync(dir, 0o755);
  let out = '';
  const proc = spawn(NGINX, ['-p', `${dir}/`, '-c', file, '-e', errorLog, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  proc.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const log = () => `${out}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`;
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited (${proc.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}${probe}`)).ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`nginx did not answer ${probe} within 10 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    proc,
    log,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
