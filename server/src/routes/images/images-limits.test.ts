/**
 * What a photo upload may cost (docs/photos.md#what-decoding-may-cost), through the HTTP interface:
 * a picture's header is checked before any pixel is decoded, so a small file claiming a huge canvas is
 * a 400 and not gigabytes of memory.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { createProducts, expectError, makeApp, signUpAdmin } from '../../test/helpers.js';
import { addPhoto, blankPng, uploadPhoto } from '../../test/photo-helpers.js';

let app: App;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  app = await makeApp();
  admin = await signUpAdmin(app);
});
afterAll(async () => { await app.close(); });

const product = async () => (await createProducts(app, admin.token, 1))[0]!;
const MB = 1024 * 1024;

/**
 * `work`, with this process's resident memory sampled every 10 ms: its result and the peak growth in
 * MB. Past 2 GB of growth the process is killed on the spot (the test fails, the machine is spared):
 * without the header check, the 49,000,000 × 1 PNG below took a server from 169 MB to 11.8 GB.
 */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (peak - before > 2048 * MB) {
      process.stderr.write(`images-limits: resident memory grew by ${Math.round((peak - before) / MB)} MB while decoding one upload; killing this test process\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  }, 10);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMb: Math.round((peak - before) / MB) };
  } finally {
    clearInterval(sample);
  }
}

describe('what decoding an upload may cost', () => {
  it('a 49,000,000 × 1 PNG of 16-bit RGBA (392 MB of pixels in a 1.7 MB file) is 400 VALIDATION on image, and memory hardly moves', async () => {
    const png = await blankPng(49_000_000, 1, 16, 'rgba');
    expect(png.length).toBeLessThan(2 * MB);
    expect(await sharp(png).metadata()).toMatchObject({ width: 49_000_000, height: 1, channels: 4, depth: 'ushort' });
    const p = await product();
    const { result: res, growthMb } = await withPeakRss(() => uploadPhoto(app, admin.token, p, png, 'strip.png', 'image/png'));
    const body = expectError(res, 400, 'VALIDATION');
    expect(body.field).toBe('image');
    expect(body.error).toBe('The picture is too large in pixels: at most 16,384 px on a side (this one is 49,000,000 × 1 px)');
    expect(growthMb).toBeLessThan(300);
  });

  it('past 50 megapixels, or past 200 MB decoded, is refused the same way, saying which', async () => {
    const p = await product();
    const huge = expectError(await uploadPhoto(app, admin.token, p, await blankPng(10_000, 10_000, 8, 'grey'), 'huge.png', 'image/png'), 400, 'VALIDATION');
    expect(huge).toMatchObject({ field: 'image', error: 'The picture is too large in pixels: at most 50 megapixels (this one is 10,000 × 10,000 px)' });
    // 48 megapixels of 16-bit RGBA: 367 MB once decoded.
    const deep = expectError(await uploadPhoto(app, admin.token, p, await blankPng(8_000, 6_000, 16, 'rgba'), 'deep.png', 'image/png'), 400, 'VALIDATION');
    expect(deep.field).toBe('image');
    expect(deep.error).toBe('The picture is too large to process: decoded it takes 367 MB, at most 200 MB (this one is 8,000 × 6,000 px); save it with 8 bits per channel or fewer pixels');
    expectError(await uploadPhoto(app, admin.token, p, await blankPng(20_000, 1, 16, 'rgba'), 'wide.png', 'image/png'), 400, 'VALIDATION');
  });

  it('extreme shapes within the limits (16,384 × 1 and 1 × 16,384 of 16-bit RGBA) become 1,600 px strips, with memory bounded', async () => {
    const p = await product();
    for (const [w, h, full, thumb] of [[16_384, 1, [1600, 1], [400, 1]], [1, 16_384, [1, 1600], [1, 400]]] as const) {
      const png = await blankPng(w, h, 16, 'rgba');
      const { result: image, growthMb } = await withPeakRss(() => addPhoto(app, admin.token, p, png));
      expect(image).toMatchObject({ width: full[0], height: full[1] });
      const t = await app.inject({ method: 'GET', url: image.thumb_url });
      expect(await sharp(t.rawPayload).metadata()).toMatchObject({ width: thumb[0], height: thumb[1] });
      expect(growthMb).toBeLessThan(300);
    }
  });

  it('a 24-megapixel camera JPEG and a 6,000 × 4,000 PNG of 16-bit RGBA still pass', async () => {
    const p = await product();
    const jpeg = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: { r: 90, g: 120, b: 60 } } })
      .jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
    expect(await addPhoto(app, admin.token, p, jpeg)).toMatchObject({ width: 1067, height: 1600 });
    // 183 MB once decoded: the largest a 6,000 × 4,000 PNG can be.
    const png = await blankPng(6000, 4000, 16, 'rgba');
    const { result: image, growthMb } = await withPeakRss(() => addPhoto(app, admin.token, p, png));
    expect(image).toMatchObject({ width: 1600, height: 1067 });
    expect(growthMb).toBeLessThan(300);
  });
});
