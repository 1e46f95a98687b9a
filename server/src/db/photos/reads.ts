/**
 * Photos (docs/photos.md): a product's images and the stored renditions.
 * Its reads, one slice of Reads (reads.ts).
 */
import type { ProductImageRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import type { MediaView } from './types.js';

export class PhotosReads extends SqlSlice {
  /** A product's photos in order (the cover first), with their sizes. */
  async productImages(productId: string): Promise<ProductImageRow[]> {
    return this.sql.all<ProductImageRow>(
      `select i.id, i.product_id as "productId", i.position, i.image_name as "imageName", i.thumb_name as "thumbName", i.width, i.height
       from product_images i where i.product_id = ? order by i.position, i.id`,
      [productId],
    );
  }

  async media(name: string): Promise<MediaView | null> {
    const row = await this.sql.get<{ contentType: string; bytes: Buffer | Uint8Array }>('select content_type as "contentType", bytes from media where name = ?', [name]);
    return row ? { contentType: row.contentType, bytes: Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes) } : null;
  }
}
