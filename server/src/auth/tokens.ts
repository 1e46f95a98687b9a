import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export type Role = 'user' | 'admin';

export interface TokenClaims {
  /** The account id. */
  id: number;
  role: Role;
  /** Token version of the account when the token was issued: a password change or a deactivation bumps it, so older tokens are refused. */
  ver: number;
  /** Expiry, in seconds since the epoch (set on verified claims; live sockets close then). */
  exp?: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
  verify(token: string): Promise<TokenClaims | null>;
}

/** How many verified tokens are remembered; the oldest is forgotten first. */
const VERIFIED_CACHE_SIZE = 10_000;

export async function createTokenService(secret: Uint8Array, ttl: string): Promise<TokenService> {
  // Import the key once rather than on every verification.
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // A token that verified once needs no second HMAC: only its expiry can change its answer, and that
  // is checked on every hit (jose's rule: valid while exp > now in whole seconds). Revocation is not
  // cached here: the caller checks the account's status and token version in the database.
  // Only correctly signed tokens are stored, so a flood of forged ones cannot fill it.
  const verified = new Map<string, { claims: TokenClaims; exp: number }>();
  const unexpired = (exp: number) => exp > Math.floor(Date.now() / 1000);
  return {
    sign: ({ id, role, ver }) =>
      new SignJWT({ role, ver })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(id))
        .setIssuedAt()
        .setExpirationTime(ttl)
        .sign(key),
    async verify(token) {
      const hit = verified.get(token);
      if (hit) {
        if (unexpired(hit.exp)) return hit.claims;
        verified.delete(token);
        return null;
      }
      try {
        // The algorithm is pinned: `none` or any other alg is refused before the signature is read.
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] });
        const id = Number(payload.sub);
        const { role, ver } = payload;
        if (!Number.isSafeInteger(id) || id <= 0) return null;
        if (role !== 'user' && role !== 'admin') return null;
        if (typeof ver !== 'number' || !Number.isInteger(ver)) return null;
        const claims: TokenClaims = Object.freeze({ id, role, ver, exp: payload.exp! });
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, exp: payload.exp! });
        return claims;
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
