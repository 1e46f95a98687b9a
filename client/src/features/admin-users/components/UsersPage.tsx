import { formatRupees } from '@auction/shared';
import type { AdminUser } from '@auction/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { LoadMore } from '../../../components/ui/LoadMore';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatCard } from '../../../components/ui/StatCard';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText, isSessionEnded } from '../../../lib/api-client';
import { downloadText } from '../../../lib/csv';
import { formatDate } from '../../../lib/format';
import { patchQueries } from '../../../lib/live-query';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { queryClient } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import {
  adminUserPagesKey, adminUserPagesQuery, adminUsersKey, adminUsersQuery, setUserStatus, withUserInPages, type UserPages, type UserStatus,
} from '../api/users-api';
import { OWNER_ONLY, USERS_CSV, initials, userStats, usersCsv, withUser } from '../model';
import './users.css';

export const SEARCH_DEBOUNCE_MS = 300;

/** /admin/users: the platform owner's view of every bidder (real data); other admins see why not. */
export function UsersPage() {
  const isOwner = useSession((s) => s.admin?.is_owner === true);
  const [forbidden, setForbidden] = useState(false);
  if (!isOwner || forbidden) return <OwnerOnly />;
  return <OwnerUsers onForbidden={() => setForbidden(true)} />;
}

function OwnerOnly() {
  return (
    <div className="page users-page">
      <section className="card users-forbidden" role="alert" aria-labelledby="users-forbidden-title">
        <span className="users-forbidden-icon" aria-hidden="true"><Icon name="shield" size={30} /></span>
        <h2 id="users-forbidden-title" className="users-forbidden-title">{OWNER_ONLY}</h2>
        <p className="muted">User accounts hold bidders’ money and personal details, so only the first admin of the platform can see or change them.</p>
        <Link to={paths.admin.dashboard} className="btn btn-primary">
          <Icon name="arrow-left" size={16} /> Back to Dashboard
        </Link>
      </section>
    </div>
  );
}

