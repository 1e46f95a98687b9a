/** The catalogue's categories (docs/catalogue.md): read by anyone, managed by any admin. */
import { CategoryBody, CategoryIdParams, CategoryList, CategorySaved, MessageBody, errorResponses, type Category } from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import type { CategoryView } from '../../db/index.js';
import { createCategory, deleteCategory, updateCategory } from '../../domain/categories.js';
import { AppError, unwrap } from '../../errors.js';

const present = (c: CategoryView): Category => ({ id: c.id, name: c.name, slug: c.slug, parent_id: c.parentId, open_lots: c.openLots });

export function categoryRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const security = [{ bearer: [] }];
  const adminTags = ['admin catalogue'];
  const view = async (id: number) => {
    const found = (await reads.categories(ctx.now())).find((c) => c.id === id);
    if (!found) throw new AppError('NOT_FOUND', 'Category not found');
    return present(found);
  };
  const input = (body: CategoryBody) => ({
    name: body.name, ...(body.slug === undefined ? {} : { slug: body.slug }), ...(body.parent_id === undefined ? {} : { parentId: body.parent_id }),
  });

  app.get('/categories', {
    config: ctx.publicReadLimit,
    schema: {
      tags: ['catalogue'], summary: 'Every category, each top-level one followed by its subcategories, with its count of open lots (public)',
      response: { 200: CategoryList, ...errorResponses(429) },
    },
  }, async () => ({ categories: (await ctx.categoryList.list()).map(present) }));

  app.post('/admin/categories', {
    onRequest: guard.admin,
    schema: {
      tags: adminTags, security, summary: 'Create a category (any admin); with `parent_id`, a subcategory of a top-level one',
      body: CategoryBody, response: { 201: CategorySaved, ...errorResponses(400, 401, 403) },
    },
  }, async (req, reply) => {
    const { category } = unwrap(await commands.run((tx) => createCategory(tx, input(req.body), ctx.now())));
    ctx.categoryList.invalidate();
    return reply.code(201).send({ message: 'Category created', category: await view(category.id) });
  });

  app.put('/admin/categories/:id', {
    onRequest: guard.admin,
    schema: {
      tags: adminTags, security, summary: 'Rename or move a category (any admin); a slug or parent left out stays as it is',
      params: CategoryIdParams, body: CategoryBody, response: { 200: CategorySaved, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    const id = Number(req.params.id);
    const { category } = unwrap(await commands.run((tx) => updateCategory(tx, { id, input: input(req.body) })));
    ctx.categoryList.invalidate();
    return { message: 'Category updated', category: await view(category.id) };
  });

  app.delete('/admin/categories/:id', {
    onRequest: guard.admin,
    schema: {
      tags: adminTags, security, summary: 'Delete a category (any admin) that has no products and no subcategories',
      params: CategoryIdParams, response: { 200: MessageBody, ...errorResponses(401, 403, 404, 409) },
    },
  }, async (req) => {
    unwrap(await commands.run((tx) => deleteCategory(tx, { id: Number(req.params.id) })));
    ctx.categoryList.invalidate();
    return { message: 'Category deleted' };
  });
}
