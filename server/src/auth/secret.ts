import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The HS256 key: JWT_SECRET when set; otherwise generated once into `<data folder>/jwt-secret`
 * (mode 0600) so that a restart does not log everyone out; per process for an in-memory database.
 */
export function loadJwtSecret(configured: string | undefined, databaseFile: string | null): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  if (!databaseFile) return randomBytes(32);
  const file = path.join(path.dirname(databaseFile), 'jwt-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 64) return Buffer.from(existing, 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32);
  // 'wx' fails if another process created it meanwhile; then that one's secret wins.
  try {
    fs.writeFileSync(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    throw err;
  }
  return secret;
}
