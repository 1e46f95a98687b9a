/** Product photos (docs/photos.md): upload, renditions, serving, limits, delete and order. */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@auction/shared';
import type { App } from '../../context.js';
import type { DomainEvent } from '../../domain/events.js';
import { freshTestDatabase, testStoreKind } from '../../db/testing.js';
import {
  call, createAuction, createProducts, expectError, makeApp, richBidder, signUpAdmin, sqlRow, tempDir, uniqueName,
} from '../../test/helpers.js';
import { addPhoto, multipart, picture, uploadPhoto, type UploadedPhoto } from '../../test/photo-helpers.js';

const WEBP_MAGIC = (b: Buffer) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP';

let app: App;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let other: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  app = await makeApp();
  admin = await signUpAdmin(app);
  other = await signUpAdmin(app);
});
afterAll(async () => { await app.close(); });

const fetchMedia = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
const product = async () => (await createProducts(app, admin.token, 1))[0]!;
const imagesOf = async (productId: string) =>
  (await call(app, 'GET', '/api/admin/products/unassigned', undefined, admin.token)).json<{ id: string; images: { id: number; url: string; thumb_url: string }[] }[]>()
    .find((p) => p.id === productId)!.images;

describe('uploading a photo', () => {
  it('a 2,400×1,200 JPEG with EXIF (orientation 6, GPS-like tags) becomes an upright WebP of at most 1,600 px and a 400 px thumbnail, without metadata', async () => {
    const jpeg = await sharp({ create: { width: 2400, height: 1200, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'Secret Owner', Artist: 'Someone', ImageDescription: 'home address' } })
      .toBuffer();
    const before = await sharp(jpeg).metadata();
    expect(before).toMatchObject({ format: 'jpeg', width: 2400, height: 1200, orientation: 6 });
    expect(before.exif).toBeDefined();

    const p = await product();
    const res = await uploadPhoto(app, admin.token, p, jpeg, 'holiday.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(201);
    const { image } = res.json<{ image: UploadedPhoto }>();
    // Orientation 6 turns it a quarter: 1,200×2,400 upright, then 800×1,600.
    expect(image).toMatchObject({ id: expect.any(Number), width: 800, height: 1600 });
    expect(image.url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    expect(image.thumb_url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);

    const full = await fetchMedia(image.url);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('image/webp');
    expect(full.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(full.headers.etag).toBe(`"${image.url.slice(7, 71)}"`);
    expect(full.headers['x-content-type-options']).toBe('nosniff');
    expect(WEBP_MAGIC(full.rawPayload)).toBe(true);
    const meta = await sharp(full.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 800, height: 1600 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(full.rawPayload.includes(Buffer.from('Secret Owner'))).toBe(false);

    const thumb = await fetchMedia(image.thumb_url);
    expect(thumb.statusCode).toBe(200);
    expect(WEBP_MAGIC(thumb.rawPayload)).toBe(true);
    const t = await sharp(thumb.rawPayload).metadata();
    expect(t).toMatchObject({ format: 'webp', width: 200, height: 400 });
    expect(t.exif).toBeUndefined();

    // The name is the hash of the bytes.
    const { createHash } = await import('node:crypto');
    expect(image.url).toBe(`/media/${createHash('sha256').update(full.rawPayload).digest('hex')}.webp`);
    // Revalidation with the ETag: 304, no body.
    const again = await fetchMedia(image.url, { 'if-none-match': full.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // HEAD answers the headers.
    const head = await app.inject({ method: 'HEAD', url: image.url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
  });

  it.each(['png', 'webp', 'jpeg'] as const)('a %s is accepted by its bytes, whatever its name and declared type; small ones are not enlarged', async (format) => {
    const p = await product();
    const res = await uploadPhoto(app, admin.token, p, await picture(format, 300, 200), 'picture.gif', 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(201);
    const { image } = res.json<{ image: UploadedPhoto }>();
    expect(image).toMatchObject({ width: 300, height: 200 });
    const thumb = await sharp((await fetchMedia(image.thumb_url)).rawPayload).metadata();
    expect(thumb).toMatchObject({ format: 'webp', width: 300, height: 200 });
  });

  it('a wide PNG: the longest side of the thumbnail is 400 px', async () => {
    const p = await product();
    const image = await addPhoto(app, admin.token, p, await picture('png', 2000, 500));
    expect(image).toMatchObject({ width: 1600, height: 400 });
    expect(await sharp((await fetchMedia(image.thumb_url)).rawPayload).metadata()).toMatchObject({ width: 400, height: 100 });
  });

  it('anything that is not a JPEG, PNG or WebP, or does not decode, is 400 VALIDATION and stores nothing', async () => {
    const p = await product();
    const media = async () => (await sqlRow<{ n: number }>(app, 'select count(*) as n from media'))!.n;
    const before = await media();
    const jpeg = await picture('jpeg', 200, 200);
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    for (const [bytes, name] of [
      [Buffer.from('this is plain text, not a picture\n'), 'notes.png'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'vector.png'],
      [gif, 'anim.gif'],
      [jpeg.subarray(0, 40), 'truncated.jpg'],
      [Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)]), 'garbage.png'],
      [Buffer.alloc(0), 'empty.png'],
    ] as const) {
      const body = expectError(await uploadPhoto(app, admin.token, p, bytes, name, 'image/png'), 400, 'VALIDATION');
      expect(body.error, name).toBe('Not an image: JPEG, PNG or WebP only');
      expect(body.field).toBe('image');
    }
    expect(await media()).toBe(before);
    expect(await imagesOf(p)).toEqual([]);
  });

  it('the request must be multipart with the file in the field image', async () => {
    const p = await product();
    const url = `/api/admin/products/${p}/images`;
    const auth = { authorization: `Bearer ${admin.token}` };
    expectError(await app.inject({ method: 'POST', url, headers: auth, payload: { image: 'x' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await app.inject({ method: 'POST', url, headers: auth }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const png = await picture('png');
    const wrongField = multipart([{ field: 'photo', bytes: png, filename: 'a.png', contentType: 'image/png' }]);
    expect(expectError(await app.inject({ method: 'POST', url, headers: { ...auth, ...wrongField.headers }, payload: wrongField.payload }), 400, 'VALIDATION').field).toBe('image');
    const two = multipart([{ field: 'image', bytes: png, filename: 'a.png' }, { field: 'image', bytes: png, filename: 'b.png' }]);
    expectError(await app.inject({ method: 'POST', url, headers: { ...auth, ...two.headers }, payload: two.payload }), 400, 'VALIDATION');
    const broken = await app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="image"; filename="a"\r\n\r\nabc' });
    expectError(broken, 400, 'VALIDATION');
    // Other routes still take JSON only.
    expectError(await app.inject({ method: 'POST', url: '/api/admin/product', headers: { ...auth, ...wrongField.headers }, payload: wrongField.payload }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await imagesOf(p)).toEqual([]);
  });

  it('a file over MEDIA_MAX_MB is 413 PAYLOAD_TOO_LARGE with a clear message', async () => {
    const small = await makeApp({ mediaMaxMb: 0.05 });
    try {
      const a = await signUpAdmin(small);
      const [p] = await createProducts(small, a.token, 1);
      // Noise does not compress: a PNG of ~190 KB.
      const noise = await sharp(randomBytes(250 * 250 * 3), { raw: { width: 250, height: 250, channels: 3 } }).png().toBuffer();
      expect(noise.length).toBeGreaterThan(0.05 * 1024 * 1024);
      const body = expectError(await uploadPhoto(small, a.token, p!, noise, 'big.png', 'image/png'), 413, 'PAYLOAD_TOO_LARGE');
      expect(body.error).toBe('The photo must not exceed 0.05 MB');
      expect(await sqlRow<{ n: number }>(small, 'select count(*) as n from product_images')).toEqual({ n: 0 });
      // Under the limit is fine.
      expect((await uploadPhoto(small, a.token, p!, await picture('png'), 'ok.png', 'image/png')).statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });

  it(`at most ${LIMITS.imagesPerProduct} per product: the 11th is 409 TOO_MANY_IMAGES; the same picture is stored once`, async () => {
    const p = await product();
    const png = await picture('png', 80, 60, { r: 1, g: 2, b: 3 });
    const first = await addPhoto(app, admin.token, p, png);
    const media = async () => (await sqlRow<{ n: number }>(app, 'select count(*) as n from media'))!.n;
    const stored = await media();
    for (let i = 1; i < LIMITS.imagesPerProduct; i++) {
      const again = await addPhoto(app, admin.token, p, png);
      expect(again.url).toBe(first.url);
    }
    expect(await media()).toBe(stored);
    const eleventh = expectError(await uploadPhoto(app, admin.token, p, png, 'p.png', 'image/png'), 409, 'TOO_MANY_IMAGES');
    expect(eleventh.error).toMatch(/at most 10 photos/);
    expect(await imagesOf(p)).toHaveLength(10);
    // Deleting one makes room.
    expect((await call(app, 'DELETE', `/api/admin/products/${p}/images/${first.id}`, undefined, admin.token)).statusCode).toBe(200);
    await addPhoto(app, admin.token, p, png);
  });

  it('two uploads at once to a product with 9 photos: exactly one gets in', async () => {
    const p = await product();
    const png = await picture('png', 20, 20);
    for (let i = 0; i < 9; i++) await addPhoto(app, admin.token, p, png);
    const results = await Promise.all([1, 2, 3].map(() => uploadPhoto(app, admin.token, p, png, 'p.png', 'image/png')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expect(await imagesOf(p)).toHaveLength(10);
  });

  it('only the product’s admin (403 for another, 404 for an unknown product, 401 without a token, 403 for a bidder)', async () => {
    const p = await product();
    const png = await picture('png');
    expectError(await uploadPhoto(app, other.token, p, png), 403, 'FORBIDDEN');
    expectError(await uploadPhoto(app, admin.token, 'no-such-product', png), 404, 'NOT_FOUND');
    expectError(await uploadPhoto(app, undefined, p, png), 401, 'UNAUTHENTICATED');
    const bidder = await richBidder(app, 10);
    expectError(await uploadPhoto(app, bidder.token, p, png), 403, 'FORBIDDEN');
    expect(await imagesOf(p)).toEqual([]);
  });

  it('a sold product’s photos cannot change: upload, delete and order are 409 PRODUCT_SOLD', async () => {
    const id = uniqueName('SOLD');
    expect((await call(app, 'POST', '/api/admin/product', { id, name: 'Sold lamp', description: 'Brass', buy_now_price: 100 }, admin.token)).statusCode).toBe(201);
    const photo = await addPhoto(app, admin.token, id);
    const auctionId = uniqueName('A');
    expect((await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Sale', valid_until: new Date(Date.now() + 3_600_000).toISOString(), product_ids: [id] }, admin.token)).statusCode).toBe(201);
    const buyer = await richBidder(app, 1000, [auctionId]);
    expect((await call(app, 'POST', '/api/buy-now', { product_id: id }, buyer.token)).statusCode).toBe(201);
    expectError(await uploadPhoto(app, admin.token, id, await picture('png')), 409, 'PRODUCT_SOLD');
    expectError(await call(app, 'DELETE', `/api/admin/products/${id}/images/${photo.id}`, undefined, admin.token), 409, 'PRODUCT_SOLD');
    expectError(await call(app, 'PUT', `/api/admin/products/${id}/images/order`, { ids: [photo.id] }, admin.token), 409, 'PRODUCT_SOLD');
    // Its photo is still shown.
    const lot = (await call(app, 'GET', `/api/products/${id}`, undefined, buyer.token)).json<{ images: { id: number }[] }>();
    expect(lot.images.map((i) => i.id)).toEqual([photo.id]);
  });
});

describe('ordering and deleting', () => {
  it('PUT …/images/order sets the order (the first is the cover) and answers the photos in it; DELETE removes one', async () => {
    const p = await product();
    const [a, b, c] = [
      await addPhoto(app, admin.token, p, await picture('png', 30, 30, { r: 255, g: 0, b: 0 })),
      await addPhoto(app, admin.token, p, await picture('png', 30, 30, { r: 0, g: 255, b: 0 })),
      await addPhoto(app, admin.token, p, await picture('png', 30, 30, { r: 0, g: 0, b: 255 })),
    ];
    expect((await imagesOf(p)).map((i) => i.id)).toEqual([a.id, b.id, c.id]);
    const ordered = await call(app, 'PUT', `/api/admin/products/${p}/images/order`, { ids: [c.id, a.id, b.id] }, admin.token);
    expect(ordered.statusCode, ordered.body).toBe(200);
    expect(ordered.json()).toEqual({ images: [c, a, b] });
    expect(await imagesOf(p)).toEqual([c, a, b].map(({ id, url, thumb_url }) => ({ id, url, thumb_url })));

    const deleted = await call(app, 'DELETE', `/api/admin/products/${p}/images/${a.id}`, undefined, admin.token);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Photo deleted' });
    expect((await imagesOf(p)).map((i) => i.id)).toEqual([c.id, b.id]);
    // A new one goes last.
    const d = await addPhoto(app, admin.token, p);
    expect((await imagesOf(p)).map((i) => i.id)).toEqual([c.id, b.id, d.id]);
    // The deleted photo's renditions went with it: no other photo named them.
    expect((await fetchMedia(a.url)).statusCode).toBe(404);
    expect((await fetchMedia(a.thumb_url)).statusCode).toBe(404);

    expectError(await call(app, 'DELETE', `/api/admin/products/${p}/images/${a.id}`, undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', `/api/admin/products/${p}/images/${b.id}`, undefined, other.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'DELETE', `/api/admin/products/${p}/images/abc`, undefined, admin.token), 400, 'VALIDATION');
    // Another product's photo is not this product's.
    const q = await product();
    const e = await addPhoto(app, admin.token, q);
    expectError(await call(app, 'DELETE', `/api/admin/products/${p}/images/${e.id}`, undefined, admin.token), 404, 'NOT_FOUND');
    // The same bytes on two products share their renditions: deleting one photo keeps them for the other.
    const bytes = await picture('png', 37, 23, { r: 12, g: 34, b: 56 });
    const [one, two] = [await addPhoto(app, admin.token, p, bytes), await addPhoto(app, admin.token, q, bytes)];
    expect(two.url).toBe(one.url);
    expect((await call(app, 'DELETE', `/api/admin/products/${p}/images/${one.id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await fetchMedia(two.url)).statusCode).toBe(200);
    expect((await fetchMedia(two.thumb_url)).statusCode).toBe(200);
    expect((await call(app, 'DELETE', `/api/admin/products/${q}/images/${two.id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await fetchMedia(two.url)).statusCode).toBe(404);
    expect((await fetchMedia(two.thumb_url)).statusCode).toBe(404);
    // Uploaded again afterwards, the bytes are stored again.
    const again = await addPhoto(app, admin.token, q, bytes);
    expect(again.url).toBe(two.url);
    expect((await fetchMedia(again.url)).statusCode).toBe(200);
  });

  it('the order must list exactly the product’s photos, each once', async () => {
    const p = await product();
    const a = await addPhoto(app, admin.token, p);
    const b = await addPhoto(app, admin.token, p);
    const q = await product();
    const e = await addPhoto(app, admin.token, q);
    for (const ids of [[a.id], [a.id, a.id], [a.id, b.id, e.id], [b.id, e.id], []]) {
      const body = expectError(await call(app, 'PUT', `/api/admin/products/${p}/images/order`, { ids }, admin.token), 400, 'VALIDATION');
      expect(body.field).toBe('ids');
    }
    expectError(await call(app, 'PUT', `/api/admin/products/${p}/images/order`, { ids: [b.id, a.id] }, other.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'PUT', '/api/admin/products/nope/images/order', { ids: [] }, admin.token), 404, 'NOT_FOUND');
    expect((await imagesOf(p)).map((i) => i.id)).toEqual([a.id, b.id]);
  });
});

describe('photo changes announce the product’s auction (its cover on Browse may change)', () => {
  it('upload, order and delete publish auction:updated for a lot in an auction, nothing for an unassigned product or a refusal', async () => {
    const seen: DomainEvent[] = [];
    const stop = app.ctx.events.subscribe((events) => { seen.push(...events); });
    try {
      const { auctionId, productIds: [lot] } = await createAuction(app, admin.token);
      const loose = await product();
      seen.length = 0;
      const updated = [{ type: 'auction:updated', auctionId, ownerId: admin.admin.id }];

      const a = await addPhoto(app, admin.token, lot!, await picture('png', 20, 20, { r: 1, g: 2, b: 3 }));
      expect(seen.splice(0)).toEqual(updated);
      const b = await addPhoto(app, admin.token, lot!, await picture('png', 20, 20, { r: 3, g: 2, b: 1 }));
      expect(seen.splice(0)).toEqual(updated);
      expect((await call(app, 'PUT', `/api/admin/products/${lot}/images/order`, { ids: [b.id, a.id] }, admin.token)).statusCode).toBe(200);
      expect(seen.splice(0)).toEqual(updated);
      expect((await call(app, 'DELETE', `/api/admin/products/${lot}/images/${b.id}`, undefined, admin.token)).statusCode).toBe(200);
      expect(seen.splice(0)).toEqual(updated);

      // Refused: nothing changed, nothing announced.
      expectError(await call(app, 'DELETE', `/api/admin/products/${lot}/images/${b.id}`, undefined, admin.token), 404, 'NOT_FOUND');
      expectError(await call(app, 'PUT', `/api/admin/products/${lot}/images/order`, { ids: [] }, admin.token), 400, 'VALIDATION');
      expect(seen).toEqual([]);

      // An unassigned product is in no auction's list.
      const c = await addPhoto(app, admin.token, loose);
      expect((await call(app, 'PUT', `/api/admin/products/${loose}/images/order`, { ids: [c.id] }, admin.token)).statusCode).toBe(200);
      expect((await call(app, 'DELETE', `/api/admin/products/${loose}/images/${c.id}`, undefined, admin.token)).statusCode).toBe(200);
      expect(seen).toEqual([]);
    } finally {
      stop();
    }
  });
});

describe('photos in every product shape', () => {
  it('GET /api/auctions/{id}/products, the admin lists and the lot page carry them, the cover first', async () => {
    const { auctionId, productIds: [p, bare] } = await createAuction(app, admin.token, { products: 2 });
    const a = await addPhoto(app, admin.token, p!, await picture('png', 40, 40, { r: 9, g: 9, b: 9 }));
    const b = await addPhoto(app, admin.token, p!, await picture('jpeg', 40, 40));
    expect((await call(app, 'PUT', `/api/admin/products/${p}/images/order`, { ids: [b.id, a.id] }, admin.token)).statusCode).toBe(200);
    const bidder = await richBidder(app, 100, [auctionId]);
    const shown = [b, a].map(({ id, url, thumb_url }) => ({ id, url, thumb_url }));
    const products = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, bidder.token)).json<{ id: string; images: unknown[] }[]>();
    expect(products.find((x) => x.id === p)!.images).toEqual(shown);
    expect(products.find((x) => x.id === bare)!.images).toEqual([]);
    const admins = (await call(app, 'GET', `/api/admin/auction/${auctionId}/products`, undefined, other.token)).json<{ id: string; images: unknown[] }[]>();
    expect(admins.find((x) => x.id === p)!.images).toEqual(shown);
    expect((await call(app, 'GET', `/api/products/${p}`, undefined, bidder.token)).json<{ images: unknown[] }>().images).toEqual(shown);
  });

  it('GET /api/admin/products/unassigned carries them', async () => {
    const p = await product();
    const a = await addPhoto(app, admin.token, p);
    expect(await imagesOf(p)).toEqual([{ id: a.id, url: a.url, thumb_url: a.thumb_url }]);
  });
});

describe('GET /media/{name}.webp', () => {
  it('is public, 404 for unknown or malformed names (JSON error), and not swallowed by the client’s page fallback', async () => {
    expectError(await fetchMedia(`/media/${'0'.repeat(64)}.webp`), 404, 'NOT_FOUND');
    expectError(await fetchMedia('/media/nope.webp'), 404, 'NOT_FOUND');
    expectError(await fetchMedia(`/media/${'a'.repeat(64)}.png`), 404, 'NOT_FOUND');
    expectError(await fetchMedia('/media/..%2F..%2Fetc%2Fpasswd'), 404, 'NOT_FOUND');
    const photo = await addPhoto(app, admin.token, await product());
    const res = await fetchMedia(photo.url, { authorization: 'Bearer not-a-token' });
    expect(res.statusCode).toBe(200);
    // Same-origin by default; a separately hosted client (CORS_ORIGIN) may show it.
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('with CORS_ORIGIN, renditions may be shown by the other origin', async () => {
    const cors = await makeApp({ corsOrigin: 'https://shop.example' });
    try {
      const a = await signUpAdmin(cors);
      const [p] = await createProducts(cors, a.token, 1);
      const photo = await addPhoto(cors, a.token, p!);
      const res = await cors.inject({ method: 'GET', url: photo.url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    } finally {
      await cors.close();
    }
  });
});

describe('photos are kept in the database', () => {
  it('survive a restart of the app on the same database (a SQLite file, or the same PostgreSQL schema)', async () => {
    const t = tempDir();
    const db = testStoreKind === 'sqlite' ? { url: path.join(t.dir, 'photos.db'), drop: async () => {} } : freshTestDatabase();
    try {
      const first = await makeApp({ databaseUrl: db.url });
      const a = await signUpAdmin(first);
      const [p] = await createProducts(first, a.token, 1);
      const photo = await addPhoto(first, a.token, p!, await picture('jpeg', 900, 300));
      const bytes = (await first.inject({ method: 'GET', url: photo.url })).rawPayload;
      await first.close();

      const second = await makeApp({ databaseUrl: db.url });
      try {
        const res = await second.inject({ method: 'GET', url: photo.url });
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(bytes)).toBe(true);
        expect((await second.inject({ method: 'GET', url: photo.thumb_url })).statusCode).toBe(200);
        const listed = (await call(second, 'GET', '/api/admin/products/unassigned', undefined, a.token)).json<{ id: string; images: { id: number }[] }[]>();
        expect(listed.find((x) => x.id === p)!.images.map((i) => i.id)).toEqual([photo.id]);
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
      t.cleanup();
    }
  });
});
