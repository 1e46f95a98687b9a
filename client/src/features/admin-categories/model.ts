/** The Categories page's rules: the tree as the server lists it, and what a refused delete says. */
import type { Category } from '@auction/shared';
import { ApiError } from '../../lib/api-client';

/** The categories a category may be put under: top-level ones other than itself; none when it has subcategories of its own (two levels only). */
export function parentChoices(all: readonly Category[], self?: Category): Category[] {
  if (self && all.some((c) => c.parent_id === self.id)) return [];
  return all.filter((c) => c.parent_id === null && c.id !== self?.id);
}

/** How many subcategories a category has. */
export const childCount = (all: readonly Category[], id: number) => all.filter((c) => c.parent_id === id).length;

/** A refused delete in a sentence that names the category; the server's reason when it gives one. */
export function deleteRefusal(err: unknown, name: string): string {
  if (err instanceof ApiError && err.code === 'CATEGORY_IN_USE') {
    const why = err.serverError ?? 'It still has products or subcategories: move them to another category first';
    return `“${name}” was not deleted. ${why}.`.replace(/\.\.$/, '.');
  }
  if (err instanceof ApiError && err.serverError) return err.serverError;
  return 'Delete failed';
}
