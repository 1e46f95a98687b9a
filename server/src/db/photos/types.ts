/** Photos (docs/photos.md): a product's images and the stored renditions: the types. */
import type { ProductImageRow } from '../rows.js';

/** A stored rendition (`GET /media/{name}.webp`). */
export interface MediaView {
  contentType: string;
  bytes: Buffer;
}

/** What a unit of work reads and writes of photos (docs/photos.md); part of UnitOfWork (store.ts). */
export interface PhotosWork {
  /** A product's photos in order (the cover first), with their sizes. */
  productImages(productId: string): Promise<ProductImageRow[]>;
  /** Stores a rendition under its name (its content's hash); the same bytes again change nothing. */
  insertMedia(row: { name: string; contentType: string; bytes: Buffer; width: number; height: number; now: number }): Promise<void>;
  /** Adds a photo after the product's last one. */
  insertProductImage(row: { productId: string; imageName: string; thumbName: string; width: number; height: number; now: number }): Promise<ProductImageRow>;
  /** Whether a photo of this product was there to delete. */
  deleteProductImage(productId: string, imageId: number): Promise<boolean>;
  /** Positions 0, 1, … in the order of `ids` (the product's photo ids). */
  setImagePositions(productId: string, ids: readonly number[]): Promise<void>;
}
