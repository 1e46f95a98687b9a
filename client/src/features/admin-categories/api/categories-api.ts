/** The Categories page's calls, with the admin token; the tree itself is read in lib/admin-products.ts (the product form reads it too). */
import type { CategoryBody, CategorySaved, MessageBody } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

export { categoriesChanged, categoriesQuery } from '../../../lib/admin-products';

export const createCategory = (body: CategoryBody) => api.post<CategorySaved>('/admin/categories', body, as);
export const updateCategory = (id: number, body: CategoryBody) => api.put<CategorySaved>(`/admin/categories/${id}`, body, as);
export const deleteCategory = (id: number) => api.delete<MessageBody>(`/admin/categories/${id}`, as);