const isForbidden = (err: unknown) => err instanceof ApiError && err.status === 403;

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function OwnerUsers({ onForbidden }: { onForbidden: () => void }) {
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get('q') ?? '';
  const [query, setQuery] = useState(urlQuery);
  const [confirming, setConfirming] = useState<AdminUser | null>(null);
  const [pendingId, setPendingId] = useState<number | null>(null);

  // Everyone (for the numbers), read on mount and after "Try again"; a failure shows in the card.
  const all = useServerQuery(adminUsersQuery(''), { onError: (err) => { if (isForbidden(err)) onForbidden(); } });

  // The table: a page at a time, by the server's search (?q=, debounced and kept in the URL).
  const q = query.trim();
  const term = useSettled(q, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (term === urlQuery.trim()) return;
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (term) next.set('q', term);
      else next.delete('q');
      return next;
    }, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new settled text writes the URL
  }, [term]);
  const shownTerm = urlQuery.trim();
  // A new search keeps the rows shown until its first page comes.
  const pages = useInfiniteQuery({ ...adminUserPagesQuery(shownTerm), placeholderData: keepPreviousData }, queryClient);
  const forbiddenRef = useRef(onForbidden);
  useEffect(() => {
    forbiddenRef.current = onForbidden;
  });
  const pagesError = pages.error;
  useEffect(() => {
    if (!pagesError || isSessionEnded(pagesError)) return;
    if (isForbidden(pagesError)) forbiddenRef.current();
    else toast.error(errorText(pagesError, 'Failed to load data'));
  }, [pagesError]);

  const statusChange = useServerMutation({
    mutationFn: ({ user, status }: { user: AdminUser; status: UserStatus }) => setUserStatus(user.id, status),
    onMutate: ({ user }) => setPendingId(user.id),
    onSuccess: (res, { status }) => {
      // The answer is newer than any list shown or on its way: everyone's, every search's and every page.
      patchQueries<AdminUser[]>({ queryKey: adminUsersKey }, (list) => withUser(list, res.user));
      patchQueries<UserPages>({ queryKey: adminUserPagesKey }, (data) => withUserInPages(data, res.user));
      toast.success(status === 'inactive' ? `${res.user.name} deactivated` : `${res.user.name} activated`);
    },
    onError: (err) => {
      if (isForbidden(err)) onForbidden();
      else toast.error(errorText(err, 'Update failed'));
    },
    onSettled: () => {
      setPendingId(null);
      setConfirming(null);
    },
  });
  const applyStatus = (user: AdminUser, status: UserStatus) => statusChange.mutateAsync({ user, status }).catch(() => undefined);

  function toggle(user: AdminUser) {
    if (user.status === 'active') setConfirming(user);
    else void applyStatus(user, 'active');
  }

  // While a new search text settles, the last search's rows stay; a text without an answer yet shows the spinner.
  const rows = pages.data?.pages.flatMap((p) => p.users);

  /** Every user the search finds (not only the pages shown), read whole for the file. */
  async function exportUsers() {
    let found: AdminUser[];
    try {
      found = await queryClient.fetchQuery(adminUsersQuery(shownTerm));
    } catch (err) {
      if (!isSessionEnded(err)) toast.error(errorText(err, 'Export failed'));
      return;
    }
    if (found.length === 0) {
      toast.warning('No users to export');
      return;
    }
    downloadText(USERS_CSV, usersCsv(found));
    toast.success('CSV file generated.');
  }
  const loadMore = async () => {
    const r = await pages.fetchNextPage({ cancelRefetch: false });
    if (r.isError) throw r.error;
  };

  // A 403 kept from an earlier visit: the page says why at once (the read on its way says it again).
  if (isForbidden(all.error)) return <OwnerOnly />;

  const stats = all.data ? userStats(all.data) : null;
  const show = (v: number | string | null | undefined) => (v === undefined || v === null ? '—' : v);

  return (
    <div className="page page-stack users-page">
      <section className="stat-grid users-stats" aria-label="Users summary">
        <StatCard label="Total Users" value={show(stats?.total)} icon="users" tone="primary" />
        <StatCard label="Active" value={show(stats?.active)} icon="check" tone="success" />
        <StatCard label="Inactive" value={show(stats?.inactive)} icon="alert" tone="danger" />
        <StatCard label="Total Wallet Value" value={show(stats && formatRupees(stats.walletTotal))} icon="wallet" tone="warning" />
      </section>

      <section className="card">
        <div className="card-header users-toolbar">
          <div className="users-search">
            <label htmlFor="users-search" className="visually-hidden">Search users</label>
            <Icon name="search" size={18} className="users-search-icon" />
            <input
              id="users-search"
              type="search"
              className="input users-search-input"
              placeholder="Name, username or mobile"
              value={query}
              maxLength={120}
              onChange={(e) => setQuery(e.target.value)}
              aria-describedby="users-result-count"
            />
          </div>
          <button type="button" className="btn btn-outline" onClick={() => void exportUsers()} disabled={!rows}>
            <Icon name="download" size={16} /> Export Users
          </button>
        </div>
        <p id="users-result-count" className="visually-hidden" aria-live="polite">
          {rows ? `${rows.length}${pages.hasNextPage ? '+' : ''} ${rows.length === 1 ? 'user' : 'users'}` : ''}
        </p>

        {all.status === 'error' && !all.data ? (
          <p className="users-error" role="alert">
            <Icon name="alert" size={18} /> <span>{errorText(all.error, 'Failed to load data')}</span>
            <button type="button" className="users-link-btn" onClick={() => void all.refetch()}>Try again</button>
          </p>
        ) : !rows ? (
          pages.status === 'error' ? (
            <p className="users-error" role="alert">
              <Icon name="alert" size={18} /> <span>{errorText(pages.error, 'Failed to load data')}</span>
              <button type="button" className="users-link-btn" onClick={() => void pages.refetch()}>Try again</button>
            </p>
          ) : <Spinner label="Loading users…" />
        ) : (
          <>
            <UsersTable
              users={rows}
              pendingId={pendingId}
              onToggle={toggle}
              empty={<EmptyState icon="users" title={shownTerm ? `No users match “${shownTerm}”` : 'No users have registered yet'} />}
            />
            <LoadMore shown={rows.length} total={shownTerm ? null : (all.data?.length ?? null)} more={pages.hasNextPage} onLoadMore={loadMore} noun="users" failed="Failed to load data" />
          </>
        )}
      </section>

      {confirming && (
        <ConfirmDialog
          title="Deactivate user"
          message={`Deactivate ${confirming.name} (@${confirming.username})? They are signed out at once and cannot log in until you activate them again.`}
          confirmLabel="Deactivate"
          danger
          busy={pendingId === confirming.id}
          onConfirm={() => void applyStatus(confirming, 'inactive')}
          onCancel={() => setConfirming(null)}
        />
      )}
    </div>
  );
}

