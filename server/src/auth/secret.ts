import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** At least 32 bytes, written as hex. */
const HEX_KEY = /^(?:[0-9a-f]{2}){32,}$/i;

/**
 * A key file that exists but does not hold a full hex key (empty, truncated, a passphrase) would
 * otherwise decode to a short or empty HMAC key; refuse to start instead of signing with it.
 */
function readKey(file: string): Uint8Array {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!HEX_KEY.test(text)) {
    throw new Error(`${file} does not hold a JWT key (at least 64 hex characters); fix it, or delete it to have a new one made (that signs everyone out)`);
  }
  // A key others can read is tightened to the owner's eyes only (a copy or a restore may loosen it).
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch {
    // Not ours to change (another owner, a read-only mount): the key still works.
  }
  return Buffer.from(text, 'hex');
}

/** Writes a new key; if another process got there first, its key wins. */
function createKey(file: string): Uint8Array {
  const secret = randomBytes(32);
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
  try {
    // A hard link publishes the complete file at once ('wx' semantics: it fails if the name exists),
    // so a process starting alongside never reads a half-written key.
    fs.linkSync(tmp, file);
    return secret;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return readKey(file);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    // A file system without hard links: create the name directly.
    try {
      fs.writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
      return secret;
    } catch (err2) {
      if ((err2 as NodeJS.ErrnoException).code === 'EEXIST') return readKey(file);
      throw err2;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * The HS256 key: JWT_SECRET when set; otherwise generated once into `<data folder>/jwt-secret`
 * (mode 0600) so that a restart does not log everyone out; per process for an in-memory database.
 */
export function loadJwtSecret(configured: string | undefined, databaseFile: string | null): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  if (!databaseFile) return randomBytes(32);
  const file = path.join(path.dirname(databaseFile), 'jwt-secret');
  // The data folder may not exist yet (PostgreSQL keeps nothing else there).
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    return readKey(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return createKey(file);
}
