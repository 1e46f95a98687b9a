import { useCallback, useEffect, useId, useRef, useState, type FocusEvent, type RefObject } from 'react';
import type { Notification } from '@auction/shared';
import { Link, useLocation } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { isSessionEnded } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useServerQuery, type ServerStatus } from '../../../lib/query';
import { KIND_LOOK, badgeText, bellLabel, noticeTime, type NotificationFeed } from '../model';
import { loadMoreNotifications, markNotificationsRead, notificationFeed } from '../store/notifications-store';
import './notifications.css';

export const LOAD_MORE_FAILED = 'Could not load older notifications';

/**
 * The bidder's bell in the header (docs/notifications.md): the unread count as a badge, live, and on click the
 * latest notices in a popover (a full-width sheet on phones). Escape, the close button and a click
 * outside close it; focus moves into it and, unless the click went elsewhere, back to the bell.
 */
export function NotificationsBell() {
  // A failed read leaves the bell without a count; opening the panel offers to try again.
  const feed = useServerQuery(notificationFeed.options());
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const bell = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const { pathname, search } = useLocation();
  const unread = feed.data?.unread ?? 0;
  const badge = badgeText(unread);

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) bell.current?.focus();
  }, []);

  // A navigation (a notice followed, a sidebar link) closes the panel.
  useEffect(() => setOpen(false), [pathname, search]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      close(true);
    };
    const onPointer = (e: Event) => {
      if (!root.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close]);

  return (
    <div className="notif" ref={root}>
      <button ref={bell} type="button" className="icon-btn notif-bell" aria-label={bellLabel(unread)}
        aria-haspopup="dialog" aria-expanded={open} aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close(true) : setOpen(true))}>
        <Icon name="bell" size={20} />
        {badge && <span className="notif-badge" aria-hidden="true">{badge}</span>}
      </button>
      {/* Phones only (CSS): the page under the sheet is dimmed, and a tap on it closes the sheet without reaching the page. */}
      {open && <div className="notif-scrim" aria-hidden="true" data-testid="notif-scrim" onClick={() => close(false)} />}
      {open && (
        <NotificationsPanel id={panelId} feed={feed.data} status={feed.status} retry={() => void feed.refetch()}
          onClose={close} bell={bell} />
      )}
    </div>
  );
}

interface PanelProps {
  id: string;
  feed: NotificationFeed | undefined;
  status: ServerStatus;
  retry: () => void;
  onClose: (restoreFocus: boolean) => void;
  bell: RefObject<HTMLButtonElement | null>;
}

function NotificationsPanel({ id, feed, status, retry, onClose, bell }: PanelProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Times are shown relative to when the panel opened.
  const [now] = useState(() => Date.now());

  // Focus moves into the panel as it opens; a failed first read is tried again (once, as it opens:
  // what the feed was then, not what it becomes).
  const opening = useRef({ feed, status, retry });
  useEffect(() => {
    panel.current?.focus();
    const { feed: shown, status: was, retry: again } = opening.current;
    if (shown === undefined && was === 'error') again();
  }, []);

  // Tabbing out of it (not to the bell) closes it.
  function onBlur(e: FocusEvent) {
    const to = e.relatedTarget as Node | null;
    if (to && !panel.current?.contains(to) && to !== bell.current) onClose(false);
  }

  async function onLoadMore() {
    setLoadingMore(true);
    try {
      await loadMoreNotifications();
    } catch (err) {
      if (!isSessionEnded(err)) toast.error(LOAD_MORE_FAILED);
    } finally {
      setLoadingMore(false);
    }
  }

  function onFollow(n: Notification) {
    if (!n.read) void markNotificationsRead([n.id]);
    onClose(false);
  }

  let body;
  if (feed === undefined && status === 'error') {
    body = (
      <EmptyState icon="alert" title="Could not load notifications">
        <button type="button" className="btn btn-outline btn-sm" onClick={retry}>Try again</button>
      </EmptyState>
    );
  } else if (feed === undefined) {
    body = <Spinner label="Loading notifications…" />;
  } else if (feed.notifications.length === 0) {
    body = <EmptyState icon="bell" title="No notifications yet">Outbids, wins and auctions ending soon will show up here.</EmptyState>;
  } else {
    body = (
      <ul className="notif-list">
        {feed.notifications.map((n) => (
          <NoticeItem key={n.id} notice={n} now={now} onFollow={onFollow} />
        ))}
      </ul>
    );
  }

  const unread = feed?.unread ?? 0;
  return (
    <div ref={panel} id={id} className="notif-panel" role="dialog" aria-labelledby={titleId} tabIndex={-1} onBlur={onBlur}>
      <div className="notif-head">
        <h2 id={titleId} className="notif-heading">Notifications</h2>
        <button type="button" className="btn btn-outline btn-sm" disabled={unread === 0} onClick={() => void markNotificationsRead()}>
          <Icon name="check" size={14} /> Mark all read
        </button>
        <button type="button" className="icon-btn notif-close" aria-label="Close notifications" onClick={() => onClose(true)}>
          <Icon name="close" size={18} />
        </button>
      </div>
      <div className="notif-body">{body}</div>
      {feed?.more && feed.notifications.length > 0 && (
        <div className="notif-foot">
          <button type="button" className="btn btn-outline btn-sm" disabled={loadingMore} onClick={() => void onLoadMore()}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}

function NoticeItem({ notice: n, now, onFollow }: { notice: Notification; now: number; onFollow: (n: Notification) => void }) {
  const look = KIND_LOOK[n.kind] ?? KIND_LOOK.lost;
  return (
    <li className={`notif-item${n.read ? '' : ' notif-unread'}`}>
      <Link to={n.link} className="notif-link" onClick={() => onFollow(n)}>
        <span className={`notif-icon notif-tone-${look.tone}`} aria-hidden="true"><Icon name={look.icon} size={16} /></span>
        <span className="notif-text">
          <span className="notif-title">
            {!n.read && <span className="visually-hidden">Unread: </span>}
            {n.title}
          </span>
          <span className="notif-message">{n.body}</span>
          <time className="notif-time" dateTime={n.created_at} title={formatDateTime(n.created_at)}>{noticeTime(n.created_at, now)}</time>
        </span>
        {!n.read && <span className="notif-dot" aria-hidden="true" />}
      </Link>
    </li>
  );
}
