/**
 * What showing cards may cost (docs/live-protocol.md#what-a-list-may-cost). Every card a
 * `catalogue:watch` list (`/api/ws`: `{ type: "cards" }`) adds to what a socket shows is read and sent
 * to that socket; a list that adds nothing (the same cards, fewer) costs nothing. One account's sockets
 * sending new lists of 100 in a loop once kept a core busy, so the cards lists add are budgeted per
 * socket and per account on this process, as token buckets: a list that would overdraw either is
 * refused with RATE_LIMITED, nothing is read, and the socket keeps the list it had (and its connection).
 */
import type { AckError } from '@auction/shared';

/**
 * A Browse page shows 24 cards and a socket at most 100: a first page, two more loaded and a filter
 * change add about 100; someone clicking through filters adds 24 a click. Two tabs of one account
 * browsing at that pace stay inside the account's budget.
 */
export const CARD_BUDGET = {
  /** Cards one socket's lists may add at once, and per second after that. */
  socket: { burst: 300, perSecond: 30 },
  /** The same for all of an account's sockets on this process together. */
  account: { burst: 600, perSecond: 60 },
} as const;

type Limit = { readonly burst: number; readonly perSecond: number };

/** The refusal of a list past the budget. */
export const CARDS_RATE_LIMITED: AckError = {
  code: 'RATE_LIMITED',
  message: `Too many new cards: a connection may add ${CARD_BUDGET.socket.burst} at once and ${CARD_BUDGET.socket.perSecond} a second after that `
    + `(an account ${CARD_BUDGET.account.burst} and ${CARD_BUDGET.account.perSecond}); the list was not applied, send it again in a moment`,
};

class Bucket {
  private tokens: number;
  private at: number;

  constructor(private readonly limit: Limit, now: number) {
    this.tokens = limit.burst;
    this.at = now;
  }

  /** What is left at `now` (ms). */
  left(now: number): number {
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.at) / 1000) * this.limit.perSecond);
    this.at = now;
    return this.tokens;
  }

  take(n: number) {
    this.tokens -= n;
  }

  /** How long until it is full again from empty, in ms. */
  get refillMs(): number {
    return (this.limit.burst / this.limit.perSecond) * 1000;
  }
}

/** One socket's budget; `allow(n)` takes n cards from it and from its account's, or nothing when either is short. */
export interface CardAllowance {
  allow(cards: number): boolean;
  /** The socket closed. */
  close(): void;
}

interface Account { bucket: Bucket; sockets: number; forget: NodeJS.Timeout | null }

/** The budgets of this process's sockets and of their accounts. */
export class CardBudgets {
  private readonly accounts = new Map<string, Account>();

  constructor(private readonly clock: () => number = () => performance.now()) {}

  open(role: 'user' | 'admin', id: number): CardAllowance {
    const key = `${role}:${id}`;
    let account = this.accounts.get(key);
    if (!account) this.accounts.set(key, (account = { bucket: new Bucket(CARD_BUDGET.account, this.clock()), sockets: 0, forget: null }));
    if (account.forget) clearTimeout(account.forget);
    account.forget = null;
    account.sockets++;
    const own = new Bucket(CARD_BUDGET.socket, this.clock());
    const shared = account;
    let open = true;
    return {
      allow: (cards) => {
        if (cards === 0) return true;
        const now = this.clock();
        if (own.left(now) < cards || shared.bucket.left(now) < cards) return false;
        own.take(cards);
        shared.bucket.take(cards);
        return true;
      },
      close: () => {
        if (!open) return;
        open = false;
        if (--shared.sockets > 0) return;
        // Kept until it would be full again: closing every socket and reconnecting does not refill it.
        shared.forget = setTimeout(() => { if (this.accounts.get(key) === shared && shared.sockets === 0) this.accounts.delete(key); }, shared.bucket.refillMs);
        shared.forget.unref();
      },
    };
  }
}
