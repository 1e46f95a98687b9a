/**
 * Photo renditions (docs/photos.md): an upload is recognised by its first bytes (JPEG, PNG or WebP,
 * whatever its name or declared type), decoded, turned upright by its EXIF orientation and
 * re-encoded as WebP: at most 1,600 px on the longest side and a 400 px thumbnail, never enlarged.
 * Re-encoding drops every piece of metadata (EXIF, GPS, XMP, ICC comments): sharp keeps none unless asked.
 * Each rendition is named by the SHA-256 of its bytes, so the same picture is stored once.
 */
import { createHash } from 'node:crypto';
import type { Sharp, SharpOptions } from 'sharp';
import { LIMITS } from '@auction/shared';
import type { Rendition } from '../domain/photos.js';

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** The format the bytes say they are, or null. */
export function sniffImage(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export class NotAnImage extends Error {}

type SharpFn = (input: Buffer, options: SharpOptions) => Sharp;

let loading: Promise<SharpFn> | undefined;

/**
 * sharp, loaded at the first upload: libvips maps ~35 MB into the process, which a server that never
 * processes a photo (most of them, most of the time) need not carry. Its operation cache is off: every
 * upload is decoded once, so a cache would only hold up to 50 MB of pixels no one asks for again.
 */
function loadSharp(): Promise<SharpFn> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loading;
}

/** Decoded pixels beyond this are refused (a small file may claim a huge canvas): 50 megapixels. */
const MAX_INPUT_PIXELS = 50_000_000;

async function rendition(sharp: SharpFn, bytes: Buffer, px: number, quality: number): Promise<Rendition> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer({ resolveWithObject: true });
  return { name: createHash('sha256').update(data).digest('hex'), contentType: 'image/webp', bytes: data, width: info.width, height: info.height };
}

/** The full rendition and the thumbnail of an upload; NotAnImage when it is not a JPEG, PNG or WebP that decodes. */
export async function renditionsOf(bytes: Buffer): Promise<{ image: Rendition; thumb: Rendition }> {
  const format = sniffImage(bytes);
  if (!format) throw new NotAnImage();
  const sharp = await loadSharp();
  try {
    const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (meta.format !== format) throw new NotAnImage();
    const [image, thumb] = await Promise.all([rendition(sharp, bytes, LIMITS.imageMaxPx, 82), rendition(sharp, bytes, LIMITS.thumbPx, 75)]);
    return { image, thumb };
  } catch (err) {
    if (err instanceof NotAnImage) throw err;
    // sharp's own errors: truncated or corrupt data, an unsupported variant, too many pixels.
    throw new NotAnImage(err instanceof Error ? err.message : String(err));
  }
}
