import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { adminAuctionPath, paths } from '../../../config/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { formatDateTime } from '../../../lib/format';
import { holdClock, onLive, useClock } from '../../../lib/live';
import { auctionStatus } from '../lib/forms';
import { useAdminAuctions } from '../store/admin-auctions-store';
import './recent-auctions.css';

/** The first 5 auctions on the admin dashboard. */
export const RECENT_COUNT = 5;

/** An auction that ended or settled may have given products back: the list is read again once after a burst. */
const RELOAD_AFTER_END_MS = 300;

/** The admin dashboard's card of the admin's first auctions, each opening its detail page. */
export function RecentAuctions() {
  const auctions = useAdminAuctions((s) => s.auctions);
  const status = useAdminAuctions((s) => s.status);
  const load = useAdminAuctions((s) => s.load);
  const now = useClock((s) => s.now);

  useEffect(() => holdClock(), []);
  useEffect(() => {
    void load({ silent: true });
  }, [load]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onLive(['auction:ended', 'auction:settled'], () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load({ silent: true }), RELOAD_AFTER_END_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [load]);

  return (
    <section className="card" aria-labelledby="adm-recent">
      <div className="card-header">
        <h3 id="adm-recent" className="card-title">Recent Auctions</h3>
        <Link to={paths.admin.auctions} className="btn btn-outline btn-sm">View All</Link>
      </div>
      {status === 'idle' || status === 'loading' ? <Spinner label="Loading auctions…" /> : auctions.length === 0 ? (
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
  );
}
