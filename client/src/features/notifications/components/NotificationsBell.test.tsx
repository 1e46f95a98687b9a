import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Notification } from '@auction/shared';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast/Toaster';
import { formatDateTime } from '../../../lib/format';
import { reconnect, lastSocket } from '../../../test/fake-socket';
import { jsonResponse, resetAppState, routeFetch, sampleUser, type FetchAnswer } from '../../../test/utils';
import { useSession } from '../../../lib/session';
import { injectLiveEvent, useLive } from '../../../lib/live';
import { NOTICE_NOW, makeNotice } from '../testing';
import { NotificationsBell } from './NotificationsBell';

vi.mock('socket.io-client', () => import('../../../test/fake-socket'));

const FIRST = 'GET /api/notifications?limit=20';
const READ = 'POST /api/notifications/read';
const server_time = new Date(NOTICE_NOW).toISOString();

const page = (notifications: Notification[], unread: number) => jsonResponse(200, { notifications, unread });

const outbid = makeNotice({ id: 12, minutesAgo: 5 });
const won = makeNotice({
  id: 11, kind: 'won', title: 'You won Brass Lamp', body: 'Your winning bid of ₹1,250 has been paid from your wallet.',
  link: '/auctions/AUC-2/products/LAMP-9', minutesAgo: 3 * 24 * 60, read: true,
});
const ending = makeNotice({
  id: 10, kind: 'ending_soon', title: 'Ending soon: Leica M6 and 2 more', body: 'Spring Sale ends in 10 minutes.', minutesAgo: 90,
});

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{`${pathname}${search}`}</div>;
}

function renderBell(routes: Record<string, FetchAnswer[]>) {
  const fetch = routeFetch(routes);
  render(
    <MemoryRouter initialEntries={['/user/dashboard']}>
      <NotificationsBell />
      <button type="button">Elsewhere</button>
      <LocationProbe />
      <Toaster />
    </MemoryRouter>,
  );
  return fetch;
}

const bell = () => screen.getByRole('button', { name: /^Notifications/ });
const panel = () => screen.getByRole('dialog', { name: 'Notifications' });
const location = () => screen.getByTestId('location').textContent;

async function openPanel() {
  await waitFor(() => expect(bell().getAttribute('aria-label')).not.toBe('Notifications'));
  fireEvent.click(bell());
  return within(panel());
}

