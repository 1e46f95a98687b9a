/**
 * Passwords: scrypt (N = 16384, r = 8: a 16 MB work area and ~50 ms of CPU per hash) on one worker
 * thread of its own, not on libuv's shared pool. glibc keeps each thread's work area in that thread's
 * malloc arena after the hash: on libuv's four threads (or two threads of ours) a burst of 500
 * sign-ins and sign-ins left 80–130 MB resident for good; on one thread the same area is reused and
 * nothing stays (measured: 142 MB before and after). One thread also bounds hashing to one core, so
 * a burst of sign-ins never holds back the file and DNS jobs that share libuv's pool, nor every core.
 * Several processes (`npm run cluster`) each have their own.
 */
import { randomBytes, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Worker } from 'node:worker_threads';

const KEY_LENGTH = 64;
let PARAMS = { N: 16384, r: 8, p: 1 };

/**
 * The cost of new hashes: N = 2^log2N (PASSWORD_HASH_COST, 14 by default). Hashes already stored keep
 * the parameters they were made with, so a change applies to new and changed passwords only. The test
 * suites lower it (each sign-up and sign-in of a test otherwise spends ~100 ms of CPU on hashing).
 */
export function setPasswordHashCost(log2N: number): void {
  PARAMS = { ...PARAMS, N: 2 ** log2N };
}

/**
 * The thread's program: plain JavaScript (a worker thread has no TypeScript loader under the tests),
 * type-checked by tsc and copied to dist/, so this URL names it beside this module in both.
 */
const WORKER = new URL('./password-worker.js', import.meta.url);

interface Pending { resolve: (key: Buffer) => void; reject: (err: Error) => void }

let thread: { worker: Worker; pending: Map<number, Pending> } | null = null;
let nextId = 0;

/** The hashing thread, started on first use and again after it failed. */
function hashThread() {
  if (thread) return thread;
  const worker = new Worker(WORKER, { workerData: { keyLength: KEY_LENGTH } });
  const current = { worker, pending: new Map<number, Pending>() };
  worker.on('message', (m: { id: number; key?: Uint8Array; error?: string }) => {
    const p = current.pending.get(m.id);
    if (!p) return;
    current.pending.delete(m.id);
    if (m.key) p.resolve(Buffer.from(m.key.buffer, m.key.byteOffset, m.key.byteLength));
    else p.reject(new Error(m.error ?? 'scrypt failed'));
    // An idle thread does not keep the process alive.
    if (current.pending.size === 0) worker.unref();
  });
  const fail = (err: Error) => {
    if (thread === current) thread = null;
    for (const p of current.pending.values()) p.reject(err);
    current.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`password hashing thread exited (${code})`)));
  worker.unref();
  thread = current;
  return current;
}

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const t = hashThread();
    const id = nextId++;
    t.pending.set(id, { resolve, reject });
    t.worker.ref();
    t.worker.postMessage({ id, password: password.normalize('NFKC'), salt, opts: { ...opts, maxmem: 64 * 1024 * 1024 } });
  });
}

/** `scrypt$N$r$p$salt$hash` (base64): parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash of nothing, verified against when the username is unknown so both paths cost the same. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(12).toString('hex'));
  return dummy;
}