/**
 * Seven columns that fit the card at 1280 px, the Action column pinned to the right edge while a
 * narrower table scrolls; at 720 px and below each user is a card of two columns (DataTable).
 */
function UsersTable({ users, pendingId, onToggle, empty }: {
  users: readonly AdminUser[];
  pendingId: number | null;
  onToggle: (u: AdminUser) => void;
  empty: ReactNode;
}) {
  const columns: Column<AdminUser>[] = [
    {
      key: 'who', header: 'User Details', priority: 'primary', area: 'who', className: 'users-who',
      cell: (u) => (
        <span className="users-who-inner">
          <span className="users-avatar" aria-hidden="true">{initials(u.name, u.username)}</span>
          <span className="users-who-text">
            <span className="users-name">{u.name}</span>
            <span className="users-username">@{u.username}</span>
          </span>
        </span>
      ),
    },
    { key: 'contact', header: 'Contact', area: 'contact', className: 'num', cell: (u) => u.mobile_number },
    { key: 'wallet', header: 'Wallet Balance', area: 'wallet', align: 'end', className: 'num users-wallet', cell: (u) => formatRupees(u.wallet_balance) },
    { key: 'auctions', header: 'Auctions Registered', area: 'auctions', align: 'end', className: 'num', cell: (u) => u.auctions_registered },
    { key: 'status', header: 'Status', area: 'status', cell: (u) => <StatusBadge kind="user" status={u.status} /> },
    { key: 'joined', header: 'Joined Date', area: 'joined', className: 'users-joined', cell: (u) => <time dateTime={u.created_at}>{formatDate(u.created_at)}</time> },
    {
      key: 'action', header: 'Action', area: 'action', align: 'end', pinned: true, label: false, className: 'users-action',
      cell: (u) => {
        const active = u.status === 'active';
        return (
          <button
            type="button"
            className={`btn btn-sm ${active ? 'btn-outline users-btn-deactivate' : 'btn-primary'}`}
            onClick={() => onToggle(u)}
            disabled={pendingId === u.id}
            aria-busy={pendingId === u.id}
            aria-label={`${active ? 'Deactivate' : 'Activate'} ${u.name} (@${u.username})`}
          >
            {active ? 'Deactivate' : 'Activate'}
          </button>
        );
      },
    },
  ];
  return (
    <DataTable
      className="users-table"
      columns={columns}
      rows={users}
      rowKey={(u) => u.id}
      rowProps={(u) => ({ className: u.status === 'active' ? undefined : 'users-row-inactive' })}
      empty={empty}
      card={{ columns: 'repeat(2, minmax(0, 1fr))', areas: ['who who', 'contact wallet', 'auctions status', 'joined .', 'action action'], labels: true }}
    />
  );
}