describe('NotificationsBell', () => {
  beforeEach(() => {
    resetAppState();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOTICE_NOW);
    localStorage.setItem('token', 'u-tok');
    useSession.setState({ ready: true, user: sampleUser, userToken: 'u-tok' });
  });
  afterEach(() => {
    cleanup();
    useLive.getState().disconnect();
    vi.useRealTimers();
    resetAppState();
  });

  it('shows the unread count from the server as a badge and follows notification:new live', async () => {
    renderBell({ [FIRST]: [page([outbid, won], 3)] });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 3 unread'));
    expect(bell().querySelector('.notif-badge')?.textContent).toBe('3');

    const fresh = makeNotice({ id: 13, title: 'Outbid on Rolex', minutesAgo: 0 });
    act(() => injectLiveEvent({ event: 'notification:new', data: { notification: fresh, unread: 4, server_time } }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 4 unread');
    expect(bell().querySelector('.notif-badge')?.textContent).toBe('4');

    // The same notice again (another socket of this bidder's) is listed once.
    act(() => injectLiveEvent({ event: 'notification:new', data: { notification: fresh, unread: 4, server_time } }));
    const p = await openPanel();
    expect(p.getAllByRole('link').map((a) => a.querySelector('.notif-title')?.textContent)).toEqual([
      'Unread: Outbid on Rolex', 'Unread: Outbid on Leica M6', 'You won Brass Lamp',
    ]);
  });

  it('a notice sent again under its id (the latest standing on that lot) replaces the one listed, read or not', async () => {
    renderBell({ [FIRST]: [page([{ ...outbid, read: true }, won], 0)] });
    const p = await (async () => {
      fireEvent.click(bell());
      await waitFor(() => expect(within(panel()).getAllByRole('listitem')).toHaveLength(2));
      return within(panel());
    })();
    const lead = makeNotice({ id: outbid.id, kind: 'reinstated', title: 'You lead again on Leica M6', body: 'A higher bid was cancelled: your bid of ₹900 is the highest again.', minutesAgo: 0 });
    act(() => injectLiveEvent({ event: 'notification:new', data: { notification: lead, unread: 1, server_time } }));
    const items = p.getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('.notif-title')?.textContent)).toEqual(['Unread: You lead again on Leica M6', 'You won Brass Lamp']);
    expect(items[0]!.className).toContain('notif-unread');
    expect(within(items[0]!).getByText('Just now')).toBeTruthy();
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });

  it('has no badge at 0 and caps it at 99+', async () => {
    renderBell({ [FIRST]: [page([], 0)] });
    fireEvent.click(bell());
    await waitFor(() => expect(within(panel()).getByText('No notifications yet')).toBeTruthy());
    expect(bell().getAttribute('aria-label')).toBe('Notifications');
    expect(bell().querySelector('.notif-badge')).toBeNull();

    act(() => injectLiveEvent({ event: 'notification:new', data: { notification: outbid, unread: 120, server_time } }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 120 unread');
    expect(bell().querySelector('.notif-badge')?.textContent).toBe('99+');
  });

  it('opens a panel listing the notices (title, body, time, unread marked) with focus inside; Escape closes it back to the bell', async () => {
    renderBell({ [FIRST]: [page([outbid, ending, won], 2)] });
    const p = await openPanel();
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    expect(panel().contains(document.activeElement)).toBe(true);

    const items = p.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]!.className).toContain('notif-unread');
    expect(items[2]!.className).not.toContain('notif-unread');
    expect(within(items[0]!).getByText('The highest bid is now ₹1,001.')).toBeTruthy();
    expect(within(items[0]!).getByText('5 min ago').getAttribute('datetime')).toBe(outbid.created_at);
    expect(within(items[1]!).getByText('1 h ago')).toBeTruthy();
    expect(within(items[2]!).getByText(formatDateTime(won.created_at))).toBeTruthy();
    // Each kind has its own icon.
    const icons = items.map((li) => li.querySelector('.notif-icon')?.innerHTML);
    expect(new Set(icons).size).toBe(3);
    expect(p.getByRole('link', { name: /You won Brass Lamp/ }).getAttribute('href')).toBe('/auctions/AUC-2/products/LAMP-9');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(bell());
  });

  it('closes on a click outside', async () => {
    renderBell({ [FIRST]: [page([outbid], 1)] });
    await openPanel();
    fireEvent.pointerDown(panel());
    expect(screen.queryByRole('dialog')).not.toBeNull();
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a tap on the dimmed page under the sheet (phones) closes it', async () => {
    renderBell({ [FIRST]: [page([outbid], 1)] });
    await openPanel();
    // The scrim is inside the bell's own box: a pointerdown there is not "outside"; its click closes.
    fireEvent.pointerDown(screen.getByTestId('notif-scrim'));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    fireEvent.click(screen.getByTestId('notif-scrim'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByTestId('notif-scrim')).toBeNull();
  });

  it('following a notice marks it read (POST its id) and goes to its link', async () => {
    const fetch = renderBell({ [FIRST]: [page([outbid, won], 1)], [READ]: [jsonResponse(200, { unread: 0 })] });
    const p = await openPanel();
    fireEvent.click(p.getByRole('link', { name: /Outbid on Leica M6/ }));
    expect(location()).toBe('/auctions/AUC-1/products/P-1');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetch.body(READ)).toEqual({ ids: [12] });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));

    // One already read: nothing to send.
    fireEvent.click(bell());
    fireEvent.click(within(panel()).getByRole('link', { name: /You won Brass Lamp/ }));
    expect(location()).toBe('/auctions/AUC-2/products/LAMP-9');
    expect(fetch.calls(READ)).toHaveLength(1);
  });

  it('Mark all read posts no ids and clears every mark', async () => {
    const fetch = renderBell({ [FIRST]: [page([outbid, ending, won], 2)], [READ]: [jsonResponse(200, { unread: 0 })] });
    const p = await openPanel();
    fireEvent.click(p.getByRole('button', { name: 'Mark all read' }));
    expect(fetch.body(READ)).toEqual({});
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications'));
    expect(p.getAllByRole('listitem').some((li) => li.className.includes('notif-unread'))).toBe(false);
    expect(p.getByRole<HTMLButtonElement>('button', { name: 'Mark all read' }).disabled).toBe(true);
  });

  it('a failed mark-read says so and shows what the server holds again', async () => {
    const fetch = renderBell({
      [FIRST]: [page([outbid], 1)],
      [READ]: [jsonResponse(500, { error: 'Internal error', code: 'INTERNAL' })],
    });
    const p = await openPanel();
    fireEvent.click(p.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByText('Could not mark notifications as read')).toBeTruthy());
    await waitFor(() => expect(fetch.calls(FIRST)).toHaveLength(2));
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
  });

  it('Load more reads the page before the last notice shown', async () => {
    const first = Array.from({ length: 20 }, (_, i) => makeNotice({ id: 40 - i, title: `Notice ${40 - i}`, read: true }));
    const older = [makeNotice({ id: 20, title: 'Notice 20', read: true }), makeNotice({ id: 19, title: 'Notice 19', read: true })];
    const fetch = renderBell({ [FIRST]: [page(first, 0)], 'GET /api/notifications?before=21&limit=20': [page(older, 0)] });
    fireEvent.click(bell());
    const p = within(panel());
    await waitFor(() => expect(p.getAllByRole('listitem')).toHaveLength(20));
    fireEvent.click(p.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(p.getAllByRole('listitem')).toHaveLength(22));
    expect(fetch.calls('GET /api/notifications?before=21&limit=20')).toHaveLength(1);
    expect(p.getAllByRole('listitem').at(-1)!.textContent).toContain('Notice 19');
    // A short page was the last.
    expect(p.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when there is nothing yet, and offers no Load more', async () => {
    renderBell({ [FIRST]: [page([], 0)] });
    fireEvent.click(bell());
    await waitFor(() => expect(within(panel()).getByText('No notifications yet')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('reads the notices again after a reconnect', async () => {
    const fetch = renderBell({ [FIRST]: [page([outbid], 1), page([makeNotice({ id: 14 }), outbid], 2)] });
    act(() => {
      useLive.getState().connect('u-tok');
      lastSocket().open();
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread'));
    await act(async () => {
      reconnect();
      await Promise.resolve();
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notifications, 2 unread'));
    expect(fetch.calls(FIRST)).toHaveLength(2);
  });

  it('the socket hands notification:new to the bell', async () => {
    renderBell({ [FIRST]: [page([], 0)] });
    act(() => {
      useLive.getState().connect('u-tok');
      lastSocket().open();
    });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    await act(async () => { await Promise.resolve(); });
    act(() => lastSocket()['fire']('notification:new', { notification: outbid, unread: 1, server_time }));
    expect(bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');
  });
});
