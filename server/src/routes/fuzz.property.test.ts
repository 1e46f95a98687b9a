/**
 * Fuzzing every API route: random and hostile input to each route of the app's own OpenAPI
 * document (a new route is fuzzed the day it is added), in its own method. Every input goes to every
 * route, each request as nobody (no token, or a forged one), as a funded bidder registered for an open
 * auction with bids in it, and as the platform owner.
 *
 * Inputs: wrong types, deep nesting (to 10,000 levels) and wide arrays, odd numbers (1e308, 1e309,
 * -0, 2^53+1, 5e-324, NaN-like strings), long strings, unicode (RTL, emoji, NUL, lone surrogates),
 * prototype-pollution keys as JSON keys, nested keys and query keys, arrays where objects go, empty
 * bodies, invalid JSON, invalid UTF-8, wrong content types, hostile and malformed path params. One
 * property throws any shape; the other starts from valid requests built from each route's own fields
 * (real ids, boundary values) and replaces a field or two, so requests reach the rules and the money.
 *
 * Per request: never a 5xx; a 4xx is `{ error, message, code }` with string fields, `message` the
 * same text as `error`, and a catalog code with that status (shared/src/errors.ts); a 4xx moves no money (Σ
 * balances, ledger rows, bids per status: count and sum; a refused bid may only add its own `failed`
 * row, docs/money.md#bid-statuses), nor does any GET; nothing is added to the built-in prototypes. Per input: the money
 * audit holds.
 *
 * FUZZ_RUNS=n multiplies the number of inputs; FUZZ_SEED (and FUZZ_PATH) replay a failure;
 * FUZZ_STATS=1 prints the statuses seen per route and caller. A 5xx's report carries the server's stack.
 */
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_STATUS } from '@auction/shared';
import type { App } from '../context.js';
import { buildApp } from '../app.js';
import { freshTestDatabase, testStoreKind } from '../db/testing.js';
import { bid, call, createAuction, createProducts, expectMoneyInvariant, makeClock, richBidder, signUpAdmin, sqlRow, sqlRows, testConfig } from '../test/helpers.js';

// ---- the routes, from the OpenAPI document ------------------------------------------------------

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}
interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface Route {
  method: NonNullable<InjectOptions['method']>;
  path: string;
  params: string[];
  query: string[];
  /** Body fields and, per field, values near its rules (consts, length and range bounds). */
  fields: { name: string; hints: string[] }[];
  key: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Values (as JSON text) at and around what the schema allows. */
function hintsFor(s: JsonSchema): string[] {
  const out = new Set<string>();
  for (const alt of [s, ...(s.anyOf ?? [])]) {
    if (alt.const !== undefined) out.add(JSON.stringify(alt.const));
    for (const e of alt.enum ?? []) out.add(JSON.stringify(e));
    const types = [alt.type ?? []].flat();
    if (types.includes('string')) {
      for (const n of [alt.minLength, alt.maxLength]) if (n !== undefined) { out.add(JSON.stringify('x'.repeat(n))); out.add(JSON.stringify('x'.repeat(Math.max(0, n + (n === alt.minLength ? -1 : 1))))); }
      for (const v of ['2026-11-24T07:45', '2026-11-25T00:00:00.000Z', '2026-11-24T00:00:00.001Z', '9999-12-31T23:59:59Z', '0000-01-01T00:00', '2026-02-30T10:00', '2026-11-24T07:45+99:99', 'Valid Name', '9876543210', '+919876543210', 'active', 'inactive', 'admin']) out.add(JSON.stringify(v));
    }
    if (types.includes('number') || types.includes('integer')) {
      for (const b of [alt.minimum, alt.maximum, alt.exclusiveMinimum]) if (b !== undefined) for (const d of [-0.01, -1e-9, 0, 1e-9, 0.001, 0.01, 1]) out.add(String(b + d));
      for (const v of ['1', '10', '10.5', '100.25', '1.005', '0.1', '1000', '100000', '-0', '5e-324', '1e-9', '0.001', '1e308', '9007199254740993', '-1']) out.add(v);
    }
    if (types.includes('array')) out.add('[]');
  }
  return [...out];
}

function routesOf(app: App): Route[] {
  const doc = app.swagger() as { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> };
  const routes: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const m of METHODS) {
      const op = ops[m];
      if (!op) continue;
      const schema = Object.values(op.requestBody?.content ?? {})[0]?.schema;
      routes.push({
        method: m.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        fields: Object.entries(schema?.properties ?? {}).map(([name, s]) => ({ name, hints: hintsFor(s) })),
        key: `${m.toUpperCase()} ${path}`,
      });
    }
  }
  return routes.sort((a, b) => a.key.localeCompare(b.key));
}

// ---- hostile values ------------------------------------------------------------------------------

