/**
 * Products in bulk (docs/catalogue.md#bulk-import-and-export): a CSV file of products is created whole
 * or not at all, every row checked as one `POST /admin/product` is; the admin's own products leave
 * as the same CSV.
 */
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import {
  CreateProductBody, ERROR_STATUS, PRODUCT_IMPORT_MAX_BYTES, PRODUCT_CSV_COLUMNS, PRODUCT_IMPORT_MAX_ROWS, ProductImportProblems, ProductsImported,
  errorResponses, formatRupees, toRupees, type ProductImportProblems as Problems,
} from '@auction/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../context.js';
import { CsvSyntaxError, csvDocument, parseCsv, type CsvRecord } from '../csv.js';
import { createProducts, type ProductInput } from '../domain/catalogue.js';
import { AppError } from '../errors.js';
import { describeValidation } from '../plugins/errors.js';
import { pricingInput } from './catalogue.js';
import { callerOf } from './input.js';

/** A refused import names at most this many problems. */
const PROBLEMS_MAX = 100;

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];
type Problem = NonNullable<Problems['rows']>[number];
const PRICE_COLUMNS = new Set<Column>(['starting_price', 'reserve_price', 'buy_now_price']);
const NUMBER = /^-?\d+(\.\d+)?$/;
/** The file's words for a field of the create body. */
const columnOf = (field: string) => (field === 'category_id' ? 'category' : field);
/** Columns a file must have: the create body's required fields. */
const REQUIRED = (CreateProductBody.required ?? []).map(columnOf);

/** Thrown inside the import's transaction so that nothing of it is written. */
class Refused extends Error {
  constructor(readonly problems: Problem[]) {
    super('import refused');
  }
}

function refusal(reply: FastifyReply, problems: Problem[]) {
  const rows = [...problems].sort((a, b) => a.line - b.line).slice(0, PROBLEMS_MAX);
  const first = rows[0]!;
  const message = problems.length === 1 ? `Line ${first.line}: ${first.message}` : `${problems.length} problems in the file, the first on line ${first.line}: ${first.message}`;
  return reply.code(ERROR_STATUS.VALIDATION).send({ code: 'VALIDATION', error: message, message, field: first.field, rows });
}

/** The file's text: the text/csv body, or the multipart field `file`. */
async function fileText(req: FastifyRequest): Promise<string> {
  if (typeof req.body === 'string') return req.body;
  if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the products as a text/csv body or in the multipart field file');
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
  }
  if (!file) throw new AppError('VALIDATION', 'file is required: send the CSV in the multipart field file', 'file');
  return file.toString('utf8');
}

