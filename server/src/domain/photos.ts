/**
 * Product photos (docs/photos.md): the product's admin adds, deletes and orders them
 * until the product is sold. The renditions are made before the transaction (media/renditions.ts);
 * each command locks the product row, so two uploads to one product count its photos one at a time.
 * A change to a lot's photos may change its auction's cover on Browse (`GET /api/auctions`): each
 * command then announces its auction as updated, as a product edit does.
 */
import { LIMITS } from '@auction/shared';
import type { ProductImageRow, ProductRow, UnitOfWork } from '../db/index.js';
import { refuse, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';

/** One stored rendition: its name is the hash of its bytes. */
export interface Rendition {
  name: string;
  contentType: string;
  bytes: Buffer;
  width: number;
  height: number;
}

/** The product, locked, if the admin may change its photos: 404 unknown, 403 another admin's, 409 sold. */
async function editable(tx: UnitOfWork, adminId: number, productId: string): Promise<Result<{ product: ProductRow }>> {
  const locked = await tx.lockProduct(productId);
  if (!locked) return refuse('NOT_FOUND', 'Product not found');
  const { product } = locked;
  if (product.createdBy !== adminId) return refuse('FORBIDDEN', 'Only the admin who created this product may change its photos');
  if (product.status === 'sold') return refuse('PRODUCT_SOLD', 'This product has been sold: its photos can no longer change');
  return { ok: true, product };
}

/** The product's auction, if it is in one, changed: its cover may be another photo now. */
const coverEvents = (product: ProductRow, adminId: number): DomainEvent[] =>
  product.auctionId ? [{ type: 'auction:updated', auctionId: product.auctionId, ownerId: adminId }] : [];

export const tooManyImages = () => refuse('TOO_MANY_IMAGES', `A product may have at most ${LIMITS.imagesPerProduct} photos: delete one to add another`);

export async function addProductImage(
  tx: UnitOfWork,
  cmd: { adminId: number; productId: string; image: Rendition; thumb: Rendition },
  now: number,
): Promise<Result<{ image: ProductImageRow; events: DomainEvent[] }>> {
  const ok = await editable(tx, cmd.adminId, cmd.productId);
  if (!ok.ok) return ok;
  if ((await tx.productImages(cmd.productId)).length >= LIMITS.imagesPerProduct) return tooManyImages();
  // In name order, as a photo's delete locks them (unit-of-work.ts).
  for (const r of [cmd.image, cmd.thumb].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) await tx.insertMedia({ ...r, now });
  const image = await tx.insertProductImage({
    productId: cmd.productId, imageName: cmd.image.name, thumbName: cmd.thumb.name, width: cmd.image.width, height: cmd.image.height, now,
  });
  return { ok: true, image, events: coverEvents(ok.product, cmd.adminId) };
}

export async function deleteProductImage(tx: UnitOfWork, cmd: { adminId: number; productId: string; imageId: number }): Promise<Result<{ events: DomainEvent[] }>> {
  const ok = await editable(tx, cmd.adminId, cmd.productId);
  if (!ok.ok) return ok;
  if (!(await tx.deleteProductImage(cmd.productId, cmd.imageId))) return refuse('NOT_FOUND', 'Photo not found');
  return { ok: true, events: coverEvents(ok.product, cmd.adminId) };
}

/** `ids` must name each of the product's photos exactly once; the first becomes the cover. */
export async function orderProductImages(tx: UnitOfWork, cmd: { adminId: number; productId: string; ids: readonly number[] }): Promise<Result<{ events: DomainEvent[] }>> {
  const ok = await editable(tx, cmd.adminId, cmd.productId);
  if (!ok.ok) return ok;
  const current = new Set((await tx.productImages(cmd.productId)).map((i) => i.id));
  const exact = new Set(cmd.ids).size === cmd.ids.length && cmd.ids.length === current.size && cmd.ids.every((id) => current.has(id));
  if (!exact) return refuse('VALIDATION', `ids must list each of this product’s ${current.size} photos exactly once`, 'ids');
  await tx.setImagePositions(cmd.productId, cmd.ids);
  return { ok: true, events: coverEvents(ok.product, cmd.adminId) };
}