/** JSON number texts, several of which JSON.stringify cannot write (1e309 parses as Infinity, -0). */
const NUMBER_TEXTS = [
  '0', '-0', '-0.0', '0.0', '1', '-1', '10', '9.99', '10.001', '100.005', '0.1', '0.01', '0.001', '0.005', '1e2', '1E+2', '1e-7', '1e-9', '4.9e-9', '1e-300', '5e-324',
  '1e308', '-1e308', '1.7976931348623157e308', '1e309', '-1e309', '1e-400', '9007199254740991', '9007199254740993', '-9007199254740993',
  '18446744073709551616', '1e21', '100000', '100000.01', '1000000000', '1000000000.01', '123456789012345678901234567890.5',
];
/** Texts that are not JSON (or not a JSON object): whole bodies, or spliced in where a value goes. */
const INVALID_TEXTS = [
  'NaN', 'Infinity', '-Infinity', 'undefined', '0x10', '01', '.5', '1.', '+1', '1_000', "'x'", 'tru', 'nul', '"\\x41"', '"\\u12"',
  '"unterminated', '{', '[', '}', '{"a":1,}', '[1,]', '{a:1}', '{"a" 1}', '{"a":1}}', '//x', '/*x*/{}', '1 2', '\u0000', '\uFEFF{}',
  '"\\ud800"', '"\\udfff\\ud800"', 'null', 'true', '0', '""', '[]', '[{}]', '"{}"',
];
const LONG = { name: 'n'.repeat(121), desc: 'd'.repeat(2001), id: 'I'.repeat(65), huge: 'h'.repeat(70_000) };
const STRINGS = [
  '', ' ', '\t\n', 'NaN', 'Infinity', '-0', '1e308', '1e309', '1000', '10.5', '0x10', 'null', 'undefined', 'true', '[]', '{}',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'polluted',
  '\u202Eevil\u202C', '\u200F\u0645\u0632\u0627\u062F', '\u05E9\u05DC\u05D5\u05DD', '🦄💰🔥', '👨‍👩‍👧‍👦', '🏳️‍🌈', '\u0000', 'a\u0000b', '\uD800', '\uDFFF', 'x\uDBFF',
  '\uDC00\uD800', '\uFEFF', '\u200B', 'İı', 'ß', 'ｆｕｌｌ', 'Ω≈ç√', '\u0301\u0301\u0301', "' OR 1=1 --", '"; DROP TABLE bids; --',
  '%', '%00', '%ZZ', '%2F', '../../etc/passwd', '..', '.', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '\\', '\r\n\r\nX: y',
  'user', 'admin', 'ADMIN', 'success', 'won', LONG.id, LONG.name, LONG.desc, LONG.huge,
];
/** Path segments sent as they are (not percent-encoded). */
const RAW_PATH = ['', '.', '..', '%', '%zz', '%00', '%2e%2e', '%ED%A0%80', '%C0%AF', '%FF', 'a%2Fb', 'a/b', '..%2F..%2F', '?x=1', '#x', ';x', '*', '~', '1', '0', '-1', '01', '1e3', '9'.repeat(16), '9'.repeat(400)];
/** Authorization headers of an anonymous caller: none is a valid session. */
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const FORGED = [
  'Bearer', 'Bearer ', 'Bearer x', 'bearer null', 'Basic dXNlcjpzZWNyZXQx', `Bearer ${'a'.repeat(5000)}`, 'Bearer a.b.c', 'Bearer ..',
  `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: '1', role: 'admin', ver: 0, exp: 4102444800 })}.`,
  `Bearer ${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', role: 'admin', ver: 0, exp: 4102444800 })}.${'A'.repeat(43)}`,
  `Bearer ${b64({ alg: 'HS256' })}.${b64({ sub: '__proto__', role: 'constructor' })}.x`,
];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/json;;',
  'application/jsonx', 'application/vnd.api+json', 'text/plain', 'text/html', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/octet-stream', '*/*', '', 'json', 'application/json\t',
];
/** Objects that pollute a naive merge (written as JSON text, where `__proto__` is an ordinary key). */
const POLLUTERS = [
  '{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '{"prototype":{"polluted":"yes"}}',
  '{"__proto__":{"__proto__":{"polluted":"yes"}}}', '{"a":{"__proto__":{"polluted":"yes"}}}', '[{"__proto__":{"polluted":"yes"}}]',
  '{"__proto__":null}', '{"__proto__":[]}', '{"constructor":null}', '{"toString":1,"valueOf":"x","hasOwnProperty":null}',
];
const KEYS = ['__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'hasOwnProperty', '', ' ', 'a', '\u0000', '🦄', 'id', 'amount', 'bid_amount', 'product_id', 'user_id', 'status', 'role', 'is_owner', 'wallet_balance'];
/** Query keys, raw: bracket syntax that a qs-style parser would turn into nested objects. */
const QUERY_KEYS = ['__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', '__proto__.polluted', 'a[__proto__][polluted]', 'q[]', 'product_key[]', 'product_key[a]', '', '%', '&', '='];

// ---- requests as data (so fast-check shrinks them) ------------------------------------------------

/** A JSON value as text, built from parts; rendered against the current world (real ids) and field. */
type Node =
  | { t: 'raw'; text: string } // literal text: numbers, invalid tokens, polluters
  | { t: 'str'; v: string }
  | { t: 'ref'; k: number; num: boolean } // a real id of the world (auction, product, user, bid, username)
  | { t: 'hint'; k: number } // a value near the current field's rules
  | { t: 'seed'; k: number } // a valid value for the current field (by its name), so that the rest of the request is what fails
  | { t: 'arr'; items: Node[] }
  | { t: 'obj'; entries: [string, Node][] }
  | { t: 'deep'; depth: number; key: string | null; leaf: Node } // null key: nested arrays
  | { t: 'wide'; count: number; leaf: Node; keyed: boolean }; // an array of `count` copies, or an object with `count` keys

/** A path param or query value; `seed` is a real id of the kind the route names (its path or key). */
type Text = { t: 'str'; v: string } | { t: 'ref'; k: number } | { t: 'seed'; k: number } | { t: 'raw'; v: string };
type Body =
  | { t: 'none' }
  | { t: 'json'; node: Node } // any JSON text at all
  // The route's own fields by position (null: left out), then `mutations` replace some (the index
  // taken modulo the route's field count, so each one lands on a real field), then extra keys.
  | { t: 'fields'; values: (Node | null)[]; mutations: [number, Node | null][]; extra: [string, Node][] }
  | { t: 'bytes'; bytes: readonly number[] }; // invalid UTF-8 and the like

type Query = { key: { t: 'declared'; k: number } | { t: 'raw'; v: string }; value: Text }[];
/**
 * One input goes to every route, as every caller. Route number j takes element j (modulo the length)
 * of each list, and a route with fields or params takes up to two more combinations (j + 7, j + 14),
 * so one input carries several params, bodies, etc.; shrunk, it is one of each.
 */
interface Input {
  params: Text[];
  queries: Query[];
  bodies: Body[];
  contentTypes: (string | null)[];
  forged: (string | null)[];
}
const nth = <T>(list: T[], j: number): T => list[j % list.length]!;
/** Routes with more to validate get more of an input's variants (up to 3). */
const variantsOf = (r: Route) => Math.min(3, 1 + Math.ceil((r.fields.length + r.params.length + r.query.length) / 2));

interface Account { token: string; id: number; username: string; password: string }
interface World {
  owner: Account;
  user: Account;
  other: Account;
  auctionId: string;
  productIds: string[];
  spareProductId: string;
  bidIds: number[];
}

const refsOf = (w: World): (string | number)[] =>
  [w.auctionId, ...w.productIds, w.spareProductId, w.user.id, w.other.id, w.owner.id, w.user.username, w.other.username, ...w.bidIds];

let fresh = 0;
const pick = (k: number, options: (string | number | null)[]) => { const v = options[k % options.length]!; return typeof v === 'number' ? String(v) : JSON.stringify(v); };
const later = (ms: number) => new Date(clock.t + ms).toISOString();
/**
 * Valid values by field name (JSON text), against the current world: a request built from them gets
 * past validation to the rules and the money, and one hostile field beside them is what is tested.
 * A field not named here (a new route's) gets the values its schema suggests.
 */
const SEEDS: Record<string, (w: World, k: number) => string> = {
  name: (_w, k) => pick(k, ['Fuzz name', ' Fuzz  name ']),
  description: () => '"Fuzz description"',
  mobile_number: (_w, k) => pick(k, ['9876543210', '+919876543210']),
  username: (w, k) => pick(k, [w.user.username, w.user.username, w.user.username.toUpperCase(), w.owner.username, `fz${process.pid}_${++fresh}`]),
  password: (w, k) => pick(k, [w.user.password, w.owner.password]),
  new_password: (w, k) => pick(k, [w.user.password, w.owner.password]),
  role: () => '"admin"',
  user_id: (w, k) => pick(k, [w.user.id, w.user.id, w.user.username, String(w.user.id), w.owner.id]),
  id: (w, k) => pick(k, [`FZ-${process.pid}-${++fresh}`, `FZ-${process.pid}-${++fresh}`, w.spareProductId, w.auctionId, w.productIds[0]!]),
  valid_until: (_w, k) => pick(k, [later(3 * 3_600_000), '2026-11-24T09:45', later(1000), later(-1000)]),
  product_ids: (w, k) => [`[${JSON.stringify(w.spareProductId)}]`, `[${JSON.stringify(w.spareProductId)}]`, JSON.stringify(w.productIds), JSON.stringify(w.productIds.slice(1)), '[]'][k % 5]!,
  auction_id: (w) => JSON.stringify(w.auctionId),
  product_id: (w, k) => pick(k, w.productIds),
  product_name: (w, k) => pick(k, [...w.productIds, `Product ${w.productIds[0]!}`]),
  bid_amount: (_w, k) => pick(k, [151.5, 152, 1000, 50, 21, 20, 10_000, 99_999.99, 500_000, 1_000_000_000]),
  bid_id: (w, k) => pick(k, [...w.bidIds, String(w.bidIds[1])]),
  amount: (_w, k) => pick(k, [10, 1000, 100_000, 99.99]),
  status: (_w, k) => pick(k, ['active', 'inactive']),
  // Lot prices and auction rules: for one k, a consistent set (reserve ≥ starting, buy-now > starting and ≥ reserve).
  starting_price: (_w, k) => pick(k, [0, 10, 100, 5.5]),
  reserve_price: (_w, k) => pick(k, [null, 20, 200, 5.5]),
  buy_now_price: (_w, k) => pick(k, [null, 50, 500, 6]),
  // Twice bid_amount's value for the same k (a maximum at or above the bid).
  max_amount: (_w, k) => pick(k, [303, 304, 2000, 100, 42, 40, 20_000, 199_999.98, 1_000_000, 1_000_000_000]),
  increment_rule: (_w, k) => pick(k, ['flat', 'ladder', 'custom']),
  increment_amount: (_w, k) => pick(k, [1, 50, 100_000, 2.5]),
  // Always well formed, so that custom steps (any k) have their tiers.
  increment_tiers: (_w, k) => ['[{"below":1000,"step":10},{"step":50}]', '[{"step":5}]', '[{"below":100,"step":1},{"below":5000,"step":25},{"below":null,"step":100}]'][k % 3]!,
  cancel_policy: (_w, k) => pick(k, ['until_end', 'strict']),
  soft_close_s: (_w, k) => pick(k, [0, 120, 3600]),
  max_extension_s: (_w, k) => pick(k, [3600, 0, 600]),
  // Notifications to mark read: none, some, or ids that may not be the caller's.
  ids: (_w, k) => ['[]', '[1]', '[1, 2, 3]', '[999999]'][k % 4]!,
  // Categories (docs/catalogue.md): none (the fuzzer's world has none), top level, a fresh slug.
  category_id: () => 'null',
  parent_id: () => 'null',
  slug: () => JSON.stringify(`fz-${process.pid}-${++fresh}`),
};

/** What a value means where it stands: the field's own hints and valid values. */
interface Slot { hints: string[]; seed: ((k: number) => string) | undefined }
const NO_SLOT: Slot = { hints: [], seed: undefined };

function render(n: Node, refs: (string | number)[], slot: Slot): string {
  const hints = slot.hints;
  switch (n.t) {
    case 'raw': return n.text;
    case 'str': return JSON.stringify(n.v);
    case 'ref': {
      const v = refs[n.k % refs.length]!;
      return n.num && /^[0-9]+$/.test(String(v)) ? String(v) : JSON.stringify(String(v));
    }
    case 'hint': return hints.length ? hints[n.k % hints.length]! : JSON.stringify(String(refs[n.k % refs.length]));
    case 'seed': return slot.seed ? slot.seed(n.k) : render({ t: 'hint', k: n.k }, refs, slot);
    case 'arr': return `[${n.items.map((i) => render(i, refs, slot)).join(',')}]`;
    case 'obj': return `{${n.entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v, refs, NO_SLOT)}`).join(',')}}`;
    case 'deep': {
      const leaf = render(n.leaf, refs, slot);
      return n.key === null ? '['.repeat(n.depth) + leaf + ']'.repeat(n.depth) : `{${JSON.stringify(n.key)}:`.repeat(n.depth) + leaf + '}'.repeat(n.depth);
    }
    case 'wide': {
      const leaf = render(n.leaf, refs, slot);
      const count = Math.min(n.count, Math.floor(200_000 / (leaf.length + 8))); // past the 64 KiB limit is enough
      return n.keyed ? `{${Array.from({ length: count }, (_, i) => `"k${i}":${leaf}`).join(',')}}` : `[${Array<string>(count).fill(leaf).join(',')}]`;
    }
  }
}

/** Percent-encodes every byte but the unreserved ones (a lone surrogate goes out as U+FFFD). */
const pct = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');

function seedsFor(where: string, w: World): (string | number)[] {
  if (where.includes('/users/')) return [w.user.id, w.other.id, 999_999];
  if (where.includes('/product/') || where === 'product_key') return [...w.productIds, w.spareProductId];
  if (where.includes('auction')) return [w.auctionId];
  if (where === 'q') return [w.user.username.slice(0, 4), '9876', '%', '_'];
  return refsOf(w);
}

function text(t: Text, refs: (string | number)[], seeds: (string | number)[]): string {
  if (t.t === 'raw') return t.v;
  if (t.t === 'str') return pct(t.v);
  const from = t.t === 'ref' ? refs : seeds;
  return pct(String(from[t.k % from.length]));
}

interface Rendered { method: Route['method']; url: string; payload: string | Buffer | undefined; contentType: string | null }

function renderInput(input: Input, j: number, route: Route, w: World): Rendered {
  const refs = refsOf(w);
  let i = j;
  const path = route.path.replace(/\{[^}]+\}/g, () => text(nth(input.params, i++), refs, seedsFor(route.path, w)));
  const query = nth(input.queries, j).map(({ key, value }) => {
    const k = key.t === 'raw' ? key.v : route.query.length ? route.query[key.k % route.query.length]! : 'q';
    return `${k}=${text(value, refs, seedsFor(k, w))}`;
  });
  let payload: string | Buffer | undefined;
  const b = nth(input.bodies, j);
  if (b.t === 'json') payload = render(b.node, refs, NO_SLOT);
  else if (b.t === 'bytes') payload = Buffer.from(b.bytes);
  else if (b.t === 'fields') {
    const values = [...b.values];
    for (const [k, node] of b.mutations) if (route.fields.length) values[k % route.fields.length] = node;
    const own = route.fields.flatMap((f, j) => {
      const v = values[j];
      const seed = SEEDS[f.name];
      return v ? [`${JSON.stringify(f.name)}:${render(v, refs, { hints: f.hints, seed: seed && ((k) => seed(w, k)) })}`] : [];
    });
    const extra = b.extra.map(([k, v]) => `${JSON.stringify(k)}:${render(v, refs, NO_SLOT)}`);
    payload = `{${[...own, ...extra].join(',')}}`;
  }
  return { method: route.method, url: query.length ? `${path}?${query.join('&')}` : path, payload, contentType: nth(input.contentTypes, j) };
}

// ---- arbitraries ---------------------------------------------------------------------------------

const numberNode: fc.Arbitrary<Node> = fc.oneof(
  fc.constantFrom(...NUMBER_TEXTS).map((text) => ({ t: 'raw' as const, text })),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => ({ t: 'raw' as const, text: JSON.stringify(d) })),
  fc.integer().map((d) => ({ t: 'raw' as const, text: String(d) })),
);
const stringArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
);
const keyArb = fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 10 }));
/** An index into a list (ids, a field's values), uniform: fc.nat() favours small numbers, i.e. the first entries. */
const anyIndex = fc.noBias(fc.nat({ max: 1 << 30 }));
const refNode = fc.record({ t: fc.constant('ref' as const), k: anyIndex, num: fc.boolean() });
const atomNode: fc.Arbitrary<Node> = fc.oneof(
  { weight: 3, arbitrary: numberNode },
  { weight: 4, arbitrary: stringArb.map((v) => ({ t: 'str' as const, v })) },
  { weight: 1, arbitrary: fc.constantFrom('true', 'false', 'null', '[]', '{}', ...POLLUTERS).map((text) => ({ t: 'raw' as const, text })) },
  { weight: 2, arbitrary: refNode },
);
const deepNode: fc.Arbitrary<Node> = fc.record({
  t: fc.constant('deep' as const),
  depth: fc.constantFrom(2, 100, 1000, 5000, 10_000),
  key: fc.constantFrom(null, null, 'a', '__proto__', 'constructor', 'prototype'),
  leaf: atomNode,
});
const { node: nodeArb } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: atomNode },
    { weight: 1, arbitrary: fc.array(tie('node'), { maxLength: 4 }).map((items) => ({ t: 'arr' as const, items })) },
    { weight: 1, arbitrary: fc.array(fc.tuple(keyArb, tie('node')), { maxLength: 4 }).map((entries) => ({ t: 'obj' as const, entries })) },
    { weight: 1, arbitrary: deepNode },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('wide' as const), count: fc.constantFrom(0, 1, 65, 1000, 5000), leaf: atomNode, keyed: fc.boolean() }) },
  ),
}));
/** One value per field of the route, by position (no route has more). */
const FIELD_SLOTS = 12;
/** What replaces a field's valid value: a hostile value, a value near its rules, another real id, or nothing. */
const mutationNode: fc.Arbitrary<Node | null> = fc.oneof(
  { weight: 2, arbitrary: numberNode },
  { weight: 2, arbitrary: stringArb.map((v) => ({ t: 'str' as const, v })) },
  { weight: 3, arbitrary: nodeArb },
  { weight: 4, arbitrary: anyIndex.map((k) => ({ t: 'hint' as const, k })) },
  { weight: 1, arbitrary: refNode },
  { weight: 1, arbitrary: fc.array(refNode, { minLength: 1, maxLength: 3 }).map((items) => ({ t: 'arr' as const, items })) },
  { weight: 1, arbitrary: fc.constant(null) },
);

const textArb = (raw: number, seed: number): fc.Arbitrary<Text> => fc.oneof(
  { weight: 3, arbitrary: stringArb.map((v) => ({ t: 'str' as const, v })) },
  { weight: 2, arbitrary: anyIndex.map((k) => ({ t: 'ref' as const, k })) },
  { weight: seed, arbitrary: anyIndex.map((k) => ({ t: 'seed' as const, k })) },
  { weight: raw, arbitrary: fc.constantFrom(...RAW_PATH).map((v) => ({ t: 'raw' as const, v })) },
);
const queryArb = (seed: number): fc.Arbitrary<Query> => fc.array(fc.record({
  key: fc.oneof(
    { weight: 3, arbitrary: anyIndex.map((k) => ({ t: 'declared' as const, k })) },
    { weight: 2, arbitrary: fc.constantFrom(...QUERY_KEYS).map((v) => ({ t: 'raw' as const, v })) },
  ),
  value: textArb(1, seed),
}), { maxLength: 4 });

const shapeBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ t: 'none' as const }) },
  { weight: 5, arbitrary: nodeArb.map((node) => ({ t: 'json' as const, node })) },
  { weight: 2, arbitrary: fc.constantFrom(...INVALID_TEXTS, ...POLLUTERS, '', '   ').map((text) => ({ t: 'json' as const, node: { t: 'raw' as const, text } })) },
  { weight: 1, arbitrary: fc.constantFrom([0xff, 0xfe], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d], [0]).map((bytes) => ({ t: 'bytes' as const, bytes })) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('fields' as const), values: fc.array(fc.option(nodeArb, { nil: null }), { minLength: FIELD_SLOTS, maxLength: FIELD_SLOTS }), mutations: fc.constant<[number, Node | null][]>([]), extra: fc.array(fc.tuple(keyArb, nodeArb), { maxLength: 3 }) }) },
);
const fieldsBody: fc.Arbitrary<Body> = fc.oneof(
  // A valid request (each field a valid value, or left out), then up to two fields replaced.
  { weight: 8, arbitrary: fc.record({
    t: fc.constant('fields' as const),
    values: fc.array(fc.option(anyIndex.map((k) => ({ t: 'seed' as const, k })), { freq: 8, nil: null }), { minLength: FIELD_SLOTS, maxLength: FIELD_SLOTS }),
    mutations: fc.oneof(fc.constant<[number, Node | null][]>([]), fc.array(fc.tuple(anyIndex, mutationNode), { minLength: 1, maxLength: 2 })),
    extra: fc.array(fc.tuple(keyArb, nodeArb), { maxLength: 2 }),
  }) },
  { weight: 1, arbitrary: fc.constantFrom(...POLLUTERS).map((text) => ({ t: 'json' as const, node: { t: 'raw' as const, text } })) },
);

const inputArb = (body: fc.Arbitrary<Body>, contentType: fc.Arbitrary<string | null>, seed: number): fc.Arbitrary<Input> => fc.record({
  params: fc.array(textArb(2, seed), { minLength: 1, maxLength: 8 }),
  queries: fc.array(queryArb(seed), { minLength: 1, maxLength: 4 }),
  bodies: fc.array(body, { minLength: 1, maxLength: 6 }),
  contentTypes: fc.array(contentType, { minLength: 1, maxLength: 4 }),
  forged: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom(...FORGED) }), { minLength: 1, maxLength: 3 }),
});
const anyContentType = fc.oneof({ weight: 3, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom<string | null>(null, ...CONTENT_TYPES) });
const jsonContentType = fc.oneof({ weight: 8, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom<string | null>(null, ...CONTENT_TYPES) });

// ---- the world: an owner, an open auction with bids, and a funded registered bidder --------------

const clock = makeClock();

async function buildWorld(app: App): Promise<World> {
  const owner = await signUpAdmin(app);
  expect(owner.admin.is_owner).toBe(true);
  const w: World = {
    owner: { token: owner.token, id: owner.admin.id, username: owner.username, password: owner.password },
    user: { token: '', id: 0, username: '', password: '' },
    other: { token: '', id: 0, username: '', password: '' },
    auctionId: '', productIds: [], spareProductId: (await createProducts(app, owner.token, 1))[0]!, bidIds: [],
  };
  const user = await richBidder(app, 300_000);
  const other = await richBidder(app, 20_000);
  w.user = { token: user.token, id: user.user.id, username: user.username, password: user.password };
  w.other = { token: other.token, id: other.user.id, username: other.username, password: other.password };
  await newAuction(app, w);
  return w;
}

/** A fresh open auction: the other bidder is outbid on P0, the user leads P0 and P1, the other leads P2. */
async function newAuction(app: App, w: World) {
  const { auctionId, productIds } = await createAuction(app, w.owner.token, { products: 3, now: clock.t });
  for (const b of [w.user, w.other]) expect((await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, b.token)).statusCode).toBe(200);
  w.auctionId = auctionId;
  w.productIds = productIds;
  w.bidIds = [];
  for (const [who, p, amount] of [[w.other, 0, 100], [w.user, 0, 150.5], [w.user, 1, 50], [w.other, 2, 20]] as const) {
    const res = await bid(app, who.token, productIds[p]!, amount);
    expect(res.statusCode, res.body).toBe(201);
    w.bidIds.push(res.json<{ bid: { bid_id: number } }>().bid.bid_id);
  }
}

/**
 * Undoes what accepted fuzz requests did to the fixture (a revoked session, a deactivated bidder, a
 * deleted, edited or settled auction, a spent wallet, a used spare product), so that every request
 * meets a live auction with bids, usable sessions and ids that mean something.
 */
async function heal(app: App, w: World) {
  if ((await call(app, 'GET', '/api/admin/settings', undefined, w.owner.token)).statusCode !== 200) {
    const login = await call(app, 'POST', '/api/admin/login', { username: w.owner.username, password: w.owner.password });
    expect(login.statusCode, login.body).toBe(200);
    w.owner.token = login.json<{ token: string }>().token;
  }
  for (const b of [w.user, w.other]) {
    const wallet = await call(app, 'POST', '/api/wallet', {}, b.token);
    if (wallet.statusCode !== 200) {
      expect((await call(app, 'PATCH', `/api/admin/users/${b.id}`, { status: 'active' }, w.owner.token)).statusCode).toBe(200);
      const login = await call(app, 'POST', '/api/login', { username: b.username, password: b.password });
      expect(login.statusCode, login.body).toBe(200);
      b.token = login.json<{ token: string }>().token;
    } else if (wallet.json<{ wallet_balance: number }>().wallet_balance < 5_000) {
      expect((await call(app, 'POST', '/api/wallet/topup', { amount: 100_000 }, b.token)).statusCode).toBe(200);
    }
  }
  const auction = await call(app, 'GET', `/api/admin/auction/${w.auctionId}`, undefined, w.owner.token);
  const a = auction.statusCode === 200 ? auction.json<{ status: string; product_ids: string[] }>() : null;
  if (a?.status !== 'active' || w.productIds.some((id) => !a.product_ids.includes(id))) await newAuction(app, w);
  const unassigned = await call(app, 'GET', '/api/admin/products/unassigned', undefined, w.owner.token);
  if (!unassigned.json<{ id: string }[]>().some((p) => p.id === w.spareProductId)) w.spareProductId = (await createProducts(app, w.owner.token, 1))[0]!;
}

// ---- the checks ----------------------------------------------------------------------------------

interface MoneyState { balances: number; ledger: number; bids: Record<string, { n: number; total: number }> }

async function moneyState(app: App): Promise<MoneyState> {
  const t = (await sqlRow<{ balances: number; ledger: number }>(app,
    'select (select coalesce(sum(wallet_balance), 0) from users) as balances, (select count(*) from wallet_transactions) as ledger'))!;
  const rows = await sqlRows<{ status: string; n: number; total: number }>(app,
    'select status, count(*) as n, coalesce(sum(amount), 0) as total from bids group by status order by status');
  return { ...t, bids: Object.fromEntries(rows.map((r) => [r.status, { n: r.n, total: r.total }])) };
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as Record<string, unknown>[];
const PROTO_BASELINE = PROTOTYPES.map((p) => new Set(Object.getOwnPropertyNames(p)));

/** Properties a request added to the built-in prototypes; removed again, so that the next request starts clean. */
function pollution(): string[] {
  const added: string[] = [];
  if (({} as Record<string, unknown>).polluted !== undefined) added.push('({}).polluted');
  PROTOTYPES.forEach((proto, i) => {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (PROTO_BASELINE[i]!.has(name)) continue;
      added.push(name);
      delete proto[name];
    }
  });
  return added;
}

function describeRequest(req: Rendered, who: string, res?: LightMyRequestResponse) {
  const body = req.payload === undefined ? '(none)' : typeof req.payload === 'string' ? JSON.stringify(req.payload.length > 400 ? `${req.payload.slice(0, 400)}…(${req.payload.length} chars)` : req.payload) : `bytes ${req.payload.toString('hex')}`;
  const url = req.url.length > 300 ? `${req.url.slice(0, 300)}…(${req.url.length} chars)` : req.url;
  return `${req.method} ${url} as ${who}\n  content-type: ${req.contentType ?? '(none)'}\n  body: ${body}${res ? `\n  → ${res.statusCode} ${res.body.slice(0, 300)}` : ''}`;
}

type Who = 'anonymous' | 'user' | 'owner';
/** The last error each app's error handler saw, for the report of a 5xx. */
const serverErrors = new WeakMap<App, Error>();

/** An accepted password change revokes the caller's older tokens: follow it (new token, new password). */
function adoptSession(req: Rendered, res: LightMyRequestResponse, who: Who, w: World) {
  if (who === 'anonymous' || !req.url.split('?')[0]!.endsWith('change-password')) return;
  const account = who === 'user' ? w.user : w.owner;
  account.token = res.json<{ token: string }>().token;
  account.password = (JSON.parse(req.payload as string) as { new_password: string }).new_password;
}
const tokenOf = (w: World, who: Who) => (who === 'user' ? w.user.token : who === 'owner' ? w.owner.token : null);

/** Sends one rendered request as one caller and checks every per-request property. */
async function sendAndCheck(app: App, route: Route, req: Rendered, who: Who, w: World, forged: string | null, seen: Map<string, Map<number, number>>): Promise<number> {
  const headers: Record<string, string> = {};
  if (req.contentType !== null) headers['content-type'] = req.contentType;
  const token = tokenOf(w, who);
  if (token) headers.authorization = `Bearer ${token}`;
  else if (forged !== null) headers.authorization = forged;
  const before = await moneyState(app);
  serverErrors.delete(app);
  const res = await app.inject({ method: req.method, url: req.url, headers, ...(req.payload === undefined ? {} : { payload: req.payload }) });
  const where = describeRequest(req, `${who}${!token && forged !== null ? ` (authorization: ${forged.slice(0, 60)})` : ''}`, res);
  const statuses = seen.get(`${route.key} ${who}`) ?? new Map<number, number>();
  seen.set(`${route.key} ${who}`, statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1));

  expect(res.statusCode, `5xx:\n${where}\n  server: ${serverErrors.get(app)?.stack ?? '(no error passed the error handler)'}`).toBeLessThan(500);
  expect(pollution(), `prototype polluted by\n${where}`).toEqual([]);
  // A read changes no money, whatever it answers.
  if (req.method === 'GET') expect(await moneyState(app), `a GET moved money:\n${where}`).toEqual(before);
  if (res.statusCode < 400) {
    adoptSession(req, res, who, w);
    return res.statusCode;
  }

  let body: unknown;
  try { body = JSON.parse(res.body); } catch { body = res.body; }
  expect(body, `error shape:\n${where}`).toMatchObject({ error: expect.any(String), message: expect.any(String), code: expect.any(String) });
  const { code, error, message } = body as { code: string; error: string; message: string };
  // A code of the catalog (shared/src/errors.ts), with its status; `message` is the same text as `error`.
  expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS], `code ${code} is in the catalog with this status:\n${where}`).toBe(res.statusCode);
  expect(message, `message repeats error:\n${where}`).toBe(error);

  // A refusal moves no money; a refused bid may only add its own `failed` row (docs/money.md#bid-statuses).
  const after = await moneyState(app);
  const failedAdded = (after.bids.failed?.n ?? 0) - (before.bids.failed?.n ?? 0);
  const { failed: _a, ...keptAfter } = after.bids;
  const { failed: _b, ...keptBefore } = before.bids;
  expect({ ...after, bids: keptAfter }, `a ${res.statusCode} moved money:\n${where}`).toEqual({ ...before, bids: keptBefore });
  expect(failedAdded, `a ${res.statusCode} wrote failed bids:\n${where}`).toBeLessThanOrEqual(route.key === 'POST /api/bid' && who === 'user' ? 1 : 0);
  return res.statusCode;
}

// ---- the properties ------------------------------------------------------------------------------

// On PostgreSQL (the same fuzzer, every request a few network round trips slower) half the inputs by
// default: there it looks for what only that store can get wrong (it found NUL characters).
const SCALE = Number(process.env.FUZZ_RUNS ?? (testStoreKind === 'postgres' ? 0.5 : 1));
const replay: { seed?: number; path?: string } = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED), ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}) };
const WHO: Who[] = ['anonymous', 'user', 'owner'];

/** `reaches`: per route and caller, statuses of which one must have been seen, so that the property is not vacuous. */
function fuzz(name: string, runs: number, arb: fc.Arbitrary<Input>, reaches: Record<string, number[]>, examples: Input[] = []) {
  describe(name, () => {
    let app: App;
    let w: World;
    let routes: Route[];
    beforeAll(async () => {
      const database = freshTestDatabase();
      app = await buildApp(testConfig({ autoSettle: false, databaseUrl: database.url }), { now: clock.now });
      app.addHook('onClose', () => database.drop());
      app.addHook('onError', async (_req, _reply, err) => { serverErrors.set(app, err); });
      await app.ready();
      w = await buildWorld(app);
      routes = routesOf(app);
    });
    afterAll(async () => { await app?.close(); });

    it(`${runs} inputs × ${WHO.length} callers on every route of the OpenAPI document`, async () => {
      expect(routes.length).toBeGreaterThan(30);
      expect(Math.max(...routes.map((r) => r.fields.length))).toBeLessThanOrEqual(FIELD_SLOTS);
      const seen = new Map<string, Map<number, number>>(); // route and caller → status → count
      let dirty = false; // an accepted write may have broken the fixture
      await fc.assert(
        fc.asyncProperty(arb, async (input) => {
          for (const [j, route] of routes.entries()) {
            const sent = new Set<string>();
            for (let v = 0; v < variantsOf(route); v++) {
              if (dirty) await heal(app, w);
              dirty = false;
              const req = renderInput(input, j + 7 * v, route, w);
              const key = `${req.url} ${req.contentType} ${String(req.payload)}`;
              if (sent.has(key)) continue;
              sent.add(key);
              for (const who of WHO) {
                const status = await sendAndCheck(app, route, req, who, w, nth(input.forged, j + v), seen);
                if (req.method !== 'GET' && status < 400) dirty = true;
              }
            }
          }
          await expectMoneyInvariant(app);
        }),
        { numRuns: runs, examples: examples.map((e) => [e]), ...replay },
      );
      await expectMoneyInvariant(app);
      if (replay.seed !== undefined) return;
      for (const [key, status] of Object.entries(reaches)) expect([...(seen.get(key)?.keys() ?? [])].some((s) => status.includes(s)), `${key} answered one of ${status.join(', ')}`).toBe(true);
      if (process.env.FUZZ_STATS === '1') for (const [k, s] of [...seen].sort()) console.info(k, [...s].sort().map(([st, n]) => `${st}×${n}`).join(' '));
    // ~10,000 requests per property: ~30 s alone, several times that while the whole suite shares the cores.
    }, 240_000 * Math.max(1, SCALE));
  });
}

fuzz('fuzz: hostile shapes (types, nesting, numbers, unicode, pollution keys, invalid JSON, content types)', Math.round(40 * SCALE), inputArb(shapeBody, anyContentType, 1), {
  'POST /api/bid user': [400], 'POST /api/admin/auction owner': [400], 'GET /api/bids user': [400], 'POST /api/login anonymous': [415],
});
/**
 * Every field a valid value (the `k`th real id or value of its kind), JSON, no forged header: run first,
 * so that each route's accepted path is reached whatever the random inputs (bid id 1 is the user's
 * leading bid, which they may cancel).
 */
const validInput = (k: number): Input => ({
  params: [{ t: 'seed', k }],
  queries: [[]],
  bodies: [{ t: 'fields', values: Array.from({ length: FIELD_SLOTS }, () => ({ t: 'seed', k })), mutations: [], extra: [] }],
  contentTypes: ['application/json'],
  forged: [null],
});
// Past the guards and the schemas, into the rules and the money.
fuzz('fuzz: each route’s own fields with boundary values, real ids and hostile values', Math.round(25 * SCALE), inputArb(fieldsBody, jsonContentType, 8), {
  'POST /api/bid user': [201, 402, 409], 'POST /api/rollback-bid user': [200, 409], 'POST /api/wallet/topup user': [200],
  'POST /api/admin/product owner': [201, 409],
}, [validInput(1)]);