export function productImportRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const tags = ['admin catalogue'];
  const security = [{ bearer: [] }];

  void app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: PRODUCT_IMPORT_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 } });
    // JSON is no file: still read up to the usual 64 KiB only (413 past it), then refused.
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, _body, done) => {
      done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the products as a text/csv body or in the multipart field file'), undefined);
    });
    scoped.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: PRODUCT_IMPORT_MAX_BYTES }, (_req, body, done) => done(null, body));

    scoped.post('/admin/products/import', {
      onRequest: guard.admin,
      schema: {
        tags, security, consumes: ['text/csv', 'multipart/form-data'],
        summary: `Create products from a CSV file (text/csv, or the multipart field \`file\`; up to 5 MiB and ${PRODUCT_IMPORT_MAX_ROWS} rows): all of them, or none and every problem by line`,
        response: { 201: ProductsImported, 400: ProductImportProblems, ...errorResponses(401, 403, 413, 415) },
      },
    }, async (req, reply) => {
      const adminId = callerOf(req).id;
      let records: CsvRecord[];
      try {
        records = parseCsv(await fileText(req));
      } catch (err) {
        if (err instanceof CsvSyntaxError) return refusal(reply, [{ line: err.line, field: 'file', message: err.message }]);
        throw err;
      }
      const [header, ...rows] = records;
      if (!header) return refusal(reply, [{ line: 1, field: 'file', message: `The file is empty: its first line must name the columns (${PRODUCT_CSV_COLUMNS.join(', ')})` }]);
      const names = header.fields.map((f) => f.trim().toLowerCase());
      const known = new Set<string>(PRODUCT_CSV_COLUMNS);
      const headerProblems: Problem[] = [];
      names.forEach((n, i) => {
        if (!known.has(n)) headerProblems.push({ line: header.line, field: n, message: `Unknown column ${JSON.stringify(header.fields[i])}: the columns are ${PRODUCT_CSV_COLUMNS.join(', ')}` });
        else if (names.indexOf(n) !== i) headerProblems.push({ line: header.line, field: n, message: `The column ${n} is named twice` });
      });
      for (const r of REQUIRED) if (!names.includes(r)) headerProblems.push({ line: header.line, field: r, message: `The column ${r} is required` });
      if (headerProblems.length > 0) return refusal(reply, headerProblems);
      if (rows.length === 0) return refusal(reply, [{ line: header.line, field: 'file', message: 'The file has no products: one a line after the header' }]);
      if (rows.length > PRODUCT_IMPORT_MAX_ROWS) {
        return refusal(reply, [{ line: rows[PRODUCT_IMPORT_MAX_ROWS]!.line, field: 'file', message: `A file may hold at most ${PRODUCT_IMPORT_MAX_ROWS} products; this one has ${rows.length}` }]);
      }

      const now = ctx.now();
      const slugs = new Map((await reads.categories(now)).map((c) => [c.slug, c.id]));
      // The same checks as the create route's body: its schema, compiled by the app's own validator.
      const validate = req.compileValidationSchema(CreateProductBody, 'body');
      const problems: Problem[] = [];
      const seen = new Set<string>();
      const inputs: { line: number; input: ProductInput }[] = [];
      for (const row of rows) {
        const problem = (field: string, message: string) => problems.push({ line: row.line, field: columnOf(field), message });
        if (row.fields.length !== names.length) {
          problem('file', `This line has ${row.fields.length} field${row.fields.length === 1 ? '' : 's'}; the header names ${names.length}`);
          continue;
        }
        const body: Record<string, unknown> = {};
        let bad = false;
        names.forEach((n, i) => {
          const text = row.fields[i]!;
          if (n === 'category') {
            const value = text.trim();
            if (value === '') return;
            if (/^\d+$/.test(value)) body.category_id = Number(value);
            else if (slugs.has(value)) body.category_id = slugs.get(value);
            else {
              problem('category', `category ${JSON.stringify(value)} is the slug or id of no category`);
              bad = true;
            }
          } else if (PRICE_COLUMNS.has(n as Column)) {
            const value = text.trim();
            if (value !== '') body[n] = NUMBER.test(value) ? Number(value) : value;
          } else {
            body[n] = text;
          }
        });
        if (bad) continue;
        if (!validate(body)) {
          const { field, message } = describeValidation(validate.errors ?? [], 'body');
          problem(field, message);
          continue;
        }
        const valid = body as CreateProductBody;
        let pricing: ReturnType<typeof pricingInput>;
        try {
          pricing = pricingInput(valid);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          problem(err.field ?? 'file', err.message);
          continue;
        }
        if (seen.has(valid.id)) {
          problem('id', `The id ${valid.id} is on an earlier line of this file`);
          continue;
        }
        seen.add(valid.id);
        inputs.push({ line: row.line, input: { ...valid, ...pricing, categoryId: valid.category_id } });
      }

      try {
        // Every row in one transaction: each is checked as one create would be, all are written (with
        // their search entries) in a few statements, and a single refusal rolls all of them back.
        const r = await commands.run(async (tx) => {
          const made = await createProducts(tx, { adminId, inputs: inputs.map((i) => i.input) }, now);
          const refused = [...problems, ...made.refused.map(({ index, refusal }) => ({ line: inputs[index]!.line, field: columnOf(refusal.field ?? 'file'), message: refusal.message }))];
          if (refused.length > 0) throw new Refused(refused);
          return { ok: true as const, created: made.created };
        });
        if (!r.ok) throw new AppError(r.code, r.message, r.field);
        return reply.code(201).send({ created: r.created });
      } catch (err) {
        if (err instanceof Refused) return refusal(reply, err.problems);
        throw err;
      }
    });
  });

  app.get('/admin/products/export', {
    onRequest: guard.admin,
    schema: {
      tags, security, produces: ['text/csv'],
      summary: 'The caller’s products as CSV, in the columns the import takes',
      response: { 200: Type.String({ description: 'text/csv' }), ...errorResponses(401, 403) },
    },
  }, async (req, reply) => {
    const products = await reads.productsBy(callerOf(req).id, ctx.now());
    const amount = (paise: number | null) => (paise === null ? null : formatRupees(toRupees(paise), { plain: true }));
    const rows = products.map((p) => [p.id, p.name, p.description, p.category?.slug ?? null, amount(p.startingPrice), amount(p.reservePrice), amount(p.buyNowPrice)]);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="products.csv"')
      .send(csvDocument(PRODUCT_CSV_COLUMNS, rows));
  });
}
