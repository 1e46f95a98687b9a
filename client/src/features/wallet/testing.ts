// Test-only helpers: a transaction factory and a fetch stub that answers by method and path.
import type { Transaction } from '@auction/shared';
import { vi } from 'vitest';
import { jsonResponse } from '../../test/utils';

let nextId = 1;

export function makeTx(type: Transaction['type'], amount: number, over: { notes?: string | null; product_id?: string | null; _id?: string; timestamp?: string } = {}): Transaction {
  return {
    _id: over._id ?? String(nextId++),
    type,
    amount,
    timestamp: over.timestamp ?? '2026-03-01T10:00:00.000Z',
    meta: { notes: over.notes ?? null, product_id: over.product_id ?? null },
  };
}

type Answer = Response | Error | ((body: unknown) => Response);

/** Stubs fetch; `routes['POST /api/rollback-bid']` lists the answers in turn (the last repeats). */
export function routeFetch(routes: Record<string, Answer[]>) {
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
  };
}
