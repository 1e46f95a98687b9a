import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { LIMITS } from '../limits.js';

/**
 * `x-error` carries the human sentence the server answers when a value breaks the schema's bounds,
 * so the rule and its message live in one place. The server's validator knows the keyword.
 */
export const X_ERROR = 'x-error';
/** The sentence for a field that is missing or blank, where the product has fixed words for it ('Please fill all fields'). */
export const X_MISSING = 'x-missing';

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    // An enum, not a union of literals: the response serializer checks each branch of a union with
    // the validator on every error it writes, and an enum it writes as the string it is.
    code: Type.Unsafe<ErrorCode>(Type.String({ enum: [...ERROR_CODES] })),
    field: Type.Optional(Type.String({ description: 'Set on VALIDATION errors: the offending field' })),
  },
  { description: 'Every error: human text twice (error, message) and a stable code' },
);
/** Body of every error response. */
export type ApiErrorBody = Static<typeof ErrorBody>;

/** Response entries for the error statuses a route can answer, for its schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

export const MessageBody = Type.Object({ message: Type.String() });
export type MessageBody = Static<typeof MessageBody>;

/**
 * Text people read (names, descriptions) must show something and must not steer how it or its
 * neighbours display: no C0/C1 control characters (a description keeps tab, CR and LF) and no bidi
 * embeddings, overrides (U+202A–U+202E) or isolates (U+2066–U+2069), so `Lamp\u202Egnp.exe` cannot pose
 * as `Lampexe.png`. At least one character must be visible: not a space, separator, control, format
 * (zero-width, direction marks), private-use or unassigned character, not a combining mark alone, not a
 * blank filler (Hangul fillers, braille blank). Needs the `u` flag, which Ajv sets for every pattern.
 */
const VISIBLE_CHAR = '[^\\s\\p{Z}\\p{C}\\p{M}\\u115F\\u1160\\u3164\\uFFA0\\u2800]';
const BIDI_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
const LINE_TEXT = `^(?=[\\s\\S]*${VISIBLE_CHAR})[^\\p{Cc}${BIDI_CONTROLS}]*$`;
const MULTILINE_TEXT = `^(?=[\\s\\S]*${VISIBLE_CHAR})[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F${BIDI_CONTROLS}]*$`;

/**
 * The visible-text rule (above) as a subschema to add to a string schema: `allOf: [VisibleText(…)]`.
 * Its own `x-error` names the field; `missing` answers a blank value, as the field's other rules do.
 */
export function VisibleText(field: string, opts: { multiline?: boolean; missing?: string } = {}) {
  return {
    type: 'string',
    pattern: opts.multiline ? MULTILINE_TEXT : LINE_TEXT,
    [X_ERROR]: `${field} must contain visible text, without control or text-direction characters${opts.multiline ? ' (line breaks and tabs are fine)' : ''}`,
    ...(opts.missing ? { [X_MISSING]: opts.missing } : {}),
  };
}

export const Name = Type.String({
  minLength: 1, maxLength: LIMITS.nameMax, pattern: '\\S',
  [X_ERROR]: `name must be 1–${LIMITS.nameMax} characters`,
  allOf: [VisibleText('name', { missing: `name must be 1–${LIMITS.nameMax} characters` })],
});

export const Username = Type.String({
  pattern: LIMITS.usernamePattern,
  [X_ERROR]: `username must be ${LIMITS.usernameMin}–${LIMITS.usernameMax} characters: letters, digits, _ . or -`,
});

export const Password = Type.String({
  minLength: LIMITS.passwordMin, maxLength: LIMITS.passwordMax,
  [X_ERROR]: `Password must be at least ${LIMITS.passwordMin} characters long`,
});

export const MobileNumber = Type.String({
  pattern: LIMITS.mobilePattern,
  [X_ERROR]: 'mobile_number must be 7–15 digits with an optional leading +',
});

/** Any non-empty string up to `max`: for fields that are checked by lookup, not by shape. */
export function Text(field: string, max: number) {
  return Type.String({ minLength: 1, maxLength: max, [X_ERROR]: `${field} must be 1–${max} characters` });
}

