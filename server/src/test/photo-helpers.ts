/** Photos for tests (docs/photos.md): real images made with sharp, and multipart bodies by hand. */
import zlib from 'node:zlib';
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../context.js';

/** A solid picture of `width`×`height` in `format`. */
export function picture(format: 'jpeg' | 'png' | 'webp', width = 64, height = 48, colour = { r: 200, g: 40, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } }).toFormat(format).toBuffer();
}

const PNG_CHANNELS = { grey: [0, 1], rgb: [2, 3], rgba: [6, 4] } as const;

/**
 * A PNG written by hand: `width`×`height` of black, `bits` per sample. Its rows are zeros, which
 * deflate squeezes about a thousand to one, so it can claim a canvas sharp could never build for the
 * test (49,000,000 × 1 of 16-bit RGBA: 392 MB of pixels in a 1.7 MB file).
 */
export async function blankPng(width: number, height: number, bits: 8 | 16 = 8, colour: keyof typeof PNG_CHANNELS = 'rgb'): Promise<Buffer> {
  const [colourType, channels] = PNG_CHANNELS[colour];
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([head, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bits;
  header[9] = colourType;
  // Each row is its filter byte (0) and its samples, all zero: deflated a megabyte at a time.
  const deflate = zlib.createDeflate({ level: 1 });
  const compressed: Buffer[] = [];
  deflate.on('data', (c: Buffer) => compressed.push(c));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(1 << 20);
  for (let left = height * (1 + (width * channels * bits) / 8); left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(left, zeros.length)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', Buffer.concat(compressed)), chunk('IEND', Buffer.alloc(0)),
  ]);
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
