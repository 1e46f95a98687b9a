/**
 * The imported file's text (docs/catalogue.md#bulk-import-and-export): a text/csv body, or the
 * multipart field `file`, decoded in the charset its Content-Type declares (none: UTF-8).
 */
import { PRODUCT_IMPORT_MAX_BYTES } from '@auction/shared';
import type { FastifyRequest } from 'fastify';
import { CsvCharsetError, CsvSyntaxError, charsetOf, decodeCsv } from '../../../csv.js';
import { AppError } from '../../../errors.js';

/** How far into a multipart body the file part's headers are looked for (its few small fields come first, if any). */
const PART_HEADERS_MAX = 256 * 1024;
const HEADERS_END = Buffer.from('\r\n\r\n');
const BOUNDARY_PARAM = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i;
const FILE_PART = /^content-disposition\s*:[^\r\n]*;\s*name\s*=\s*(?:"file"|file)\s*(?:;|\r?$)/im;
const PART_TYPE = /^content-type\s*:\s*([^\r\n]*)/im;

/**
 * The Content-Type header of the multipart part named `file`, read from the request's bytes beside
 * @fastify/multipart, whose parts keep only the media type and so lose the charset. Listening starts
 * before the parser reads (call it first) and stops once that part's headers are in, or past
 * PART_HEADERS_MAX bytes; the answer is undefined when no such header was seen.
 */
function watchFilePartType(req: FastifyRequest): () => string | undefined {
  const boundary = BOUNDARY_PARAM.exec(req.headers['content-type'] ?? '');
  if (!boundary) return () => undefined;
  // Every delimiter but the first follows a line break; the first may open the body: one is put before it.
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  let head = Buffer.from('\r\n');
  let type: string | undefined;
  let done = false;
  const look = () => {
    for (let at = head.indexOf(delimiter); at !== -1; at = head.indexOf(delimiter, at + delimiter.length)) {
      const start = at + delimiter.length;
      const end = head.indexOf(HEADERS_END, start);
      if (end === -1) return;
      const headers = head.subarray(start, end).toString('latin1');
      if (FILE_PART.test(headers)) {
        type = PART_TYPE.exec(headers)?.[1]?.trim();
        done = true;
        return;
      }
    }
  };
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    look();
    if (done || head.length > PART_HEADERS_MAX) req.raw.off('data', onData);
  };
  req.raw.on('data', onData);
  return () => {
    req.raw.off('data', onData);
    return type;
  };
}

/** The bytes read in `charset`; an unknown one is 415. */
function decode(bytes: Buffer, charset: string | null): string {
  try {
    return decodeCsv(bytes, charset);
  } catch (err) {
    if (err instanceof CsvCharsetError) throw new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    throw err;
  }
}

/** A text/csv body whose bytes are not text in its charset: the route refuses it by line. */
class UnreadableBody {
  constructor(readonly line: number, readonly message: string) {}
}

/**
 * The text/csv body parser (`parseAs: 'buffer'`): the bytes decoded in the charset the request's
 * Content-Type declares, so that the body is text, as every other route's is, by the time the app's
 * hooks look at it. An unknown charset is 415.
 */
export function parseCsvBody(req: FastifyRequest, body: Buffer | string, done: (err: Error | null, body?: unknown) => void): void {
  try {
    done(null, decode(Buffer.isBuffer(body) ? body : Buffer.from(body), charsetOf(req.headers['content-type'])));
  } catch (err) {
    if (err instanceof CsvSyntaxError) done(null, new UnreadableBody(err.line, err.message));
    else done(err as Error, undefined);
  }
}

/**
 * The file's text: the text/csv body (parseCsvBody's), or the multipart field `file`, each in the
 * charset its own Content-Type declares. Bytes that are not text in it are a CsvSyntaxError on their line.
 */
export async function importedText(req: FastifyRequest): Promise<string> {
  if (typeof req.body === 'string') return req.body;
  if (req.body instanceof UnreadableBody) throw new CsvSyntaxError(req.body.message, req.body.line);
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the products as a text/csv body or in the multipart field file');
  const partType = watchFilePartType(req);
  let file: Buffer | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: PRODUCT_IMPORT_MAX_BYTES } })) {
      if (part.type !== 'file') continue;
      const bytes = await part.toBuffer();
      if (part.fieldname === 'file') file = bytes;
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', 'The file must not exceed 5 MiB');
    throw new AppError('VALIDATION', 'Send one CSV file as multipart/form-data in the field file', 'file');
  } finally {
    partType();
  }
  if (!file) throw new AppError('VALIDATION', 'file is required: send the CSV in the multipart field file', 'file');
  return decode(file, charsetOf(partType()));
}
