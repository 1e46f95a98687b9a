import { ERROR_STATUS, type ErrorCode } from '@auction/shared';

/**
 * An error with a stable code from the catalog; the error handler turns it into the response. It is
 * an answer to the caller, not a fault: it carries no stack (capturing one was a measurable part of
 * a refused bid's cost).
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly field?: string;
  constructor(code: ErrorCode, message: string, field?: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.field = field;
    this.statusCode = ERROR_STATUS[code];
  }
}

/** A domain command's refusal: a result, not an exception (docs/architecture.md, "Commands and the event bus"). */
export interface Refusal {
  ok: false;
  code: ErrorCode;
  message: string;
  field?: string;
  /**
   * A refused bid is recorded as a `failed` bid (docs/money.md) unless this is false: a leader's refused
   * change to their own maximum is not a bid, and listing it would show the secret maximum's
   * neighbourhood in the lot's public history.
   */
  recorded?: false;
}

export type Result<T extends object> = ({ ok: true } & T) | Refusal;

export function refuse(code: ErrorCode, message: string, field?: string): Refusal {
  return field === undefined ? { ok: false, code, message } : { ok: false, code, message, field };
}

/** For routes: the success value, or the refusal thrown as an AppError for the error handler. */
export function unwrap<T extends object>(result: Result<T>): { ok: true } & T {
  if (!result.ok) throw new AppError(result.code, result.message, result.field);
  return result;
}
