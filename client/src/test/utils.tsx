import { useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { useToasts } from '../components/ui/toast/toast-store';
import { useSession } from '../lib/session';
import { freezeClock } from '../lib/live';
import { registerNavigate } from '../lib/api-client';
import { resetServerData } from '../lib/live-query';

/** Renders the router's current path so tests can assert where navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Stubs global fetch with a mock answering `responses` in turn (the last one repeats). */
export function mockFetch(...responses: (Response | Error)[]) {
  let i = 0;
  const fn = vi.fn(async (_url: string, _init?: RequestInit): Promise<Response> => {
    const next = responses[Math.min(i++, responses.length - 1)];
    if (next === undefined) throw new Error('mockFetch: no response configured');
    if (next instanceof Error) throw next;
    return next.clone();
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** The JSON body of the `call`-th request a fetch mock received. */
export function sentBody(fetchMock: ReturnType<typeof mockFetch>, call = 0): unknown {
  const body = fetchMock.mock.calls[call]?.[1]?.body;
  return typeof body === 'string' ? (JSON.parse(body) as unknown) : body;
}

/**
 * Fresh global state between tests: storage, session, toasts, the query cache, navigate hook, stubs.
 * Components need no QueryClientProvider in tests: lib/query.ts's hooks pass the app's one client.
 */
export function resetAppState(): void {
  localStorage.clear();
  useSession.setState({ ready: false, sessionEnded: false, user: null, userToken: null, admin: null, adminToken: null });
  useToasts.getState().clear();
  resetServerData();
  registerNavigate(null);
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
}

export const sampleUser = { id: 7, username: 'asha', name: 'Asha Rao', mobile_number: '9876543210' };
export const sampleAdmin = { id: 1, username: 'ravi', name: 'Ravi Kumar', mobile_number: '9123456780', is_owner: false };

export type FetchAnswer = Response | Error | ((body: unknown) => Response);

/**
 * Stubs fetch by method and path: `routes['POST /api/rollback-bid']` lists the answers in turn (the last
 * repeats); an unrouted call gets a 404. `calls(key)` and `body(key, n)` read what was sent.
 */
export function routeFetch(routes: Record<string, FetchAnswer[]>) {
  const used: Record<string, number> = {};
  const fn = vi.fn(async (url: string, init?: RequestInit): Promise<Response> => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    const answers = routes[key];
    if (!answers || answers.length === 0) return jsonResponse(404, { error: `unrouted ${key}`, code: 'NOT_FOUND' });
    const i = used[key] ?? 0;
    used[key] = i + 1;
    const answer = answers[Math.min(i, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(typeof init?.body === 'string' ? JSON.parse(init.body) : undefined);
    return answer.clone();
  });
  vi.stubGlobal('fetch', fn);
  return {
    fn,
    calls: (key: string) => fn.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key),
    body: (key: string, n = 0): unknown => {
      const init = fn.mock.calls.filter(([url, i]) => `${i?.method ?? 'GET'} ${url}` === key)[n]?.[1];
      return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    },
  };
}

/** Puts the server-corrected clock at `now` (ms) and keeps it there: countdowns read exactly what the test set. */
export function setServerNow(now: number): void {
  freezeClock(now);
}
