import { AppError } from '../errors.js';
import type { App } from '../context.js';

// Request bodies (app.ts registers these on the root instance): JSON only, an empty body reads as {},
// and no text the platform keeps holds a NUL character.

/**
 * The path (`a.b.0`) of the first string holding a NUL character, keys included; null when none.
 * Iterative: a 64 KiB body may nest thousands of levels deep.
 */
export function findNul(root: unknown): string | null {
  // Each node keeps its parent and key; the path is spelled out only for the one that is found.
  interface Node { value: unknown; key: string; parent: Node | null }
  const pathOf = (n: Node | null): string => {
    const keys: string[] = [];
    for (let at = n; at && at.parent; at = at.parent) keys.push(at.key);
    return keys.reverse().join('.') || 'body';
  };
  const stack: Node[] = [{ value: root, key: '', parent: null }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.value === 'string') {
      if (node.value.includes('\u0000')) return pathOf(node);
    } else if (typeof node.value === 'object' && node.value !== null) {
      for (const [key, value] of Object.entries(node.value)) {
        if (key.includes('\u0000')) return pathOf(node);
        stack.push({ value, key, parent: node });
      }
    }
  }
  return null;
}

/** The content-type parsers: JSON only, and an empty JSON body reads as {}. */
export function jsonBodies(app: App): void {
  // JSON only: a text/plain body is 415, not a string handed to a route.
  app.removeContentTypeParser('text/plain');
  // An empty JSON body (DELETE, settle, or a client that always sends the header) reads as {}.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, {});
    return parseJson(req, body as string, done);
  });
}

/** The preValidation hook: a request without a body reads as {}; a NUL character anywhere is a 400. */
export function emptyBodyAndNul(app: App): void {
  // A request without a body reads as {}: optional fields stay optional, required ones are named.
  app.addHook('preValidation', async (req) => {
    if (req.body === undefined && req.method !== 'GET' && req.method !== 'HEAD') req.body = {};
    // No text the platform keeps may hold a NUL character (PostgreSQL cannot store one, and no name,
    // id or description needs one): refused as a validation error naming the field, on every store.
    const nul = findNul({ ...(req.params as object), ...(req.query as object) }) ?? findNul(req.body);
    if (nul !== null) throw new AppError('VALIDATION', `${nul} must not contain NUL characters`, nul);
  });
}
