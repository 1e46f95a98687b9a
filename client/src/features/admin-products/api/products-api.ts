/** Manage Products calls, always with the admin token. */
import type { AdminAuction, CreateProductBody, ImageUploaded, MessageBody, Product, ProductImages, ProductSaved, UpdateProductBody } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { createResource, invalidate } from '../../../lib/resource';

const as = { as: 'admin' } as const;

export const fetchUnassigned = () => api.get<Product[]>('/admin/products/unassigned', as);
export const fetchMyAuctions = () => api.get<AdminAuction[]>('/admin/auctions/my', as);
export const fetchAuctionProducts = (auctionId: string) =>
  api.get<Product[]>(`/admin/auction/${encodeURIComponent(auctionId)}/products`, as);

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

/** GET /admin/products/unassigned, the admin's products in no auction. */
export const unassignedProducts = createResource<void, Product[]>('admin-products-unassigned', () => fetchUnassigned());
/** GET /admin/auctions/my, for the By Auction picker and its counts. */
export const productAuctions = createResource<void, AdminAuction[]>('admin-products-auctions', () => fetchMyAuctions());
/** GET /admin/auction/:id/products, by auction id ('' while there is none: no products, no request). */
export const auctionProducts = createResource<string, Product[]>('admin-products-by-auction', (auctionId) =>
  (auctionId ? fetchAuctionProducts(auctionId) : Promise.resolve([])));

/** After a product was created, edited or deleted, or its photos changed: the lists on screen are read again, the others when next shown. */
export function productsChanged(): void {
  for (const resource of [unassignedProducts, productAuctions, auctionProducts]) invalidate(resource.name);
}
