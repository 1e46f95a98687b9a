/**
 * Browse cards (docs/live-protocol.md#browse-cards-cataloguewatch): the cards this process's commits
 * changed are published as ids with the frame; each process reads those its own sockets show and
 * sends them to their `cards:<id>` rooms.
 */
import { cardsRoom, type CardChangedData } from '@auction/shared';
import type { Reads } from '../db/index.js';
import { liveCard } from '../presenters/live.js';
import type { Fanout } from './fanout.js';
import { roomSize, type Transport } from './transport.js';

/** Cards one socket has just started showing, and how to send it one. */
interface CardShow {
  auctionIds: readonly string[];
  send: (data: CardChangedData) => void;
}

export interface CardPublisherOptions {
  reads: Pick<Reads, 'auctionCards'>;
  now: () => number;
  serverTime: () => string;
  /** This process's transports (the hub's list: attached later ones count too). */
  transports: readonly Transport[];
  /** The frame interval now: at most one batch read per interval. */
  interval: () => number;
  fanout: Fanout;
  onError: (err: unknown) => void;
}

export class CardPublisher {
  /** Auctions whose card changed since the last frame (this process's commits), published ids only. */
  private readonly changes = new Set<string>();
  /** Changed cards this process's sockets show, waiting for the next batch read. */
  private readonly due = new Set<string>();
  /** Cards sockets have just started showing, each sent to its socket alone with the next batch read. */
  private readonly shows: CardShow[] = [];
  /** The batch read of cards in flight (one at a time, so cards go out in the order they were read). */
  private reading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastReadAt = -Infinity;
  private closing = false;

  constructor(private readonly opts: CardPublisherOptions) {}

  /** A card changed by this process's commit: merged per auction, its id published with the next frame. */
  changed(auctionId: string) {
    this.changes.add(auctionId);
  }

  /** Whether changed ids wait for the next frame. */
  get pending(): boolean {
    return this.changes.size > 0;
  }

  /** The changed ids to publish with this frame (and forgets them). */
  take(): string[] {
    const ids = [...this.changes];
    this.changes.clear();
    return ids;
  }

  /**
   * Cards changed (by any process): those this process's sockets show are read at the next turn. At
   * most one batch read per frame interval, and one at a time: a read that started later sees a newer
   * commit, so a socket never gets an older card after a newer one. No watchers here, no read.
   */
  published(auctionIds: readonly string[]) {
    for (const id of auctionIds) if (this.showsCard(id)) this.due.add(id);
    if ((this.due.size === 0 && this.shows.length === 0) || this.reading || this.closing) return;
    // A socket waiting for the cards it just started showing is served at once.
    const wait = this.shows.length > 0 ? 0 : this.lastReadAt + this.opts.interval() - performance.now();
    if (wait <= 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      return this.readCards();
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.readCards();
    }, wait);
  }

  /**
   * A socket started showing these cards: each is read as committed, with the next batch read (at once
   * when none is in flight), and handed to `send` (the socket alone) in the order of the reads, so a
   * change between the page the client read and its list is not lost, and never arrives out of order.
   * An id of no auction sends nothing.
   */
  show(auctionIds: readonly string[], send: (data: CardChangedData) => void) {
    if (auctionIds.length === 0 || this.closing) return;
    this.shows.push({ auctionIds, send });
    this.published([]);
  }

  /** Its sockets are closing: no card is read for them any more. */
  stop() {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves once the read in flight, if any, is done. */
  settled(): Promise<void> {
    return this.reading ?? Promise.resolve();
  }

  /** Whether a socket of this process shows the auction's card. */
  private showsCard(auctionId: string): boolean {
    return roomSize(this.opts.transports, cardsRoom(auctionId)) > 0;
  }

  private readCards() {
    // A socket may have stopped showing a card since it changed.
    const ids = [...this.due].filter((id) => this.showsCard(id));
    this.due.clear();
    const shows = this.shows.splice(0);
    if (ids.length === 0 && shows.length === 0) return;
    if (ids.length > 0) this.lastReadAt = performance.now();
    this.reading = this.sendCards(ids, shows).catch(this.opts.onError).finally(() => {
      this.reading = null;
      // Changes that arrived during the read: the next read, a frame interval after this one.
      this.published([]);
    });
  }

  /** Reads the cards as committed, in one statement, and sends each to the sockets that show it (null: deleted). */
  private async sendCards(ids: string[], shows: CardShow[]) {
    const due = new Set(ids);
    const wanted = new Set(ids);
    for (const show of shows) for (const id of show.auctionIds) wanted.add(id);
    const views = new Map((await this.opts.reads.auctionCards([...wanted])).map((v) => [v.id, v]));
    const now = this.opts.now();
    const serverTime = this.opts.serverTime();
    const cards = new Map<string, CardChangedData>();
    const cardOf = (id: string) => {
      let data = cards.get(id);
      if (!data) {
        const view = views.get(id);
        data = { auction_id: id, card: view ? liveCard(view, now) : null, server_time: serverTime };
        cards.set(id, data);
      }
      return data;
    };
    const slices: Array<() => void> = [];
    for (const id of ids) {
      const data = cardOf(id);
      for (const t of this.opts.transports) slices.push(...t.cardSlices(cardsRoom(id), data));
    }
    for (const show of shows) {
      // A card also changed goes to its whole room above, this socket included.
      const own = show.auctionIds.filter((id) => views.has(id) && !due.has(id)).map(cardOf);
      if (own.length > 0) slices.push(() => { for (const data of own) show.send(data); });
    }
    this.opts.fanout.write(slices);
  }
}
