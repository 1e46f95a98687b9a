/**
 * Product photos (docs/photos.md): upload, delete and order under /api (the product's
 * admin), and the renditions themselves at GET /media/{name}.webp (public, outside /api: the names
 * are unguessable content hashes, cached for good).
 */
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  IdParams, ImageOrderBody, ImageParams, ImageUploaded, LIMITS, MediaParams, MessageBody, ProductImages, errorResponses,
} from '@auction/shared';
import type { App, AppContext } from '../../context.js';
import { addProductImage, deleteProductImage, orderProductImages, tooManyImages } from '../../domain/photos.js';
import { AppError, unwrap } from '../../errors.js';
import { MediaQueue, type MediaTicket } from '../../media/queue.js';
import { ImageTooLarge, NotAnImage, renditionsOf } from '../../media/renditions.js';
import { presentImageDetail } from '../../presenters/photos.js';
import { callerOf } from '../input.js';

export const NOT_AN_IMAGE = 'Not an image: JPEG, PNG or WebP only';
const MEDIA_NAME = /^([0-9a-f]{64})\.webp$/;

/** The bytes of the one file in the multipart field `image`; 413 past `maxBytes`, 400 for anything else amiss. */
async function imageField(req: FastifyRequest, maxBytes: number, maxMb: number): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the photo as multipart/form-data in the field image');
  let image: Buffer | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname === 'image') image = bytes;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', `The photo must not exceed ${maxMb} MB`);
    if (err instanceof AppError) throw err;
    // Malformed multipart, more than one file, too many fields: none of it is a photo upload.
    throw new AppError('VALIDATION', 'Send one photo as multipart/form-data in the field image', 'image');
  }
  if (!image) throw new AppError('VALIDATION', 'image is required: send the photo in the multipart field image', 'image');
  return image;
}

/** A place in the media queue for an upload, or 503 UNAVAILABLE with Retry-After (nothing of it read). */
function admitted(queue: MediaQueue, reply: FastifyReply): MediaTicket {
  const ticket = queue.admit();
  if (ticket) return ticket;
  const wait = queue.retryAfterS();
  void reply.header('retry-after', String(wait));
  throw new AppError('UNAVAILABLE', `Too many photos are being processed right now: try again in ${wait} second${wait === 1 ? '' : 's'}`);
}

/** The cheap refusals before an upload is read and decoded (the command checks them again, locked). */
async function checkEditable(ctx: AppContext, adminId: number, productId: string): Promise<void> {
  const product = await ctx.reads.product(productId, ctx.now());
  if (!product) throw new AppError('NOT_FOUND', 'Product not found');
  if (product.createdBy !== adminId) throw new AppError('FORBIDDEN', 'Only the admin who created this product may change its photos');
  if (product.status === 'sold') throw new AppError('PRODUCT_SOLD', 'This product has been sold: its photos can no longer change');
  if (product.images.length >= LIMITS.imagesPerProduct) unwrap(tooManyImages());
}

/** The renditions of an upload (on a libuv thread, outside any transaction); 400 VALIDATION on `image` when it is not a picture it may decode. */
async function renditionsOfUpload(bytes: Buffer): Promise<Awaited<ReturnType<typeof renditionsOf>>> {
  try {
    return await renditionsOf(bytes);
  } catch (err) {
    if (err instanceof NotAnImage) throw new AppError('VALIDATION', NOT_AN_IMAGE, 'image');
    if (err instanceof ImageTooLarge) throw new AppError('VALIDATION', err.message, 'image');
    throw err;
  }
}

export function imageRoutes(api: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['photos'];
  const security = [{ bearer: [] }];
  const maxMb = ctx.config.mediaMaxMb;
  const maxBytes = Math.floor(maxMb * 1024 * 1024);
  // One per process (per app): renditions a few at a time, uploads admitted before their bodies are read.
  const queue = new MediaQueue(ctx.config.mediaConcurrency, ctx.config.mediaQueue);

  // Multipart is parsed only here: every other route still answers 415 to anything but JSON.
  void api.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 } });
    const scope = scoped.withTypeProvider<TypeBoxTypeProvider>();

    scope.post('/admin/products/:id/images', {
      onRequest: guard.admin,
      schema: {
        tags, security,
        summary: 'Add a photo to a product (its admin; not once sold): multipart/form-data with one file in the field `image`',
        description: `JPEG, PNG or WebP (recognised by its bytes), at most MEDIA_MAX_MB (${maxMb} MB here), at most ${LIMITS.imagesPerProduct} per product. `
          + 'Stored as a WebP of at most 1,600 px and a 400 px thumbnail, metadata stripped.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: { 201: ImageUploaded, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 503) },
      },
    }, async (req, reply) => {
      const adminId = callerOf(req).id;
      const productId = req.params.id;
      // The product's own refusals first (a 404 is a 404 however busy the queue), then a place in the
      // media queue: an upload the queue refuses costs one product read and none of its body.
      await checkEditable(ctx, adminId, productId);
      const ticket = admitted(queue, reply);
      try {
        const bytes = await imageField(req, maxBytes, maxMb);
        const renditions = await ticket.run(() => renditionsOfUpload(bytes));
        const { image } = unwrap(await commands.run((tx) => addProductImage(tx, { adminId, productId, ...renditions }, ctx.now())));
        return reply.code(201).send({ image: presentImageDetail(image) });
      } finally {
        ticket.release();
      }
    });

    scope.delete('/admin/products/:id/images/:imageId', {
      onRequest: guard.admin,
      schema: { tags, security, summary: 'Delete a photo of a product (its admin; not once sold)', params: ImageParams, response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404, 409) } },
    }, async (req) => {
      const cmd = { adminId: callerOf(req).id, productId: req.params.id, imageId: Number(req.params.imageId) };
      unwrap(await commands.run((tx) => deleteProductImage(tx, cmd)));
      return { message: 'Photo deleted' };
    });

    scope.put('/admin/products/:id/images/order', {
      onRequest: guard.admin,
      schema: {
        tags, security, summary: 'Order a product’s photos (its admin; not once sold): `ids` lists every one of them once, the cover first',
        params: IdParams, body: ImageOrderBody, response: { 200: ProductImages, ...errorResponses(400, 401, 403, 404, 409) },
      },
    }, async (req) => {
      const cmd = { adminId: callerOf(req).id, productId: req.params.id, ids: req.body.ids };
      unwrap(await commands.run((tx) => orderProductImages(tx, cmd)));
      return { images: (await reads.productImages(cmd.productId)).map(presentImageDetail) };
    });
  });
}

/** `GET /media/{name}.webp`, registered at the root (not under /api). */
export function mediaRoutes(app: App, ctx: AppContext) {
  app.get('/media/:file', {
    schema: {
      tags: ['photos'],
      summary: 'A photo rendition (public): WebP, cached for a year (the name is the hash of its content)',
      params: MediaParams,
      response: { ...errorResponses(400, 404) },
    },
  }, async (req, reply) => {
    const name = MEDIA_NAME.exec(req.params.file)?.[1];
    const media = name ? await ctx.reads.media(name) : null;
    if (!name || !media) throw new AppError('NOT_FOUND', 'No such photo');
    const etag = `"${name}"`;
    void reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', etag);
    // A client hosted on another origin (CORS_ORIGIN) shows these in <img>: let it.
    if (ctx.config.corsOrigin) void reply.header('cross-origin-resource-policy', 'cross-origin');
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    return reply.type(media.contentType).send(media.bytes);
  });
}
