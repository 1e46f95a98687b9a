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
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../../context.js';
import { CsvSyntaxError, csvCellText, csvDocument, parseCsv, type CsvRecord } from '../../../csv.js';
import { createProducts, type ProductInput } from '../../../domain/catalogue.js';
import { AppError } from '../../../errors.js';
import { describeValidation } from '../../../plugins/errors.js';
import { pricingInput } from '../catalogue/index.js';
import { callerOf } from '../../input.js';
import { importedText, parseCsvBody } from './file.js';

/** A refused import names at most this many problems. */
const PROBLEMS_MAX = 100;
/** Past this many columns a header is refused whole, as one problem, its columns not looked at one by one. */
const HEADER_COLUMNS_MAX = 100;

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];
/** A problem of the file, and whether it is an id another product already has (ID_TAKEN) or anything else. */
type Problem = NonNullable<Problems['rows']>[number] & { code?: 'ID_TAKEN' };
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

/**
 * Every problem by line, the first 100; the message says the first one's line once. A file refused
 * only because its ids are taken (by a product made before, or by an import that committed while this
 * one ran) is 409 ID_TAKEN, as one create's taken id is; any other problem makes it 400 VALIDATION.
 */
function refusal(reply: FastifyReply, problems: Problem[]) {
  const rows = [...problems].sort((a, b) => a.line - b.line).slice(0, PROBLEMS_MAX).map(({ line, field, message }) => ({ line, field, message }));
  const first = rows[0]!;
  const code = problems.every((p) => p.code === 'ID_TAKEN') ? 'ID_TAKEN' : 'VALIDATION';
  const message = problems.length === 1 ? `Line ${first.line}: ${first.message}` : `${problems.length} problems in the file, the first on line ${first.line}: ${first.message}`;
  return reply.code(ERROR_STATUS[code]).send({ code, error: message, message, field: first.field, rows });
}

/** The header's problems: too many columns (one problem), else each unknown or repeated column and each required one missing. */
function headerProblems(header: CsvRecord, names: readonly string[]): Problem[] {
  const { line } = header;
  if (names.length > HEADER_COLUMNS_MAX) {
    return [{ line, field: 'file', message: `The header names ${names.length} columns; the import reads at most ${PRODUCT_CSV_COLUMNS.length} (${PRODUCT_CSV_COLUMNS.join(', ')}), each once` }];
  }
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const seen = new Set<string>();
  const problems: Problem[] = [];
  names.forEach((n, i) => {
    if (!known.has(n)) problems.push({ line, field: n, message: `Unknown column ${JSON.stringify(header.fields[i])}: the columns are ${PRODUCT_CSV_COLUMNS.join(', ')}` });
    else if (seen.has(n)) problems.push({ line, field: n, message: `The column ${n} is named twice` });
    else seen.add(n);
  });
  for (const r of REQUIRED) if (!seen.has(r)) problems.push({ line, field: r, message: `The column ${r} is required` });
  return problems;
}

/**
 * Runs each piece of work after the one before has ended: this process's imports write one at a time,
 * queued here, since one waiting on another in the store (its import lock) would hold a database
 * connection all the while.
 */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work);
    last = run.catch(() => undefined);
    return run;
  };
}

export function productImportRoutes(app: App, ctx: AppContext) {
  const { reads, commands, guard } = ctx;
  const inTurn = oneAtATime();
  const tags = ['admin catalogue'];
  const security = [{ bearer: [] }];

  void app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: PRODUCT_IMPORT_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 100 } });
    // JSON is no file: still read up to the usual 64 KiB only (413 past it), then refused.
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, _body, done) => {
      done(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the products as a text/csv body or in the multipart field file'), undefined);
    });
    // Read as bytes, decoded in the charset the Content-Type declares.
    scoped.addContentTypeParser('text/csv', { parseAs: 'buffer', bodyLimit: PRODUCT_IMPORT_MAX_BYTES }, parseCsvBody);

    scoped.post('/admin/products/import', {
      onRequest: guard.admin,
      schema: {
        tags, security, consumes: ['text/csv', 'multipart/form-data'],
        summary: `Create products from a CSV file (text/csv, or the multipart field \`file\`; up to 5 MiB and ${PRODUCT_IMPORT_MAX_ROWS} rows): all of them, or none and every problem by line`,
        response: { 201: ProductsImported, 400: ProductImportProblems, 409: ProductImportProblems, ...errorResponses(401, 403, 413, 415) },
      },
    }, async (req, reply) => {
      const adminId = callerOf(req).id;
      let records: CsvRecord[];
      try {
        records = parseCsv(await importedText(req));
      } catch (err) {
        if (err instanceof CsvSyntaxError) return refusal(reply, [{ line: err.line, field: 'file', message: err.message }]);
        throw err;
      }
      const [header, ...rows] = records;
      if (!header) return refusal(reply, [{ line: 1, field: 'file', message: `The file is empty: its first line must name the columns (${PRODUCT_CSV_COLUMNS.join(', ')})` }]);
      const names = header.fields.map((f) => f.trim().toLowerCase());
      const wrongHeader = headerProblems(header, names);
      if (wrongHeader.length > 0) return refusal(reply, wrongHeader);
      if (rows.length === 0) return refusal(reply, [{ line: header.line, field: 'file', message: 'The file has no products: one a line after the header' }]);
      if (rows.length > PRODUCT_IMPORT_MAX_ROWS) {
        return refusal(reply, [{ line: rows[PRODUCT_IMPORT_MAX_ROWS]!.line, field: 'file', message: `A file may hold at most ${PRODUCT_IMPORT_MAX_ROWS} products; this one has ${rows.length}` }]);
      }

      const now = ctx.now();
      const categories = await reads.categories(now);
      const slugs = new Map(categories.map((c) => [c.slug, c.id]));
      const categoryIds = new Set(categories.map((c) => c.id));
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
          // A cell the export defused (a ' before a formula) reads back as it was.
          const text = csvCellText(row.fields[i]!);
          if (n === 'category') {
            // A slug first (an export's slug of digits, such as 2024, included), else an id.
            const value = text.trim();
            if (value === '') return;
            const id = slugs.get(value) ?? (/^\d+$/.test(value) && categoryIds.has(Number(value)) ? Number(value) : undefined);
            if (id !== undefined) body.category_id = id;
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
        // Their time is read once it is this import's turn to write.
        const r = await inTurn(() => commands.run(async (tx) => {
          const made = await createProducts(tx, { adminId, inputs: inputs.map((i) => i.input) }, ctx.now());
          const refused = [...problems, ...made.refused.map(({ index, refusal }): Problem => ({
            line: inputs[index]!.line, field: columnOf(refusal.field ?? 'file'), message: refusal.message, ...(refusal.code === 'ID_TAKEN' ? { code: 'ID_TAKEN' as const } : {}),
          }))];
          if (refused.length > 0) throw new Refused(refused);
          return { ok: true as const, created: made.created };
        }));
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
