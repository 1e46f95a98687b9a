/**
 * Categories (docs/catalogue.md) through the HTTP API on both stores: a two-level tree any admin
 * manages, read by anyone with counts of open lots (a parent's including its children's); a category
 * with products or subcategories is 409 CATEGORY_IN_USE; a third level, a duplicate slug or an unknown
 * parent is 400; products take an optional `category_id` and show `category`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { call, createAuction, expectError, HOUR, makeApp, makeClock, signUpAdmin, signUpUser, uniqueName } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface CategoryJson { id: number; name: string; slug: string; parent_id: number | null; open_lots: number }
interface ProductJson { id: string; category: { id: number; name: string; slug: string } | null }

async function newCategory(token: string, body: Record<string, unknown>) {
  const res = await call(app, 'POST', '/api/admin/categories', body, token);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ category: CategoryJson }>().category;
}

const list = async () => {
  const res = await call(app, 'GET', '/api/categories');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ categories: CategoryJson[] }>().categories;
};

describe('categories', () => {
  it('any admin creates, renames and deletes; slugs are made from names; two levels only', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const home = await newCategory(admin.token, { name: '  Home & Garden ' });
    expect(home).toMatchObject({ name: 'Home & Garden', slug: 'home-garden', parent_id: null, open_lots: 0 });
    const lamps = await newCategory(other.token, { name: 'Lamps', parent_id: home.id });
    expect(lamps).toMatchObject({ slug: 'lamps', parent_id: home.id });
    const art = await newCategory(admin.token, { name: 'Art', slug: 'fine-art' });
    expect(art.slug).toBe('fine-art');

    // Third level, unknown parent, duplicate slug, bad slug, self-parent: 400.
    expect(expectError(await call(app, 'POST', '/api/admin/categories', { name: 'Desk lamps', parent_id: lamps.id }, admin.token), 400, 'VALIDATION').field).toBe('parent_id');
    expect(expectError(await call(app, 'POST', '/api/admin/categories', { name: 'X', parent_id: 999_999 }, admin.token), 400, 'VALIDATION').field).toBe('parent_id');
    expect(expectError(await call(app, 'POST', '/api/admin/categories', { name: 'Lamps' }, admin.token), 400, 'VALIDATION').field).toBe('slug');
    expectError(await call(app, 'POST', '/api/admin/categories', { name: 'X', slug: 'Not A Slug' }, admin.token), 400, 'VALIDATION');
    expectError(await call(app, 'POST', '/api/admin/categories', { name: '' }, admin.token), 400, 'VALIDATION');
    expectError(await call(app, 'POST', '/api/admin/categories', { name: 'X', parent_id: '1' }, admin.token), 400, 'VALIDATION');
    expectError(await call(app, 'PUT', `/api/admin/categories/${home.id}`, { name: 'Home', parent_id: home.id }, admin.token), 400, 'VALIDATION');
    // A category with subcategories cannot become one.
    expectError(await call(app, 'PUT', `/api/admin/categories/${home.id}`, { name: 'Home', parent_id: art.id }, admin.token), 400, 'VALIDATION');
    expectError(await call(app, 'PUT', `/api/admin/categories/${art.id}`, { name: 'Art', slug: 'lamps' }, admin.token), 400, 'VALIDATION');

    // An edit keeps the slug and parent it leaves out.
    const renamed = await call(app, 'PUT', `/api/admin/categories/${lamps.id}`, { name: 'Lamps and lights' }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ category: CategoryJson }>().category).toMatchObject({ name: 'Lamps and lights', slug: 'lamps', parent_id: home.id });
    const moved = await call(app, 'PUT', `/api/admin/categories/${lamps.id}`, { name: 'Lamps', parent_id: null, slug: 'lamps-top' }, admin.token);
    expect(moved.json<{ category: CategoryJson }>().category).toMatchObject({ slug: 'lamps-top', parent_id: null });
    expect((await call(app, 'PUT', `/api/admin/categories/${lamps.id}`, { name: 'Lamps', parent_id: art.id }, admin.token)).statusCode).toBe(200);

    expect((await list()).map((c) => c.name)).toEqual(['Art', 'Lamps', 'Home & Garden']);
    expectError(await call(app, 'PUT', '/api/admin/categories/999999', { name: 'X' }, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/categories/999999', undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', `/api/admin/categories/${art.id}`, undefined, admin.token), 409, 'CATEGORY_IN_USE');
    expect((await call(app, 'DELETE', `/api/admin/categories/${lamps.id}`, undefined, other.token)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/categories/${art.id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await list()).map((c) => c.name)).toEqual(['Home & Garden']);

    const bidder = await signUpUser(app);
    expectError(await call(app, 'POST', '/api/admin/categories', { name: 'Nope' }, bidder.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/admin/categories', { name: 'Nope' }), 401, 'UNAUTHENTICATED');
  });

  it('products name a category (unknown: 400); product shapes show it; a category with products is in use', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const home = await newCategory(admin.token, { name: 'Home' });
    const id = uniqueName('CP');
    const created = await call(app, 'POST', '/api/admin/product', { id, name: 'Brass lamp', description: 'Old', category_id: home.id }, admin.token);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ product: ProductJson }>().product.category).toEqual({ id: home.id, name: 'Home', slug: 'home' });
    expect(expectError(await call(app, 'POST', '/api/admin/product', { id: uniqueName('CP'), name: 'N', description: 'D', category_id: 999_999 }, admin.token), 400, 'VALIDATION').field).toBe('category_id');
    expectError(await call(app, 'POST', '/api/admin/product', { id: uniqueName('CP'), name: 'N', description: 'D', category_id: 'home' }, admin.token), 400, 'VALIDATION');
    expectError(await call(app, 'PUT', `/api/admin/product/${id}`, { name: 'N', description: 'D', category_id: 999_999 }, admin.token), 400, 'VALIDATION');

    expectError(await call(app, 'DELETE', `/api/admin/categories/${home.id}`, undefined, admin.token), 409, 'CATEGORY_IN_USE');
    // An edit that leaves category_id out keeps it; null takes the product out.
    const kept = await call(app, 'PUT', `/api/admin/product/${id}`, { name: 'Brass lamp', description: 'Old' }, admin.token);
    expect(kept.json<{ product: ProductJson }>().product.category?.id).toBe(home.id);
    const out = await call(app, 'PUT', `/api/admin/product/${id}`, { name: 'Brass lamp', description: 'Old', category_id: null }, admin.token);
    expect(out.json<{ product: ProductJson }>().product.category).toBeNull();
    const unassigned = await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token);
    expect(unassigned.json<ProductJson[]>().find((p) => p.id === id)?.category).toBeNull();

    // A deleted product does not keep its category in use.
    await call(app, 'PUT', `/api/admin/product/${id}`, { name: 'Brass lamp', description: 'Old', category_id: home.id }, admin.token);
    expect((await call(app, 'DELETE', `/api/admin/product/${id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/categories/${home.id}`, undefined, admin.token)).statusCode).toBe(200);
  });

  it('GET /categories is public and counts open lots, a parent its children’s too', async () => {
    const clock = makeClock();
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const home = await newCategory(admin.token, { name: 'Home' });
    const lamps = await newCategory(admin.token, { name: 'Lamps', parent_id: home.id });
    const art = await newCategory(admin.token, { name: 'Art' });
    const open = await createAuction(app, admin.token, { products: 3, now: clock.t, endsIn: 2 * HOUR });
    const soon = await createAuction(app, admin.token, { products: 1, now: clock.t, endsIn: HOUR });
    const put = (id: string, categoryId: number) => call(app, 'PUT', `/api/admin/product/${id}`, { name: `Lot ${id}`, description: 'D', category_id: categoryId }, admin.token);
    await put(open.productIds[0]!, home.id);
    await put(open.productIds[1]!, lamps.id);
    await put(open.productIds[2]!, lamps.id);
    await put(soon.productIds[0]!, art.id);
    const counts = async () => Object.fromEntries((await list()).map((c) => [c.slug, c.open_lots]));
    expect(await counts()).toEqual({ home: 3, lamps: 2, art: 1 });
    expect((await list()).map((c) => c.slug)).toEqual(['art', 'home', 'lamps']);
    clock.advance(HOUR + 1);
    expect(await counts()).toEqual({ home: 3, lamps: 2, art: 0 });
  });
});
