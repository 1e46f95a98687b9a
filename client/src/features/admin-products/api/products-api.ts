/** Manage Products calls, always with the admin token. */
import type { CreateProductBody, ImageUploaded, MessageBody, ProductImages, ProductSaved, UpdateProductBody } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

// The lists this page shows are read in lib/admin-products.ts (the auction form reads them too).
export {
  auctionProductsQuery, categoriesQuery, exportProducts, importProblems, importProducts, PRODUCT_CSV_HEADER, productAuctionsQuery, productsChanged,
  unassignedProductsQuery, useProductPages, type ImportProblem, type ProductListFilters,
} from '../../../lib/admin-products';

export const createProduct = (body: CreateProductBody) => api.post<ProductSaved>('/admin/product', body, as);
export const updateProduct = (id: string, body: UpdateProductBody) =>
  api.put<ProductSaved>(`/admin/product/${encodeURIComponent(id)}`, body, as);
export const deleteProduct = (id: string) => api.delete<MessageBody>(`/admin/product/${encodeURIComponent(id)}`, as);

// A product's photos (docs/photos.md): each call changes them at once on the server.
const imagesPath = (productId: string) => `/admin/products/${encodeURIComponent(productId)}/images`;
/** POST …/images: one file, multipart, in the field `image`. */
export function uploadImage(productId: string, file: File, signal?: AbortSignal) {
  const form = new FormData();
  form.append('image', file);
  return api.postForm<ImageUploaded>(imagesPath(productId), form, signal ? { ...as, signal } : as);
}
export const deleteImage = (productId: string, imageId: number) => api.delete<MessageBody>(`${imagesPath(productId)}/${imageId}`, as);
/** PUT …/images/order: every one of the product's photo ids, the cover first; answers the photos in their new order. */
export const orderImages = (productId: string, ids: readonly number[]) => api.put<ProductImages>(`${imagesPath(productId)}/order`, { ids }, as);
