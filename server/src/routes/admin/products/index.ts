/**
 * Manage Products' list: the caller's own products a page at a time, newest first, behind opaque
 * keyset cursors (never OFFSET), filtered by name, by where each product is (unassigned, in an
 * auction, sold) and by category.
 */
import { ADMIN_PAGE_DEFAULT, AdminProductsPage, AdminProductsQuery, errorResponses } from '@auction/shared';
import type { App, AppContext } from '../../../context.js';
import { presentProduct } from '../../../presenters/catalogue.js';
import { decodeCursor, encodeCursor } from '../../cursor.js';
import { callerOf, pageLimit } from '../../input.js';

export function adminProductRoutes(app: App, ctx: AppContext) {
  const { reads, guard } = ctx;

  app.get('/admin/products', {
    onRequest: guard.admin,
    schema: {
      tags: ['admin catalogue'],
      security: [{ bearer: [] }],
      summary: 'The caller’s own products, a page at a time, newest first: by name (?q=), unassigned, assigned or sold, and category',
      description: 'Keyset pages: pass `next_cursor` as `cursor` for the next page (with the same filters). Each product carries its category, its lot number and its auction while in one.',
      querystring: AdminProductsQuery,
      response: { 200: AdminProductsPage, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    const q = req.query;
    const adminId = callerOf(req).id;
    // A cursor names its admin: another admin's (or another list's) is refused.
    const order = `admin-products:${adminId}`;
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor, order);
    const limit = pageLimit(q.limit, ADMIN_PAGE_DEFAULT);
    const name = q.q?.trim() ?? '';
    let categoryIds: number[] | null = null;
    if (q.category !== undefined) {
      const scope = await reads.categoryScope(/^[0-9]{1,15}$/.test(q.category) ? Number(q.category) : q.category);
      categoryIds = scope ? scope.ids : [];
    }
    const { hits, total, next } = await reads.adminProductPage({
      adminId, nameLike: name === '' ? null : name, status: q.status ?? null, categoryIds, after, limit,
    }, ctx.now());
    return {
      items: hits.map((h) => ({
        ...presentProduct(h.product, { adminId }),
        auction: h.product.auctionId !== null && h.auctionName !== null ? { id: h.product.auctionId, name: h.auctionName } : null,
      })),
      next_cursor: next ? encodeCursor(order, next) : null,
      total,
    };
  });
}
