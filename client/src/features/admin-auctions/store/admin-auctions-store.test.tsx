import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminAuction } from '@auction/shared';
import { lastSocket, reconnect } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, sampleAdmin } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { liveSummary, makeAdminAuction } from '../testing';
import { RELOAD_MS, useAdminAuctions } from './admin-auctions-store';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const open = makeAdminAuction({ id: 'AUC-1', name: 'Spring Sale' });
const other = makeAdminAuction({ id: 'AUC-2', name: 'Coins' });
const created = makeAdminAuction({ id: 'AUC-3', name: 'Stamps' });

/**
 * GET /admin/auctions/my answers from `lists` in turn, each when the test resolves it (`answer(n, list)`);
 * POST /admin/auction answers `created`.
 */
function serveLists() {
  const waiting: ((r: Response) => void)[] = [];
  const fn = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'POST' && url === '/api/admin/auction') {
      return Promise.resolve(jsonResponse(201, { message: 'Auction created successfully!', auction: created }));
    }
    if (url === '/api/admin/auctions/my') return new Promise<Response>((resolve) => waiting.push(resolve));
    return Promise.resolve(jsonResponse(404, { error: `unrouted ${url}`, code: 'NOT_FOUND' }));
  });
  vi.stubGlobal('fetch', fn);
  return {
    reads: () => waiting.length,
    answer: async (n: number, list: AdminAuction[]) => {
      await act(async () => {
        waiting[n]!(jsonResponse(200, list));
        await new Promise((r) => setTimeout(r, 0));
      });
    },
  };
}

const ids = () => useAdminAuctions.getState().auctions.map((a) => `${a.id} ${a.name} ${a.status}`);

describe('admin auctions list', () => {
  beforeEach(() => {
    resetAppState();
    useSession.setState({ ready: true, admin: sampleAdmin, adminToken: 'tok' });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    resetAppState();
  });

  it('drops a reply read before the re-read a burst of auction:updated asked for', async () => {
    const server = serveLists();
    renderHook(() => useAdminAuctions((s) => s.auctions));
    void useAdminAuctions.getState().load();
    expect(server.reads()).toBe(1);
    act(() => injectLiveEvent({ event: 'auction:updated', data: liveSummary(open, { name: 'Spring Sale II', product_count: 2 }) }));
    await waitFor(() => expect(server.reads()).toBe(2), { timeout: RELOAD_MS * 4 });
    await server.answer(1, [{ ...open, name: 'Spring Sale II', product_ids: ['P-1', 'P-9'] }, other]);
    expect(ids()).toEqual(['AUC-1 Spring Sale II active', 'AUC-2 Coins active']);
    // The first read's answer comes last: it was read before the edit.
    await server.answer(0, [open]);
    expect(ids()).toEqual(['AUC-1 Spring Sale II active', 'AUC-2 Coins active']);
    expect(useAdminAuctions.getState().auctions[0]?.product_ids).toEqual(['P-1', 'P-9']);
  });

  it('folds a live event and a create made during a read over its reply', async () => {
    const server = serveLists();
    renderHook(() => useAdminAuctions((s) => s.auctions));
    void useAdminAuctions.getState().load();
    expect(useAdminAuctions.getState().status).toBe('loading');
    act(() => injectLiveEvent({ event: 'auction:settled', data: { auction_id: 'AUC-1', server_time: open.created_at } }));
    await act(async () => { await useAdminAuctions.getState().create({ id: 'AUC-3', name: 'Stamps', valid_until: created.valid_until, product_ids: ['P-3'] }); });
    await server.answer(0, [open, other]);
    expect(ids()).toEqual(['AUC-3 Stamps active', 'AUC-1 Spring Sale settled', 'AUC-2 Coins active']);
    expect(useAdminAuctions.getState().status).toBe('ready');
  });

  it('a session change drops the reply in flight and forgets the list', async () => {
    const server = serveLists();
    const { result } = renderHook(() => useAdminAuctions());
    void useAdminAuctions.getState().load();
    await server.answer(0, [open]);
    expect(result.current.auctions).toHaveLength(1);
    void useAdminAuctions.getState().load();
    act(() => useSession.setState({ admin: { ...sampleAdmin, id: 2, username: 'meera' }, adminToken: 'tok-2' }));
    expect(result.current.auctions).toEqual([]);
    await server.answer(1, [open, other]);
    expect(result.current.auctions).toEqual([]);
  });

  it('a reconnect reads the list again while it is shown, and not otherwise', async () => {
    const server = serveLists();
    useLive.getState().connect('tok');
    act(() => lastSocket().open());
    const shown = renderHook(() => useAdminAuctions((s) => s.auctions));
    void useAdminAuctions.getState().load();
    await server.answer(0, [open]);
    act(() => reconnect());
    await waitFor(() => expect(server.reads()).toBe(2));
    await server.answer(1, [open, other]);
    expect(ids()).toHaveLength(2);

    shown.unmount();
    act(() => reconnect());
    await new Promise((r) => setTimeout(r, 20));
    expect(server.reads()).toBe(2);
    expect(ids()).toHaveLength(2);
  });
});
