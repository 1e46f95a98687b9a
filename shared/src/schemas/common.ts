import { Type, type TSchema } from 'typebox';
import { ERROR_CODES } from '../errors.js';
import { LIMITS } from '../limits.js';

/**
 * `x-error` carries the human sentence the server answers when a value breaks the schema's bounds,
 * so the rule and its message live in one place. The server's validator knows the keyword.
 */
export const X_ERROR = 'x-error';

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    message: Type.String(),
    code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
    field: Type.Optional(Type.String()),
  },
  { description: 'Every error: human text twice (error, message) and a stable code' },
);

/** Response entries for the error statuses a route can answer, for its schema. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}

export const MessageBody = Type.Object({ message: Type.String() });

export const Name = Type.String({
  minLength: 1, maxLength: LIMITS.nameMax, pattern: '\\S',
  [X_ERROR]: `name must be 1–${LIMITS.nameMax} characters`,
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

export const HealthBody = Type.Object({ status: Type.String(), db: Type.String() });
export const TimeBody = Type.Object({ server_time: Type.String({ description: 'ISO-8601 UTC' }) });
