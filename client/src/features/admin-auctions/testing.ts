// Test-only helpers: admin auction and product factories, and a fetch stub that answers by method and path.
import type { AdminAuction, Product } from '@auction/shared';
import { vi } from 'vitest';
import { jsonResponse } from '../../test/utils';

export function makeAdminAuction(over: Partial<AdminAuction> = {}): AdminAuction {
  return {
    id: 'AUC-1', name: 'Spring Sale', valid_until: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    product_ids: ['P-1'], registrations: [], product_count: 1, status: 'active', created_by: 1,
    created_at: '2026-03-01T10:00:00.000Z', settled_at: null, ...over,
  };
}

export function makeProduct(over: Partial<Product> = {}): Product {
  return { id: 'P-1', name: 'Ming Vase', description: 'Blue and white', status: 'available', auction_id: 'AUC-1', highest_bid: 0, bid_count: 0, ...over };
}

type Answer = Response | Error | ((body: unknown) => Response);

/** Stubs fetch; `routes['POST /api/admin/auction']` lists the answers in turn (the last repeats). */
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
    body: (key: string, n = 0): unknown => {
      const init = fn.mock.calls.filter(([url, i]) => `${i?.method ?? 'GET'} ${url}` === key)[n]?.[1];
      return typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    },
  };
}
