/**
 * Photos (docs/photos.md): a product's images and the stored renditions.
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { isStorableId, type ProductImageRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { marks } from '../sql.js';
import type { PhotosWork } from './types.js';

/** A product image's columns from `product_images i` (photos). */
const IMAGE_COLUMNS = 'i.id, i.product_id as "productId", i.position, i.image_name as "imageName", i.thumb_name as "thumbName", i.width, i.height';

export class PhotosSql extends SqlSlice implements PhotosWork {
  async productImages(productId: string): Promise<ProductImageRow[]> {
    return this.sql.all<ProductImageRow>(
      `select ${IMAGE_COLUMNS} from product_images i where i.product_id = ? order by i.position, i.id`,
      [productId],
    );
  }

  async insertMedia(row: { name: string; contentType: string; bytes: Buffer; width: number; height: number; now: number }): Promise<void> {
    // Named by the hash of its bytes: the same name is the same rendition, already stored. The no-op
    // update takes the row's lock, as a photo's delete does before it drops renditions no photo names:
    // a rendition is never dropped under an upload that is about to name it (deleteProductImage).
    await this.sql.run(
      'insert into media (name, content_type, bytes, width, height, created_at) values (?, ?, ?, ?, ?, ?) on conflict (name) do update set name = excluded.name',
      [row.name, row.contentType, row.bytes, row.width, row.height, row.now],
    );
  }

  async insertProductImage(row: { productId: string; imageName: string; thumbName: string; width: number; height: number; now: number }): Promise<ProductImageRow> {
    const image = await this.sql.get<ProductImageRow>(
      `insert into product_images (product_id, position, image_name, thumb_name, width, height, created_at)
       values (?, (select coalesce(max(position), -1) + 1 from product_images where product_id = ?), ?, ?, ?, ?, ?)
       returning ${IMAGE_COLUMNS.replaceAll('i.', 'product_images.')}`,
      [row.productId, row.productId, row.imageName, row.thumbName, row.width, row.height, row.now],
    );
    if (!image) throw new Error('store: insert of a product image returned no row');
    return image;
  }

  async deleteProductImage(productId: string, imageId: number): Promise<boolean> {
    if (!isStorableId(imageId)) return false;
    const gone = await this.sql.get<{ image: string; thumb: string }>(
      'delete from product_images where id = ? and product_id = ? returning image_name as image, thumb_name as thumb', [imageId, productId],
    );
    if (!gone) return false;
    // Its renditions go too unless another photo names them (the same bytes uploaded twice share
    // them). Locked first, as an upload of the same bytes locks them, so neither misses the other.
    const names = [...new Set([gone.image, gone.thumb])];
    await this.sql.all(`select name from media where name in (${marks(names.length)}) order by name${this.dialect.forUpdate}`, names);
    await this.sql.run(
      `delete from media where name in (${marks(names.length)})
       and not exists (select 1 from product_images i where i.image_name = media.name)
       and not exists (select 1 from product_images i where i.thumb_name = media.name)`,
      names,
    );
    return true;
  }

  async setImagePositions(productId: string, ids: readonly number[]): Promise<void> {
    for (const [position, id] of ids.entries()) {
      await this.sql.run('update product_images set position = ? where id = ? and product_id = ?', [position, id, productId]);
    }
  }
}
