/**
 * Photo renditions (docs/photos.md): an upload is recognised by its first bytes (JPEG, PNG or WebP,
 * whatever its name or declared type), its header is read and checked against what decoding it may
 * cost, then it is decoded once, turned upright by its EXIF orientation and re-encoded as WebP: at
 * most 1,600 px on the longest side, and a 400 px thumbnail made from that, never enlarged.
 * Re-encoding drops every piece of metadata (EXIF, GPS, XMP, ICC comments): sharp keeps none unless asked.
 * Each rendition is named by the SHA-256 of its bytes, so the same picture is stored once.
 */
import { createHash } from 'node:crypto';
import type { Metadata, default as sharpModule } from 'sharp';
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

/** A picture that would cost too much to decode; the message says why, for the person who sent it. */
export class ImageTooLarge extends Error {}

/**
 * What an upload may cost to decode, checked on its header before any pixel is decoded
 * (docs/photos.md#what-decoding-may-cost): a small file may claim a huge canvas. A 24-megapixel camera
 * JPEG (6,000 × 4,000, 3 channels of 8 bits: 69 MiB decoded) and a 6,000 × 4,000 PNG (up to 4 channels
 * of 16 bits: 183 MiB) pass; a 49,000,000 × 1 PNG of 16-bit RGBA (365 MiB, and rows libvips cannot
 * stream) does not.
 */
export const DECODE_LIMITS = {
  /** Longest side: no camera comes near it; a thin strip is all a wider picture can be within the pixel limit. */
  maxSide: 16_384,
  /** Pixels: 50 megapixels (sharp's `limitInputPixels` checks it again while decoding). */
  maxPixels: 50_000_000,
  /** width × height × channels × bytes per sample: the decoded picture, were it held whole. */
  maxDecodedBytes: 200 * 1024 * 1024,
} as const;

type SharpFn = typeof sharpModule;

let loading: Promise<SharpFn> | undefined;

/**
 * sharp, loaded at the first upload: libvips maps ~35 MB into the process, which a server that never
 * processes a photo (most of them, most of the time) need not carry. Its operation cache is off: every
 * upload is decoded once, so a cache would only hold up to 50 MB of pixels no one asks for again. Each
 * picture is worked on by one libvips thread (sharp's default on glibc, set here for every platform),
 * so a rendition takes one core and the event loop keeps the other (the media queue runs
 * MEDIA_CONCURRENCY of them at once: media/queue.ts).
 */
function loadSharp(): Promise<SharpFn> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

/** Bytes per sample of libvips' band formats (sharp's `depth`). */
const SAMPLE_BYTES: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, complex: 8, double: 8, dpcomplex: 16 };

const thousands = (n: number) => n.toLocaleString('en-US');
const mib = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/** Why a picture with this header may not be decoded, in words for the person who sent it; null when it may. */
export function decodeRefusal(meta: Pick<Metadata, 'width' | 'height' | 'channels' | 'depth'>): string | null {
  const { width, height, channels } = meta;
  if (!width || !height || !channels) return 'The picture has no size in its header';
  const size = `this one is ${thousands(width)} × ${thousands(height)} px`;
  if (Math.max(width, height) > DECODE_LIMITS.maxSide) {
    return `The picture is too large in pixels: at most ${thousands(DECODE_LIMITS.maxSide)} px on a side (${size})`;
  }
  if (width * height > DECODE_LIMITS.maxPixels) {
    return `The picture is too large in pixels: at most ${DECODE_LIMITS.maxPixels / 1_000_000} megapixels (${size})`;
  }
  // An unknown sample format is counted as the widest one.
  const decoded = width * height * channels * (SAMPLE_BYTES[meta.depth ?? ''] ?? 16);
  if (decoded > DECODE_LIMITS.maxDecodedBytes) {
    return `The picture is too large to process: decoded it takes ${thousands(mib(decoded))} MB, at most ${mib(DECODE_LIMITS.maxDecodedBytes)} MB `
      + `(${size}); save it with 8 bits per channel or fewer pixels`;
  }
  return null;
}

async function rendition(sharp: SharpFn, input: Buffer, px: number, quality: number, fromUpload: boolean): Promise<Rendition> {
  let pipeline = sharp(input, { limitInputPixels: DECODE_LIMITS.maxPixels, failOn: 'error' });
  // The upload is turned upright; the thumbnail's input (the full rendition) already is, and has no EXIF.
  if (fromUpload) pipeline = pipeline.rotate();
  const { data, info } = await pipeline
    .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer({ resolveWithObject: true });
  return { name: createHash('sha256').update(data).digest('hex'), contentType: 'image/webp', bytes: data, width: info.width, height: info.height };
}

/**
 * The full rendition and the thumbnail of an upload: NotAnImage when it is not a JPEG, PNG or WebP
 * that decodes, ImageTooLarge when its header asks for more than DECODE_LIMITS. The upload is decoded
 * once; the thumbnail is made from the full rendition (at most 1,600 px), not from the upload again.
 */
export async function renditionsOf(bytes: Buffer): Promise<{ image: Rendition; thumb: Rendition }> {
  const format = sniffImage(bytes);
  if (!format) throw new NotAnImage();
  const sharp = await loadSharp();
  try {
    // The header only: no pixel is decoded, whatever the picture claims to be.
    const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (meta.format !== format) throw new NotAnImage();
    const refusal = decodeRefusal(meta);
    if (refusal) throw new ImageTooLarge(refusal);
    const image = await rendition(sharp, bytes, LIMITS.imageMaxPx, 82, true);
    const thumb = await rendition(sharp, image.bytes, LIMITS.thumbPx, 75, false);
    return { image, thumb };
  } catch (err) {
    if (err instanceof NotAnImage || err instanceof ImageTooLarge) throw err;
    // sharp's own errors: truncated or corrupt data, an unsupported variant, too many pixels.
    throw new NotAnImage(err instanceof Error ? err.message : String(err));
  }
}
