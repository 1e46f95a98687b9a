import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export type Role = 'user' | 'admin';

export interface TokenClaims {
  /** The account id. */
  id: number;
  role: Role;
  /** Token version of the account when the token was issued (DESIGN §5). */
  ver: number;
}

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a well-formed, correctly signed, unexpired token; null otherwise. */
  verify(token: string): Promise<TokenClaims | null>;
}

export async function createTokenService(secret: Uint8Array, ttl: string): Promise<TokenService> {
  // Import the key once rather than on every verification.
  const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  return {
    sign: ({ id, role, ver }) =>
      new SignJWT({ role, ver })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(id))
        .setIssuedAt()
        .setExpirationTime(ttl)
        .sign(key),
    async verify(token) {
      try {
        // The algorithm is pinned: `none` or any other alg is refused before the signature is read.
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'exp'] });
        const id = Number(payload.sub);
        const { role, ver } = payload;
        if (!Number.isSafeInteger(id) || id <= 0) return null;
        if (role !== 'user' && role !== 'admin') return null;
        if (typeof ver !== 'number' || !Number.isInteger(ver)) return null;
        return { id, role, ver };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
  };
}
