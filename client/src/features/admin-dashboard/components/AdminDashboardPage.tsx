import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { formatRupees } from '@auction/shared';
import { paths } from '../../../config/paths';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { StatCard } from '../../../components/ui/StatCard';
import { useSession } from '../../../lib/session';
import { useAdminStats } from '../hooks/use-admin-stats';
import './admin-dashboard.css';

/** What a dialog the dashboard opens is told: close it, and that it saved (the numbers are read again). */
export interface DashboardDialogProps {
  onClose: () => void;
  onSaved: () => void;
}

export interface AdminDashboardPageProps {
  /** The card of the admin's first auctions. */
  recentAuctions: ReactNode;
  /** The Create Auction dialog. */
  createAuction: (props: DashboardDialogProps) => ReactNode;
  /** The Add Product dialog. */
  addProduct: (props: DashboardDialogProps) => ReactNode;
}

/**
 * /admin/dashboard: the admin's numbers, actions and first auctions. The auctions' card and the two
 * dialogs belong to other features: the app's route passes them in.
 */
export function AdminDashboardPage({ recentAuctions, createAuction, addProduct }: AdminDashboardPageProps) {
  const name = useSession((s) => s.admin?.name);
  const { stats, loading, refresh } = useAdminStats();
  const [dialog, setDialog] = useState<'auction' | 'product' | null>(null);
  const close = () => setDialog(null);

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

      {recentAuctions}

      {dialog === 'auction' && createAuction({ onClose: close, onSaved: refresh })}
      {dialog === 'product' && addProduct({ onClose: close, onSaved: refresh })}
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
