/** The catalogue's categories (docs/catalogue.md): a two-level tree managed by any admin. */
import { Type, type Static } from 'typebox';
import { VisibleText, X_ERROR, X_MISSING } from './common.js';

/** Longest category name and slug. */
export const CATEGORY_NAME_MAX = 60;
export const CATEGORY_SLUG_MAX = 60;
/** A slug: lower-case letters and digits in words joined by single hyphens. */
export const CATEGORY_SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** A category as a product shows it. */
export const CategoryRef = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
});
export type CategoryRef = Static<typeof CategoryRef>;

export const Category = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  parent_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Null for a top-level category' }),
  open_lots: Type.Integer({ description: 'Lots on sale now in open auctions; a top-level category counts its subcategories’ too' }),
});
export type Category = Static<typeof Category>;

export const CategoryList = Type.Object({
  categories: Type.Array(Category, { description: 'Each top-level category (by name) followed by its subcategories (by name)' }),
});
export type CategoryList = Static<typeof CategoryList>;

const MISSING = 'Please fill all fields';

/** `POST /admin/categories` and `PUT /admin/categories/{id}`: a slug left out is made from the name. */
export const CategoryBody = Type.Object({
  name: Type.String({
    minLength: 1, maxLength: CATEGORY_NAME_MAX, pattern: '\\S',
    [X_ERROR]: `name must be 1–${CATEGORY_NAME_MAX} characters`, [X_MISSING]: MISSING,
    allOf: [VisibleText('name', { missing: MISSING })],
  }),
  slug: Type.Optional(Type.String({
    minLength: 1, maxLength: CATEGORY_SLUG_MAX, pattern: CATEGORY_SLUG_PATTERN,
    [X_ERROR]: `slug must be 1–${CATEGORY_SLUG_MAX} lower-case letters and digits, in words joined by hyphens`,
  })),
  parent_id: Type.Optional(Type.Union([
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, [X_ERROR]: 'parent_id must be a category id or null' }),
    Type.Null(),
  ], { [X_ERROR]: 'parent_id must be a category id or null' })),
});
export type CategoryBody = Static<typeof CategoryBody>;

export const CategorySaved = Type.Object({ message: Type.String(), category: Category });
export type CategorySaved = Static<typeof CategorySaved>;

/** Path parameter `{id}` of a category: a whole number as text. */
export const CategoryIdParams = Type.Object({
  id: Type.String({ maxLength: 15, pattern: '^[0-9]{1,15}$', [X_ERROR]: 'id must be a category id' }),
});

/** A slug made from a name: lower-case ASCII words joined by hyphens (empty when none is left). */
export function slugify(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, CATEGORY_SLUG_MAX).replace(/-+$/, '');
}