/** An admin-chosen auction or product id (LIMITS.idPattern). */
export function Id(field: string, missing?: string) {
  return Type.String({
    pattern: LIMITS.idPattern,
    [X_ERROR]: `${field} must be 1–${LIMITS.idMax} characters: letters, digits, _ - or .`,
    ...(missing ? { [X_MISSING]: missing } : {}),
  });
}

/**
 * A body field that names the caller (`user_id`, `username`), which existing clients send: their id or
 * username, checked against the token by the server (403 FORBIDDEN when it names someone else). Bounded like what it can name.
 */
export const CallerRef = Type.Union([
  Type.String({ maxLength: LIMITS.usernameMax }),
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
]);

/**
 * Path parameter `{id}`: any text up to the longest id (an unknown id is a 404, not a validation
 * error); longer cannot name anything and is a 400.
 */
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: LIMITS.idMax, [X_ERROR]: `id must be 1–${LIMITS.idMax} characters` }) });

/** A product or auction named in a body or query: an id, looked up (unknown → 404), so only its length is checked. */
export function IdRef(field: string, missing: string) {
  return Type.String({ minLength: 1, maxLength: LIMITS.idMax, [X_ERROR]: `${field} must be 1–${LIMITS.idMax} characters`, [X_MISSING]: missing });
}

/** A money amount in rupees; the 2-decimal rule is checked in code (see shared/money.ts). */
export function Rupees(opts: { minimum?: number; exclusiveMinimum?: number; maximum: number; message: string; missing?: string }) {
  const { message, missing, ...bounds } = opts;
  return Type.Number({ ...bounds, [X_ERROR]: message, ...(missing ? { [X_MISSING]: missing } : {}) });
}

/** A date-time as text: ISO-8601, with or without an offset (read in TIMEZONE when without). */
export function DateTimeText(field: string, missing?: string) {
  return Type.String({
    minLength: 1, maxLength: 40, pattern: '\\S',
    [X_ERROR]: `${field} must be a date-time such as 2026-11-24T07:45`,
    ...(missing ? { [X_MISSING]: missing } : {}),
  });
}

export const HealthBody = Type.Object({
  status: Type.String(),
  db: Type.String(),
  /** Which store serves this process: `sqlite` or `postgres` (docs/deploy.md). */
  store: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** `off` for one process; `ok` or `unreachable` when REDIS_URL joins several (docs/deploy.md). */
  redis: Type.Union([Type.Literal('off'), Type.Literal('ok'), Type.Literal('unreachable')]),
  /** True while the process drains before stopping (status 503 then, so balancers send no more). */
  draining: Type.Boolean(),
  /** Whether this process keeps the auction clock (endings, notices, settlement): one of a cluster does. */
  scheduler: Type.Union([Type.Literal('active'), Type.Literal('standby')]),
});
export const TimeBody = Type.Object({ server_time: Type.String({ description: 'ISO-8601 in TIMEZONE’s offset' }) });

/** `GET /api/demo`: the demo's sign-in accounts when this server is `npm run demo`'s, else null. */
export const DemoBody = Type.Object({
  demo: Type.Union([
    Type.Object({ admin: Type.String(), bidders: Type.Array(Type.String()), password: Type.String() }),
    Type.Null(),
  ]),
});
export type DemoBody = Static<typeof DemoBody>;

/** Keyset pages (docs/architecture.md, "Paged lists"): at most this many rows per page, and the default. */
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 50;

/** `?limit=`: a whole number from 1 to PAGE_MAX, as text (query strings are text). */
export const PageLimit = (defaultLimit: number = PAGE_DEFAULT) => Type.String({
  maxLength: 3, pattern: '^(?:[1-9][0-9]?|100)$', [X_ERROR]: `limit must be a whole number from 1 to ${PAGE_MAX}`,
  description: `At most this many (1–${PAGE_MAX}, default ${defaultLimit})`,
});

/** `?before=`: a row id as text (the `next_before` of the page before). */
export const BeforeId = (what: string) => Type.String({
  maxLength: 15, pattern: '^[0-9]{1,15}$', [X_ERROR]: `before must be ${what}`,
  description: 'Only rows older than this id: the `next_before` of the page before',
});
