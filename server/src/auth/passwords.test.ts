import { randomBytes, scryptSync } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, setPasswordHashCost, verifyPassword } from './passwords.js';

describe('password hashing on its own thread', () => {
  // The default cost (the test apps a worker built before this file set their cheaper one).
  beforeEach(() => setPasswordHashCost(14));

  it('verifies the right password only, with NFKC-equal spellings equal', async () => {
    const stored = await hashPassword('ﬁsh-secret');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('ﬁsh-secret', stored)).toBe(true);
    expect(await verifyPassword('fish-secret', stored)).toBe(true);
    expect(await verifyPassword('fish-secreT', stored)).toBe(false);
    expect(await verifyPassword('fish-secret', 'bcrypt$whatever')).toBe(false);
  });

  it('reads hashes written by crypto.scrypt directly (every stored hash so far)', async () => {
    const salt = randomBytes(16);
    const key = scryptSync('old-password', salt, 64, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const stored = ['scrypt', 16384, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
    expect(await verifyPassword('old-password', stored)).toBe(true);
    expect(await verifyPassword('old-passwort', stored)).toBe(false);
  });

  it('answers a burst of hashes, each its own, in any order', async () => {
    const passwords = Array.from({ length: 8 }, (_, i) => `pw-${i}-${randomBytes(4).toString('hex')}`);
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    expect(new Set(hashes).size).toBe(8);
    const checks = await Promise.all(passwords.map((p, i) => verifyPassword(p, hashes[(i + 1) % 8]!)));
    expect(checks).toEqual(Array<boolean>(8).fill(false));
    expect(await Promise.all(passwords.map((p, i) => verifyPassword(p, hashes[i]!)))).toEqual(Array<boolean>(8).fill(true));
  });

  it('makes new hashes at the configured cost; hashes made at another cost still verify', async () => {
    const before = await hashPassword('kept-secret');
    setPasswordHashCost(10);
    try {
      const cheap = await hashPassword('new-secret');
      expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect(await verifyPassword('new-secret', cheap)).toBe(true);
      expect(await verifyPassword('kept-secret', before)).toBe(true);
      expect(await verifyPassword('kept-secreT', before)).toBe(false);
    } finally {
      setPasswordHashCost(14);
    }
    expect(await hashPassword('x')).toMatch(/^scrypt\$16384\$/);
  });
});
