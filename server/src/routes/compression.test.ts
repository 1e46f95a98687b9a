/**
 * Compressed answers (docs/deploy.md#compression): every answer of 1 KiB or more, for a client that
 * accepts it, brotli first, else gzip; never a small answer, never a photo, never for a client that
 * did not ask. The body decompresses to exactly what an uncompressed request reads.
 */
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import { createAuction, makeApp, signUpAdmin } from '../test/helpers.js';
import { addPhoto } from '../test/photo-helpers.js';

let app: App;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let photoUrl: string;

beforeAll(async () => {
  app = await makeApp();
  admin = await signUpAdmin(app);
  // Enough auctions that the list is well over 1 KiB.
  const created = [];
  for (let i = 0; i < 8; i++) created.push(await createAuction(app, admin.token, { products: 2 }));
  photoUrl = (await addPhoto(app, admin.token, created[0]!.productIds[0]!)).url;
});
afterAll(async () => { await app.close(); });

const get = (url: string, acceptEncoding?: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin.token}`, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

describe('compression', () => {
  it('a large JSON answer is brotli for a client that accepts it, else gzip; the body is the same JSON', async () => {
    const plain = await get('/api/auctions');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get('/api/auctions', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await get('/api/auctions', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());

    // The OpenAPI document (the largest answer there is) too.
    expect((await get('/api/docs/json', 'br')).headers['content-encoding']).toBe('br');
  });

  it('leaves small answers, errors and photos as they are', async () => {
    const health = await get('/api/health', 'br, gzip');
    expect(health.statusCode).toBe(200);
    expect(health.rawPayload.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();

    const missing = await get('/api/products/no-such-lot', 'br, gzip');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });

    const photo = await get(photoUrl, 'br, gzip');
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.headers['content-encoding']).toBeUndefined();
  });
});
