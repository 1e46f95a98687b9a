import type { ApiErrorBody, ErrorCode } from '@auction/shared';
import { clearStoredSession, readToken } from './session-storage';

/**
 * The one HTTP client. Every call says whose token it carries (the admin token
 * on admin calls, the user token on user calls, none for public ones), so a browser holding both
 * sessions never sends the wrong one.
 */
export type AuthAs = 'user' | 'admin' | 'none';

export interface RequestOptions {
  as: AuthAs;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

/** Codes the client adds for failures that never reached a server answer. */
export type ClientErrorCode = 'NETWORK' | 'BAD_RESPONSE';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** The server's `error` text, when the server sent one. */
  readonly serverError: string | undefined;
  /** The server's `message` text (the bid flow reads this one). */
  readonly serverMessage: string | undefined;
  readonly field: string | undefined;
  /** The whole error body, for the answers that carry more than the usual fields (an import's `rows`). */
  readonly body: Partial<ApiErrorBody> | undefined;

  constructor(status: number, code: ErrorCode | ClientErrorCode, body?: Partial<ApiErrorBody>) {
    super(body?.error ?? body?.message ?? `Request failed (${status || code})`);
    this.status = status;
    this.code = code;
    this.serverError = body?.error;
    this.serverMessage = body?.message;
    this.field = body?.field;
    this.body = body;
  }
}

/** The server's error text when there is one, otherwise the caller's fallback. */
export function errorText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.serverError ? err.serverError : fallback;
}

/**
 * True when the call failed with a 401: the client has already ended the session and is leaving for /
 * (see `endSession` below), so callers show no error of their own for it.
 */
export function isSessionEnded(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401;
}

type NavigateFn = (to: string, options?: { replace?: boolean; state?: unknown }) => void;
let navigateFn: NavigateFn | null = null;

/** The router registers its navigate here so a 401 can leave without a full page reload. */
export function registerNavigate(fn: NavigateFn | null): void {
  navigateFn = fn;
}

/** Goes to an in-app page from outside a component (a store's action): the router's navigate, else a page load. */
export function navigateTo(to: string, options?: { replace?: boolean; state?: unknown }): void {
  if (navigateFn) navigateFn(to, options);
  else window.location.assign(to);
}

function apiBase(): string {
  const base = import.meta.env.VITE_API_BASE;
  return (base && base.length > 0 ? base : '/api').replace(/\/+$/, '');
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `${apiBase()}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

// Any 401 to a call that carried a token means the session is gone: clear it and go to / (docs/architecture.md, "The client").
function endSession(): void {
  clearStoredSession();
  navigateTo('/', { replace: true });
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && ('error' in value || 'message' in value);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  if (!(res.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function request<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // A FormData body (a photo upload) goes as it is: fetch sets the multipart content-type and its boundary.
  const form = body instanceof FormData;
  // Never a JSON content-type without a body: the server answers that with 400.
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  const token = options.as === 'none' ? null : readToken(options.as);
  if (token) headers.authorization = `Bearer ${token}`;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK');
  }

  const data = await readBody(res);
  // A visitor (no token sent) asked for something that needs an account: there is no session to end.
  if (res.status === 401 && token) endSession();
  if (!res.ok) {
    const errBody = isErrorBody(data) ? data : undefined;
    throw new ApiError(res.status, errBody?.code ?? 'BAD_RESPONSE', errBody);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, options: RequestOptions) => request<T>('GET', path, undefined, options),
  /** `body`: JSON, for the deletes that need a proof (the current password). */
  delete: <T>(path: string, options: RequestOptions, body?: unknown) => request<T>('DELETE', path, body, options),
  post: <T>(path: string, body: unknown, options: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body: unknown, options: RequestOptions) => request<T>('PUT', path, body, options),
  patch: <T>(path: string, body: unknown, options: RequestOptions) => request<T>('PATCH', path, body, options),
  /** POST multipart/form-data (a photo upload), with the same token, 401 handling and errors as the rest. */
  postForm: <T>(path: string, form: FormData, options: RequestOptions) => request<T>('POST', path, form, options),
};
