import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { StatCard } from '../../../components/ui/StatCard';
import { formatRupees } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { useClock } from '../../../lib/live';
import { useDashboardData } from '../hooks/use-dashboard-data';
import { RECENT_COUNT, WON_COUNT, dashboardStats, wonBids } from '../stats';
import { RecentAuctions } from './RecentAuctions';
import { RecentTransactions } from './RecentTransactions';
import { WonLots } from './WonLots';
import './dashboard.css';

/** Leading bids, and the refused ones My Bids leaves out (the My Bids page's Total Bids counts them). */
function myBidsHint({ activeBids, failedBids }: { activeBids: number; failedBids: number }): string {
  return failedBids === 0 ? `${activeBids} active` : `${activeBids} active · ${failedBids} failed not counted`;
}

/** /user/dashboard: the bidder's numbers, won lots, recent auctions and transactions. */
export function UserDashboardPage() {
  const name = useSession((s) => s.user?.name || s.user?.username || 'User');
  const navigate = useNavigate();
  const now = useClock((s) => s.now);
  const { loading, auctions, activeAuctions, endingSoon, registeredAuctions, bids, transactions, totals, balance } = useDashboardData();
  const stats = useMemo(
    () => dashboardStats({ activeAuctions, endingSoon, registeredAuctions, bids, totals }),
    [activeAuctions, endingSoon, registeredAuctions, bids, totals],
  );
  const won = useMemo(() => wonBids(bids), [bids]);

  const value = (v: string | number) => (loading ? <span className="dash-skeleton" aria-label="Loading" /> : v);

  return (
    <div className="page dashboard">
      <section className="dash-hero" aria-labelledby="dash-welcome">
        <div className="dash-hero-text">
          <h2 id="dash-welcome" className="welcome-title">Welcome, {name}</h2>
          <p className="dash-hero-sub">Track your auctions, bids and wallet in one place.</p>
        </div>
        <div className="dash-hero-side">
          <div className="dash-balance" role="group" aria-label="Wallet balance">
            <span className="dash-balance-label"><Icon name="wallet" size={16} /> Wallet balance</span>
            <span className="dash-balance-value" data-testid="dashboard-balance">
              {balance === null ? '—' : formatRupees(balance)}
            </span>
          </div>
          <button type="button" className="btn btn-accent" onClick={() => void navigate(`${paths.user.auctions}?registered=1`)}>
            <Icon name="check" size={18} /> My Registered Auctions
          </button>
        </div>
      </section>

      <section className="dash-stats" aria-label="Your numbers">
        <StatCard label="Active Auctions" value={value(stats.activeAuctions)} icon="gavel" tone="primary" />
        <StatCard label="Ending Soon" value={value(stats.endingSoon)} icon="bolt" tone="warning" hint="Within 24 hours" />
        <StatCard label="My Bids" value={value(stats.myBids)} icon="bids" tone="info" hint={loading ? undefined : myBidsHint(stats)} />
        <StatCard label="Total Spent" value={value(formatRupees(stats.totalSpent))} icon="wallet" tone="danger" hint="Wins and buy-nows" />
        <StatCard label="Registered Auctions" value={value(stats.registeredAuctions)} icon="check" tone="success" />
      </section>

      <WonLots bids={won.slice(0, WON_COUNT)} total={won.length} loading={loading} onViewAll={() => void navigate(paths.user.bids)} />

      <div className="dash-columns">
        <RecentAuctions
          auctions={auctions.slice(0, RECENT_COUNT)}
          now={now}
          loading={loading}
          onViewAll={() => void navigate(paths.user.auctions)}
        />
        <RecentTransactions
          transactions={transactions.slice(0, RECENT_COUNT)}
          loading={loading}
          onViewAll={() => void navigate(paths.user.wallet)}
        />
      </div>
    </div>
  );
}
