/**
 * The catalogue's categories (docs/catalogue.md): a tree of two levels, managed by any admin. A
 * category with products or subcategories cannot be deleted; a subcategory cannot have its own.
 */
import { slugify } from '@auction/shared';
import type { CategoryRow, UnitOfWork } from '../db/index.js';
import { refuse, type Result } from '../errors.js';

export interface CategoryInput {
  name: string;
  /** Left out: made from the name on creation, kept on an edit. */
  slug?: string;
  /** Null: a top-level category. Left out: top-level on creation, kept on an edit. */
  parentId?: number | null;
}

const notFound = () => refuse('NOT_FOUND', 'Category not found');

/** The name, slug and parent to store, or why not: the parent must be a top-level category, the slug free. */
async function checkInput(tx: UnitOfWork, input: CategoryInput, self: CategoryRow | null): Promise<Result<{ name: string; slug: string; parentId: number | null }>> {
  const name = input.name.trim();
  const slug = input.slug ?? self?.slug ?? slugify(name);
  if (slug === '') return refuse('VALIDATION', 'slug must be given when the name has no letters or digits to make it from', 'slug');
  const parentId = input.parentId === undefined ? self?.parentId ?? null : input.parentId;
  if (parentId !== null) {
    if (self !== null && parentId === self.id) return refuse('VALIDATION', 'A category cannot be its own parent', 'parent_id');
    const parent = await tx.lockCategory(parentId);
    if (!parent) return refuse('VALIDATION', `parent_id ${parentId} names no category`, 'parent_id');
    if (parent.parentId !== null) return refuse('VALIDATION', 'Categories have two levels: a subcategory cannot have subcategories', 'parent_id');
    if (self !== null && self.parentId === null && (await tx.categoryInUse(self.id)).children) {
      return refuse('VALIDATION', 'Categories have two levels: a category with subcategories cannot become one', 'parent_id');
    }
  }
  if (await tx.categorySlugTaken(slug, self?.id)) return refuse('VALIDATION', `Another category has the slug ${slug}`, 'slug');
  return { ok: true, name, slug, parentId };
}

export async function createCategory(tx: UnitOfWork, input: CategoryInput, now: number): Promise<Result<{ category: CategoryRow }>> {
  const checked = await checkInput(tx, input, null);
  if (!checked.ok) return checked;
  const category = await tx.insertCategory({ name: checked.name, slug: checked.slug, parentId: checked.parentId, now });
  if (!category) return refuse('VALIDATION', `Another category has the slug ${checked.slug}`, 'slug');
  return { ok: true, category };
}

export async function updateCategory(tx: UnitOfWork, cmd: { id: number; input: CategoryInput }): Promise<Result<{ category: CategoryRow }>> {
  const current = await tx.lockCategory(cmd.id);
  if (!current) return notFound();
  const checked = await checkInput(tx, cmd.input, current);
  if (!checked.ok) return checked;
  const category = await tx.updateCategory(cmd.id, { name: checked.name, slug: checked.slug, parentId: checked.parentId });
  if (!category) return notFound();
  return { ok: true, category };
}

export async function deleteCategory(tx: UnitOfWork, cmd: { id: number }): Promise<Result<Record<never, never>>> {
  const current = await tx.lockCategory(cmd.id);
  if (!current) return notFound();
  const use = await tx.categoryInUse(cmd.id);
  if (use.children) return refuse('CATEGORY_IN_USE', 'This category has subcategories: move or delete them first');
  if (use.products) return refuse('CATEGORY_IN_USE', 'This category has products: move them to another category first');
  await tx.deleteCategory(cmd.id);
  return { ok: true };
}

/** Whether a product may name this category: null (none) or an existing one. */
export async function checkCategory(tx: UnitOfWork, categoryId: number | null | undefined): Promise<Result<Record<never, never>>> {
  if (categoryId === undefined || categoryId === null) return { ok: true };
  if (!(await tx.lockCategory(categoryId))) return refuse('VALIDATION', `category_id ${categoryId} names no category`, 'category_id');
  return { ok: true };
}
