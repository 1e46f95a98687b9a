/**
 * The tokens in the links the server mails. A password reset or an address confirmation link carries a
 * random token of which only the SHA-256 is stored (a leaked table opens no account); an unsubscribe
 * link carries a signature instead, so it works without a sign-in and needs no row: it names a bidder
 * and a kind of notice, and only this installation's key can have signed it.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '@auction/shared';

/** 32 random bytes, URL-safe: unguessable, so a link is its own proof. */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a link token. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface Unsubscribe {
  userId: number;
  kind: NotificationKind;
}

/** Signs and checks unsubscribe tokens: `<user id>.<kind>.<signature>`. */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  /** @param secret the installation's signing secret (the JWT key); a key of its own is derived from it. */
  constructor(secret: Uint8Array) {
    this.key = createHmac('sha256', secret).update('unsubscribe links').digest();
  }

  private mac(userId: number, kind: string): Buffer {
    return createHmac('sha256', this.key).update(`${userId}:${kind}`).digest().subarray(0, 24);
  }

  sign(userId: number, kind: NotificationKind): string {
    return `${userId}.${kind}.${this.mac(userId, kind).toString('base64url')}`;
  }

  /** The bidder and kind the token was signed for, or null for anything else. */
  verify(token: string): Unsubscribe | null {
    const m = /^([1-9][0-9]{0,9})\.([a-z_]{1,32})\.([A-Za-z0-9_-]{32})$/.exec(token);
    if (!m) return null;
    const userId = Number(m[1]);
    const kind = m[2] as NotificationKind;
    if (!NOTIFICATION_KINDS.includes(kind)) return null;
    const given = Buffer.from(m[3]!, 'base64url');
    const expected = this.mac(userId, kind);
    return given.length === expected.length && timingSafeEqual(given, expected) ? { userId, kind } : null;
  }
}
