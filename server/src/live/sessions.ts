/**
 * Live sockets and the accounts behind them (docs/live-protocol.md#socket-lifetime-and-limits): a
 * socket lives no longer than its token (closed at its expiry, or when the account's token version
 * moves past it: password change, deactivation), an account has at most MAX_PER_ACCOUNT sockets on a
 * process (the oldest is closed), and a socket may send at most MAX_MESSAGES_PER_SECOND messages.
 * One registry per transport; the transports close their own sockets.
 */
import { authenticateToken } from '../auth/authenticate.js';
import type { TokenService } from '../auth/tokens.js';
import type { Reads } from '../db/index.js';
import type { Caller } from '../domain/accounts.js';

export const SOCKET_LIMITS = {
  perAccount: 20,
  messagesPerSecond: 20,
  watchedAuctions: 100,
  /** Unsent bytes a socket may have waiting before it is closed as too slow a reader. */
  unsentBytes: 1024 * 1024,
  /** How often every socket's unsent bytes are checked. */
  checkMs: 1000,
};

/**
 * Every SOCKET_LIMITS.checkMs, closes the sockets with more than SOCKET_LIMITS.unsentBytes waiting to
 * be sent: a consumer that falls that far behind is dropped (it reconnects and re-reads state) rather
 * than growing the server's memory without bound. Returns the function that stops the checks.
 */
export function dropSlowConsumers<S>(sockets: () => Iterable<S>, unsent: (socket: S) => number, drop: (socket: S) => void): () => void {
  const timer = setInterval(() => {
    for (const s of sockets()) if (unsent(s) > SOCKET_LIMITS.unsentBytes) drop(s);
  }, SOCKET_LIMITS.checkMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface Session {
  caller: Caller;
  /** The token version the socket was opened with. */
  ver: number;
  /** When the token expires (ms since the epoch). */
  expiresAt: number;
}

/** Verifies a socket's token and the account behind it, as HTTP requests are (auth/authenticate.ts); null when refused. */
export async function openSession(tokens: TokenService, reads: Reads, token: string | null): Promise<Session | null> {
  const auth = await authenticateToken(tokens, reads, token);
  if (!auth) return null;
  const { caller, claims } = auth;
  return { caller, ver: claims.ver, expiresAt: (claims.exp ?? Number.MAX_SAFE_INTEGER / 1000) * 1000 };
}

const accountKey = (role: string, id: number) => `${role}:${id}`;

export type CloseWhy = 'expired' | 'revoked' | 'too many';
type Entry = { ver: number; timer: NodeJS.Timeout; close: (why: CloseWhy) => void };

/** This process's open sockets of both transports per account, oldest first, each closed when its token expires. */
export class SocketRegistry {
  private readonly byAccount = new Map<string, Map<object, Entry>>();

  /** Registers an authenticated socket (`close` closes it); closes the account's oldest beyond the limit. */
  add(socket: object, session: Session, close: (why: CloseWhy) => void) {
    const { role, id } = session.caller;
    const key = accountKey(role, id);
    let sockets = this.byAccount.get(key);
    if (!sockets) this.byAccount.set(key, (sockets = new Map<object, Entry>()));
    const timer = setTimeout(() => {
      this.remove(socket, role, id);
      close('expired');
    }, Math.min(Math.max(0, session.expiresAt - Date.now()), 2 ** 31 - 1));
    timer.unref();
    sockets.set(socket, { ver: session.ver, timer, close });
    while (sockets.size > SOCKET_LIMITS.perAccount) {
      const [oldest, entry] = sockets.entries().next().value as [object, Entry];
      this.remove(oldest, role, id);
      entry.close('too many');
    }
  }

  remove(socket: object, role: string, id: number) {
    const key = accountKey(role, id);
    const sockets = this.byAccount.get(key);
    const entry = sockets?.get(socket);
    if (!sockets || !entry) return;
    clearTimeout(entry.timer);
    sockets.delete(socket);
    if (sockets.size === 0) this.byAccount.delete(key);
  }

  /** The accounts with a socket here. */
  accounts(): { role: 'user' | 'admin'; id: number }[] {
    return [...this.byAccount.keys()].map((key) => {
      const [role, id] = key.split(':') as ['user' | 'admin', string];
      return { role, id: Number(id) };
    });
  }

  /** Closes the account's sockets opened with a token version below `below`. */
  revoke(role: 'user' | 'admin', id: number, below: number) {
    const sockets = this.byAccount.get(accountKey(role, id));
    if (!sockets) return;
    for (const [socket, entry] of [...sockets]) {
      if (entry.ver < below) {
        this.remove(socket, role, id);
        entry.close('revoked');
      }
    }
  }
}

/** At most `perSecond` messages in any one-second window (fixed windows). */
export class MessageRate {
  private windowStart = 0;
  private count = 0;

  allow(now = Date.now()): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    return ++this.count <= SOCKET_LIMITS.messagesPerSecond;
  }
}
