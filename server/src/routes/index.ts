import type { App, AppContext } from '../context.js';
import type { LiveHub } from '../live/hub.js';
import { wsFeed } from '../live/ws.js';
import type { UnsubscribeTokens } from '../mail/links.js';
import type { MailSender } from '../mail/sender.js';
import { accountRoutes } from './accounts/index.js';
import { catalogueRoutes } from './admin/catalogue/index.js';
import { adminRoutes } from './admin/dashboard/index.js';
import { productImportRoutes } from './admin/product-import/index.js';
import { adminProductRoutes } from './admin/products/index.js';
import { userAdminRoutes } from './admin/users/index.js';
import { auctionRoutes } from './auctions/index.js';
import { billingRoutes } from './billing/index.js';
import { biddingRoutes } from './bids/index.js';
import { browseRoutes } from './catalogue/index.js';
import { categoryRoutes } from './categories/index.js';
// Accounts by email: addresses, password reset, notice emails (docs/email.md).
import { emailRoutes } from './email/index.js';
import { houseRoutes } from './house/index.js';
import { imageRoutes, mediaRoutes } from './images/index.js';
import { metricsRoutes } from './metrics/index.js';
// Saved lots and notifications (docs/notifications.md).
import { notificationRoutes } from './notifications/index.js';
import { productPageRoutes } from './products/index.js';
import { savedRoutes } from './saved/index.js';
import { systemRoutes } from './system/index.js';
import { walletRoutes } from './wallet/index.js';

/** Every route, in this order: /metrics and /media on the root instance, then /api in a scope of its own. */
export async function registerRoutes(
  app: App,
  ctx: AppContext,
  deps: { live: LiveHub; mailSender: MailSender; unsubscribeTokens: UnsubscribeTokens },
): Promise<void> {
  const { live, mailSender, unsubscribeTokens } = deps;
  // Prometheus' /metrics, outside /api (docs/deploy.md#monitoring).
  metricsRoutes(app, ctx);
  // Photo renditions at /media/{name}.webp, outside /api (public, cached for good: docs/photos.md).
  mediaRoutes(app, ctx);
  await app.register(async (api) => {
    systemRoutes(api, ctx);
    accountRoutes(api, ctx);
    catalogueRoutes(api, ctx);
    // Products in bulk: CSV in (text/csv or multipart, in a scope of its own) and out.
    productImportRoutes(api, ctx);
    adminProductRoutes(api, ctx);
    // Categories, lot numbers and the paged catalogue (docs/catalogue.md).
    categoryRoutes(api, ctx);
    browseRoutes(api, ctx);
    // Photos (multipart, in a scope of its own) and the lot page (docs/photos.md).
    imageRoutes(api, ctx);
    productPageRoutes(api, ctx);
    auctionRoutes(api, ctx);
    biddingRoutes(api, ctx);
    walletRoutes(api, ctx);
    adminRoutes(api, ctx);
    userAdminRoutes(api, ctx);
    // The house's profile and the buyer's billing details: the two sides of an invoice (docs/invoices.md).
    houseRoutes(api, ctx);
    billingRoutes(api, ctx);
    // Saved lots and notifications (docs/notifications.md).
    savedRoutes(api, ctx);
    notificationRoutes(api, ctx);
    emailRoutes(api, ctx, { kick: () => mailSender.kick(), unsubscribe: unsubscribeTokens });
    wsFeed(api, ctx, live);
  }, { prefix: '/api' });
}
