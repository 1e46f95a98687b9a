/** Admin figures: dashboard stats, reports and the running configuration. */
import { AdminSettings, AdminStats, LIMITS, Reports, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../../context.js';
import { presentAdminStats, presentAuctionReport, presentProductReport } from '../../../presenters/admin.js';
import { callerOf } from '../../input.js';

export function adminRoutes(app: App, ctx: AppContext) {
  const { reads, guard, config } = ctx;
  const tags = ['admin'];
  const security = [{ bearer: [] }];

  app.get('/admin/stats', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Dashboard numbers for the caller’s auctions', response: { 200: AdminStats, ...errorResponses(401, 403) } },
  }, async (req) => presentAdminStats(await reads.adminStats(callerOf(req).id, ctx.now())));

  app.get('/admin/reports', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Per-auction and per-product reports for the caller, in one call', response: { 200: Reports, ...errorResponses(401, 403) } },
  }, async (req) => {
    const adminId = callerOf(req).id;
    const now = ctx.now();
    const [auctions, products] = await Promise.all([reads.auctionReport(adminId), reads.productReport(adminId)]);
    return { auctions: auctions.map((a) => presentAuctionReport(a, now)), products: products.map(presentProductReport) };
  });

  app.get('/admin/settings', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The running configuration', response: { 200: AdminSettings, ...errorResponses(401, 403) } },
  }, async () => ({
    auto_settle: config.autoSettle, admin_signup: config.adminSignup, min_increment: LIMITS.minIncrementRupees,
    live_frame_ms: config.liveFrameMs, timezone: config.timeZone, soft_close_s: config.softCloseS, max_extension_s: config.maxExtensionS,
    media_max_mb: config.mediaMaxMb,
  }));
}
