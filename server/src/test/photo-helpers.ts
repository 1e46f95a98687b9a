/** Photos for tests (docs/photos.md): real images made with sharp, and multipart bodies by hand. */
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../context.js';

/** A solid picture of `width`×`height` in `format`. */
export function picture(format: 'jpeg' | 'png' | 'webp', width = 64, height = 48, colour = { r: 200, g: 40, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).toFormat(format).toBuffer();
}

/** A multipart/form-data body with one file part (`field`, its filename and declared type) and any text fields. */
export function multipart(parts: { field: string; bytes: Buffer | string; filename?: string; contentType?: string }[]) {
  const boundary = `----auction-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.field}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(p.bytes) ? p.bytes : Buffer.from(p.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs `bytes` as the photo of a product. */
export function uploadPhoto(app: App, token: string | undefined, productId: string, bytes: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): Promise<LightMyRequestResponse> {
  const body = multipart([{ field: 'image', bytes, filename, contentType }]);
  return app.inject({
    method: 'POST', url: `/api/admin/products/${encodeURIComponent(productId)}/images`,
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: body.payload,
  });
}

export interface UploadedPhoto { id: number; url: string; thumb_url: string; width: number; height: number }

/** Uploads a photo that must be accepted; its `image`. */
export async function addPhoto(app: App, token: string, productId: string, bytes?: Buffer): Promise<UploadedPhoto> {
  const res = await uploadPhoto(app, token, productId, bytes ?? await picture('png'), 'photo.png', 'image/png');
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ image: UploadedPhoto }>().image;
}
