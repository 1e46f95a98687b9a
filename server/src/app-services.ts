import type { TokenService } from './auth/tokens.js';
import { SessionCache } from './auth/session-cache.js';
import { AUCTION_LIST_EVENTS, AuctionListCache } from './cache/auction-list.js';
import { CATEGORY_COUNT_EVENTS, CategoryListCache } from './cache/category-list.js';
import { AuctionScheduler } from './clock/scheduler.js';
import type { Config } from './config.js';
import type { App } from './context.js';
import type { Reads, Store } from './db/index.js';
import { Commands } from './domain/commands.js';
import { EventBus } from './domain/events.js';
import { LiveHub } from './live/hub.js';
import { attachSocketIo } from './live/socketio.js';
import { Metrics } from './metrics.js';
import type { Shared } from './redis-setup.js';

/** The application's own pieces the routes share (app.ts puts them in the context). */
export interface Services {
  now: () => number;
  events: EventBus;
  commands: Commands;
  reads: Reads;
  live: LiveHub;
  auctionList: AuctionListCache;
  categoryList: CategoryListCache;
  sessions: SessionCache;
  scheduler: AuctionScheduler;
}

/**
 * The event bus, commands, the live channel (socket.io attached to the server), the read caches, the
 * session cache and the auction clock, wired together; nothing is started here (app-lifecycle.ts).
 */
export function createServices(
  app: App,
  config: Config,
  deps: { store: Store; shared: Shared; tokens: TokenService; now?: () => number; schedulerBatch?: number },
): Services {
  const { store, tokens, shared: { relay, tally, redisRelay } } = deps;
  const now = deps.now ?? Date.now;
  const events = new EventBus();
  // The one place commands run: a transaction each (group-committed on SQLite), events after commit.
  const commands = new Commands(store, events);
  const reads = store.reads;
  const logError = (err: unknown) => app.log.error({ err }, 'live channel');
  // Committed events → hub → socket.io and the plain WebSocket feed.
  const live = new LiveHub({ reads, now, frameMs: config.liveFrameMs, onError: logError, relay, tally });
  events.subscribe(live.publish);
  const auctionList = new AuctionListCache(reads, now);
  events.onBatch(AUCTION_LIST_EVENTS, auctionList.onEvents);
  live.onForeignCatalogue(auctionList.invalidate);
  const categoryList = new CategoryListCache(reads, now);
  events.onBatch(CATEGORY_COUNT_EVENTS, categoryList.onEvents);
  live.onForeignCatalogue(categoryList.invalidate);
  // Every authenticated request's account check, from memory; a revocation here or elsewhere forgets it.
  const sessions = new SessionCache(reads);
  events.on('account:revoked', (e) => sessions.forget(e.role, e.id));
  events.on('account:deactivated', (e) => sessions.forget('user', e.userId));
  live.onForeignRevocation((role, id) => sessions.forget(role, id));
  // After a relay gap a revocation elsewhere may have gone unheard: every account is read again.
  live.onRelayGap(() => sessions.clear());
  attachSocketIo({ server: app.server, hub: live, tokens, reads, now, onError: logError, ...(config.corsOrigin ? { corsOrigin: config.corsOrigin } : {}) });
  const scheduler = new AuctionScheduler({
    reads, commands, events, now, autoSettle: config.autoSettle, log: app.log,
    ...(deps.schedulerBatch ? { batch: deps.schedulerBatch } : {}),
  });
  // Another process's catalogue change may move an ending this process's clock keeps.
  live.onForeignCatalogue(() => scheduler.changed());
  // A relayed change can be missed (Redis briefly away): the clock's process re-reads now and then too.
  if (redisRelay) setInterval(() => scheduler.changed(), 30_000).unref();
  return { now, events, commands, reads, live, auctionList, categoryList, sessions, scheduler };
}

/** The Prometheus series (metrics.ts), with the live channel's counts, the store's connections, the clock and the outbox. */
export function createMetrics(store: Store, services: Pick<Services, 'live' | 'scheduler' | 'now'>): Metrics {
  const { live, scheduler, now } = services;
  return new Metrics({
    live: live.counts,
    connections: () => store.connections(),
    leading: () => scheduler.active,
    outbox: async () => {
      const [row] = await store.query<{ n: number; oldest: number | null }>('select count(*) as n, min(created_at) as oldest from mail_outbox where sent_at is null and failed_at is null');
      const oldest = row?.oldest == null ? null : Number(row.oldest);
      return { waiting: Number(row?.n ?? 0), oldestSeconds: oldest === null ? 0 : Math.max(0, (now() - oldest) / 1000) };
    },
  });
}
