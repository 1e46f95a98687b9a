import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_STATUS, PRODUCT_IMPORT_MAX_BYTES, X_ERROR, X_MISSING, type ApiErrorBody, type ErrorCode } from '@auction/shared';
import { isStoreUnavailable } from '../db/index.js';
import { AppError } from '../errors.js';
import { CLIENT_DIST } from '../paths.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: Record<string, unknown>;
  data?: unknown;
}

const isBlank = (v: unknown) => (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/** The error code a reply was answered with (for /metrics: bids refused by code). */
const kErrorCode = Symbol('error code');
type CodedResponse = { [kErrorCode]?: ErrorCode };
export const errorCodeOf = (reply: FastifyReply): ErrorCode | undefined => (reply.raw as CodedResponse)[kErrorCode];

function send(reply: FastifyReply, code: ErrorCode, message: string, field?: string) {
  (reply.raw as CodedResponse)[kErrorCode] = code;
  const body: ApiErrorBody = { error: message, message, code };
  if (field) body.field = field;
  return reply.code(ERROR_STATUS[code]).type('application/json; charset=utf-8').send(body);
}

/** Where a request refused before routing keeps Fastify's reason while it is routed again. */
const kRefusedUrl = Symbol('refused url');
type RefusableMessage = IncomingMessage & { [kRefusedUrl]?: string };

/**
 * Fastify's `frameworkErrors` option: a URL refused before any route is matched (bad
 * percent-encoding, a path segment over 100 characters) would get Fastify's own body, without the
 * error shape and without the hooks that add the security headers. Route it again to a path that
 * matches nothing, so the not-found handler answers through the usual hooks, with the reason kept.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const raw = request.raw as RefusableMessage;
  raw[kRefusedUrl] = err.code;
  raw.url = '/api/';
  request.server.routing(raw, reply.raw);
}

const REFUSED_URL: Record<string, [ErrorCode, string]> = {
  FST_ERR_BAD_URL: ['VALIDATION', 'The address is not valid: check its percent-encoding'],
  FST_ERR_MAX_PARAM_LENGTH: ['VALIDATION', 'A part of the address is over 100 characters'],
};

/** The catalog code for an error status that arrives without a body. */
const BARE_STATUS_CODE: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE', 429: 'RATE_LIMITED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** One sentence naming the field and why, from the first schema violation. */
export function describeValidation(errors: AjvError[], context: string): { field: string; message: string } {
  const anyOf = errors.find((e) => e.keyword === 'anyOf');
  // A value that may be an object or null (an address, a payout account) and is a wrong object: what is
  // wrong inside it says more than "wrong type or value".
  // The branch the value's type matched (a field missing from the object, a string breaking its
  // pattern) rather than the others' type errors; a choice among constants stays "one of …".
  const inside = anyOf && (errors.find((e) => e.keyword !== 'anyOf' && e.instancePath.startsWith(`${anyOf.instancePath}/`))
    ?? errors.find((e) => e.instancePath === anyOf.instancePath && !['anyOf', 'type', 'const', 'enum'].includes(e.keyword)));
  const err = inside ?? anyOf ?? errors[0];
  if (!err) return { field: context, message: `${context} is not valid` };
  const pathField = err.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (err.keyword === 'required') {
    const missing = String(err.params.missingProperty);
    const properties = err.parentSchema?.properties as Record<string, Record<string, unknown>> | undefined;
    const worded = properties?.[missing]?.[X_MISSING];
    return { field: pathField ? `${pathField}.${missing}` : missing, message: typeof worded === 'string' ? worded : `${pathField ? `${pathField}.` : ''}${missing} is required` };
  }
  const field = pathField || context;
  const blank = err.parentSchema?.[X_MISSING];
  if (typeof blank === 'string' && isBlank(err.data)) return { field, message: blank };
  if (!pathField && err.keyword === 'type') return { field, message: `${context} must be ${context === 'body' ? 'a JSON object' : article(String(err.params.type))}` };
  if (err.keyword === 'type') return { field, message: `${field} must be ${article(String(err.params.type))}` };
  const custom = err.parentSchema?.[X_ERROR];
  if (typeof custom === 'string') return { field, message: custom };
  if (err.keyword === 'anyOf' || err.keyword === 'const' || err.keyword === 'enum') {
    const options = (err.parentSchema?.anyOf as { const?: unknown }[] | undefined)?.map((s) => s.const).filter((c) => c !== undefined);
    if (options?.length) return { field, message: `${field} must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}` };
    if (err.keyword === 'const') return { field, message: `${field} must be ${JSON.stringify(err.params.allowedValue)}` };
    return { field, message: `${field} has the wrong type or value` };
  }
  return { field, message: `${field} ${err.message ?? 'is not valid'}` };
}

/**
 * One error handler for the whole app: every error leaves as `{ error, message, code }` with the
 * catalog's status; nothing of a 5xx's internals reaches the client.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { code?: string }, req, reply) => {
    // 64 KiB, but a CSV body has its route's own limit (the products import).
    const limit = /^text\/csv\b/i.test(req.headers['content-type'] ?? '') ? PRODUCT_IMPORT_MAX_BYTES : 64 * 1024;
    const tooLarge = `Request body must not exceed ${limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`}`;
    if (err instanceof AppError) return send(reply, err.code, err.message, err.field);
    if (err.validation) {
      const { field, message } = describeValidation(err.validation, err.validationContext ?? 'body');
      return send(reply, 'VALIDATION', message, field);
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 'PAYLOAD_TOO_LARGE', tooLarge);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, 'VALIDATION', 'Request body is not valid JSON', 'body');
      case 'RATE_LIMITED':
        return send(reply, 'RATE_LIMITED', err.message);
    }
    // The store is busy (a lock held past its timeout, contention retried too often) or unreachable.
    if (isStoreUnavailable(err)) {
      reply.header('retry-after', '1');
      return send(reply, 'UNAVAILABLE', 'The service is busy; please retry in a moment');
    }
    const status = err.statusCode ?? 500;
    if (err instanceof SyntaxError && status === 400) return send(reply, 'VALIDATION', 'Request body is not valid JSON', 'body');
    if (status === 404) return send(reply, 'NOT_FOUND', 'Not found');
    if (status === 413) return send(reply, 'PAYLOAD_TOO_LARGE', tooLarge);
    if (status === 415) return send(reply, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
    if (status === 429) return send(reply, 'RATE_LIMITED', 'Too many requests; please slow down');
    if (status === 503) return send(reply, 'UNAVAILABLE', 'The service is busy; please retry in a moment');
    if (status >= 400 && status < 500) return send(reply, 'VALIDATION', err.message || 'Bad request');
    req.log.error({ err }, 'request failed');
    return send(reply, 'INTERNAL', 'Something went wrong on our side; please try again');
  });

  // A plugin that answers an error status without a body (the WebSocket route called without an
  // upgrade answers a bare 404) still leaves in the error shape.
  app.addHook('onSend', async (req, reply, payload) => {
    const empty = payload === undefined || payload === null || payload === '';
    if (reply.statusCode < 400 || !empty || req.method === 'HEAD') return payload;
    const code = BARE_STATUS_CODE[reply.statusCode] ?? (reply.statusCode >= 500 ? 'INTERNAL' : 'VALIDATION');
    const message = code === 'NOT_FOUND' ? `Not found: ${req.method} ${req.url.split('?')[0] ?? ''}` : 'The request could not be served';
    const body: ApiErrorBody = { error: message, message, code };
    reply.type('application/json; charset=utf-8');
    return JSON.stringify(body);
  });

  const indexHtml = path.join(CLIENT_DIST, 'index.html');
  app.setNotFoundHandler((req, reply) => {
    const refused = (req.raw as RefusableMessage)[kRefusedUrl];
    if (refused) {
      const [code, message] = REFUSED_URL[refused] ?? ['INTERNAL', 'Something went wrong on our side; please try again'];
      return send(reply, code, message, code === 'VALIDATION' ? 'url' : undefined);
    }
    const url = req.url.split('?')[0] ?? '';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && url !== '/api' && !url.startsWith('/api/') && !url.startsWith('/socket.io');
    // History fallback: any page path gets the app, whose router shows the screen (or redirects to /).
    if (isPage && !path.extname(url) && fs.existsSync(indexHtml)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', CLIENT_DIST);
    }
    return send(reply, 'NOT_FOUND', `No such route: ${req.method} ${url}`);
  });
}
