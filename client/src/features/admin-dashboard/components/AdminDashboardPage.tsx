import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { adminAuctionPath, paths } from '../../../config/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { StatCard } from '../../../components/ui/StatCard';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { useSession } from '../../auth';
import { holdClock, useClock } from '../../live';
import { AuctionFormModal, auctionStatus, useAdminAuctions } from '../../admin-auctions';
import { ProductFormModal } from '../../admin-products';
import { useAdminStats } from '../hooks/use-admin-stats';
import './admin-dashboard.css';

/** The first 5 auctions on the admin dashboard. */
export const RECENT_COUNT = 5;

/** /admin/dashboard: the admin's numbers, actions and first auctions. */
export function AdminDashboardPage() {
  const name = useSession((s) => s.admin?.name);
  const { stats, loading, refresh } = useAdminStats();
  const auctions = useAdminAuctions((s) => s.auctions);
  const listStatus = useAdminAuctions((s) => s.status);
  const load = useAdminAuctions((s) => s.load);
  const now = useClock((s) => s.now);
  const [dialog, setDialog] = useState<'auction' | 'product' | null>(null);

  useEffect(() => holdClock(), []);
  useEffect(() => {
    void load({ silent: true });
  }, [load]);

  const value = (v: number | undefined, money = false) => {
    if (loading) return <span className="adm-skeleton" aria-label="Loading" />;
    if (v === undefined) return '—';
    return money ? formatRupees(v) : v;
  };

  return (
    <div className="page adm-page">
      <section className="adm-hero" aria-labelledby="adm-welcome">
        <div className="adm-hero-text">
          <h2 id="adm-welcome" className="welcome-title">Welcome, {name || 'Admin'}</h2>
          <p className="adm-hero-sub">Run your auctions, add products and follow the bidding as it happens.</p>
        </div>
      </section>

      <section className="adm-stats" aria-label="Your numbers">
        <StatCard label="Total Auctions" value={value(stats?.total_auctions)} icon="gavel" tone="primary" />
        <StatCard label="Active Auctions" value={value(stats?.active_auctions)} icon="bolt" tone="success" />
        <StatCard label="Total Products" value={value(stats?.total_products)} icon="box" tone="info" />
        <StatCard label="Unassigned Products" value={value(stats?.unassigned_products)} icon="warning" tone="warning" />
        <StatCard label="Total Bids" value={value(stats?.total_bids)} icon="bids" tone="primary" />
        <StatCard
          label="Revenue"
          value={value(stats?.revenue, true)}
          icon="wallet"
          tone="success"
          hint={stats ? `${formatRupees(stats.pending)} pending` : undefined}
        />
      </section>

      <section className="adm-actions" aria-label="Quick actions">
        <ActionCard icon="gavel" title="Create Auction" text="Bundle unassigned products into a new auction." onClick={() => setDialog('auction')} />
        <ActionCard icon="plus" title="Add Product" text="Add an item you can put into an auction." onClick={() => setDialog('product')} />
        <Link to={paths.admin.reports} className="adm-action">
          <span className="adm-action-icon" aria-hidden="true"><Icon name="chart" size={22} /></span>
          <span className="adm-action-text">
            <span className="adm-action-title">View Reports</span>{' '}
            <span className="adm-action-sub">Revenue, bids and products per auction.</span>
          </span>
          <Icon name="arrow-right" size={18} className="adm-action-arrow" />
        </Link>
      </section>

      <section className="card" aria-labelledby="adm-recent">
        <div className="card-header">
          <h3 id="adm-recent" className="card-title">Recent Auctions</h3>
          <Link to={paths.admin.auctions} className="btn btn-outline btn-sm">View All</Link>
        </div>
        {listStatus === 'idle' || listStatus === 'loading' ? <Spinner label="Loading auctions…" /> : auctions.length === 0 ? (
          <EmptyState icon="gavel" title="No auctions yet">Create your first auction to see it here.</EmptyState>
        ) : (
          <ul className="adm-recent">
            {auctions.slice(0, RECENT_COUNT).map((a) => (
              <li key={a.id}>
                <Link to={adminAuctionPath(a.id)} className="adm-recent-row">
                  <span className="adm-recent-icon" aria-hidden="true">{a.name.trim().charAt(0).toUpperCase() || '#'}</span>
                  <span className="adm-recent-main">
                    <span className="adm-recent-name">{a.name}</span>
                    <span className="adm-recent-meta">
                      <code>{a.id}</code> · {a.product_count} {a.product_count === 1 ? 'product' : 'products'} · ends {formatDateTime(a.valid_until)}
                    </span>
                  </span>
                  <StatusBadge kind="auction" status={auctionStatus(a, now)} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      {dialog === 'auction' && <AuctionFormModal mode="create" onClose={() => setDialog(null)} />}
      {dialog === 'product' && <ProductFormModal onClose={() => setDialog(null)} onSaved={refresh} />}
    </div>
  );
}

function ActionCard({ icon, title, text, onClick }: { icon: IconName; title: string; text: string; onClick: () => void }) {
  return (
    <button type="button" className="adm-action" onClick={onClick}>
      <span className="adm-action-icon" aria-hidden="true"><Icon name={icon} size={22} /></span>
      <span className="adm-action-text">
        <span className="adm-action-title">{title}</span>{' '}
        <span className="adm-action-sub">{text}</span>
      </span>
      <Icon name="arrow-right" size={18} className="adm-action-arrow" />
    </button>
  );
}
