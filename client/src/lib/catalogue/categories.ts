/** The category tree (`GET /categories`, public), one query for every screen that lists categories. */
import { queryOptions } from '@tanstack/react-query';
import type { Category, CategoryList } from '@auction/shared';
import { api } from '../api-client';
import { invalidateSoon } from '../live-query';
import { queryRoots } from '../query-keys';

/** Every category, each top-level one followed by its subcategories, with its count of open lots. */
export const categoriesQuery = () => queryOptions({
  queryKey: queryRoots.categories,
  queryFn: async ({ signal }): Promise<Category[]> => (await api.get<CategoryList>('/categories', { as: 'none', signal })).categories,
  // Lot counts move slowly; an admin's own change re-reads at once (categoriesChanged).
  staleTime: 60_000,
});

/** After a category was created, changed or deleted. */
export function categoriesChanged(): void {
  invalidateSoon(queryRoots.categories);
}
