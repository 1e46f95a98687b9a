/** Admin figures: dashboard stats, reports and the running configuration. */
import { AdminSettings, AdminStats, LIMITS, Reports, errorResponses, toRupees } from '@auction/shared';
import type { App, AppContext } from '../context.js';
import { iso } from '../presenters/catalogue.js';
import { auctionStatus } from '../queries/auctions.js';
import { adminStats, auctionReport, productReport } from '../queries/reports.js';
import { callerOf } from './input.js';

export function adminRoutes(app: App, ctx: AppContext) {
  const { db, guard, config } = ctx;
  const tags = ['admin'];
  const security = [{ bearer: [] }];

  app.get('/admin/stats', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Dashboard numbers for the caller’s auctions', response: { 200: AdminStats, ...errorResponses(401, 403) } },
  }, async (req) => {
    const s = adminStats(db, callerOf(req).id, ctx.now());
    return {
      total_auctions: s.totalAuctions, active_auctions: s.activeAuctions, total_products: s.totalProducts,
      unassigned_products: s.unassignedProducts, total_bids: s.totalBids, revenue: toRupees(s.revenue), pending: toRupees(s.pending),
    };
  });

  app.get('/admin/reports', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'Per-auction and per-product reports for the caller, in one call', response: { 200: Reports, ...errorResponses(401, 403) } },
  }, async (req) => {
    const adminId = callerOf(req).id;
    const now = ctx.now();
    return {
      auctions: auctionReport(db, adminId).map((a) => ({
        id: a.id, name: a.name, valid_until: iso(a.validUntil), status: auctionStatus(a, now), product_count: a.productCount,
        bid_count: a.bidCount, revenue: toRupees(a.revenue), pending: toRupees(a.pending),
      })),
      products: productReport(db, adminId).map((p) => ({
        id: p.id, name: p.name, description: p.description, status: p.auctionId === null && p.status !== 'sold' ? 'unassigned' as const : p.status,
        auction_id: p.auctionId, bid_count: p.bidCount, highest_bid: toRupees(p.highest),
      })),
    };
  });

  app.get('/admin/settings', {
    onRequest: guard.admin,
    schema: { tags, security, summary: 'The running configuration', response: { 200: AdminSettings, ...errorResponses(401, 403) } },
  }, async () => ({
    auto_settle: config.autoSettle, admin_signup: config.adminSignup, min_increment: LIMITS.minIncrementRupees,
    live_frame_ms: config.liveFrameMs, timezone: config.timeZone,
  }));
}
