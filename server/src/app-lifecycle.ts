import type { AuctionScheduler } from './clock/scheduler.js';
import type { App } from './context.js';
import type { Election, Store } from './db/index.js';
import { AppError } from './errors.js';
import type { LiveHub } from './live/hub.js';
import type { MailSender } from './mail/sender.js';
import type { MailTransport } from './mail/transport.js';

/**
 * The app's lifecycle hooks on the root instance, in this order: onReady (the clock's election),
 * preClose, onClose, and the onRequest hook that refuses requests while closing. Returns the
 * `lifecycle` flag index.ts sets on SIGTERM (ctx.lifecycle).
 */
export function lifecycleHooks(
  app: App,
  deps: { store: Store; scheduler: AuctionScheduler; mailSender: MailSender; mailTransport: MailTransport; live: LiveHub },
): { draining: boolean } {
  const { store, scheduler, mailSender, mailTransport, live } = deps;
  // One process of those sharing the store keeps the clock (a PostgreSQL advisory lock; SQLite: this one).
  let election: Election | null = null;
  app.addHook('onReady', async () => {
    election = await store.elect('scheduler', async (leading) => {
      if (leading) {
        app.log.info('this process keeps the auction clock (endings, notices, settlement) and sends the mail');
        await scheduler.start();
        mailSender.start();
      } else {
        app.log.warn('this process no longer keeps the auction clock');
        await scheduler.stop();
        await mailSender.stop();
      }
    }, (err) => app.log.warn({ err }, 'scheduler election: could not reach the database'));
  });
  // Stop the clock, send what is pending and close every socket before the server stops; after the
  // last request has finished, publish what it committed and leave Redis.
  let closing = false;
  const lifecycle = { draining: false };
  app.addHook('preClose', async () => {
    closing = true;
    lifecycle.draining = true;
    await scheduler.stop();
    await mailSender.stop();
    await election?.stop();
    live.closeSockets();
  });
  app.addHook('onClose', async () => {
    await live.close();
    mailTransport.close();
    await store.close();
  });
  // A request that reaches a closing server (on a kept-alive connection) is refused whole, before
  // anything runs, and told to come back; the connection is closed after the answer.
  // While draining (before closing) requests are served, each on a connection closed after its
  // answer: a balancer's kept-alive connections are gone before the server stops accepting.
  app.addHook('onRequest', async (_req, reply) => {
    if (lifecycle.draining) reply.header('connection', 'close');
    if (!closing) return;
    reply.header('connection', 'close').header('retry-after', '1');
    throw new AppError('UNAVAILABLE', 'The server is restarting; please retry in a moment');
  });
  return lifecycle;
}
