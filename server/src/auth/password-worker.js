// @ts-check
/**
 * The password hashing thread's program (passwords.ts starts it): scrypt, one request at a time, in
 * the order they arrive. Plain JavaScript, checked by tsc (checkJs) and copied to dist/ beside the
 * server, so the same file runs from the sources (tests) and from the build (`npm start`).
 */
import { scryptSync } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * @typedef {{ id: number; password: string; salt: Uint8Array; opts: import('node:crypto').ScryptOptions }} HashRequest
 * @typedef {{ id: number; key: Uint8Array } | { id: number; error: string }} HashAnswer
 */

if (!parentPort) throw new Error('password-worker.js runs as a worker thread');
const port = parentPort;
/** @type {number} */
const keyLength = /** @type {{ keyLength: number }} */ (workerData).keyLength;

port.on('message', (/** @type {HashRequest} */ { id, password, salt, opts }) => {
  /** @type {HashAnswer} */
  let answer;
  try {
    answer = { id, key: scryptSync(password, salt, keyLength, opts) };
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
});
