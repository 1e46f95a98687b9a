import type { AuctionCard } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { auctionTimeStatus, StatusBadge } from '../../../components/ui/StatusBadge';
import { formatDateTime, secondsLeft } from '../../../lib/format';
import { isEnded } from '../stats';

/** The newest open auctions (five): name, id, end date and the Active / Ended badge (one may end while shown). */
export function RecentAuctions({ auctions, now, loading, onViewAll }: {
  auctions: readonly Pick<AuctionCard, 'id' | 'name' | 'valid_until' | 'status' | 'registered'>[];
  now: number;
  loading: boolean;
  onViewAll: () => void;
}) {
  return (
    <section className="card dash-panel" aria-labelledby="dash-recent-auctions">
      <div className="card-header">
        <h3 id="dash-recent-auctions" className="card-title">Recent Auctions</h3>
        <button type="button" className="btn btn-outline btn-sm" onClick={onViewAll}>View All</button>
      </div>
      {loading ? <Spinner label="Loading auctions…" /> : auctions.length === 0 ? (
        <EmptyState icon="gavel" title="No auctions yet">New auctions will show up here.</EmptyState>
      ) : (
        <ul className="dash-list">
          {auctions.map((a) => {
            const status = isEnded(a, now) ? 'ended' : auctionTimeStatus(secondsLeft(a.valid_until, now));
            return (
              <li key={a.id} className="dash-row">
                <span className="dash-row-icon dash-row-icon-auction" aria-hidden="true">{a.name.trim().charAt(0).toUpperCase() || '#'}</span>
                <div className="dash-row-main">
                  <span className="dash-row-title">{a.name}</span>
                  <span className="dash-row-meta">
                    <span className="dash-id">{a.id}</span>
                    <span aria-hidden="true"> · </span>
                    <span>{isEnded(a, now) ? 'Ended' : 'Ends'} {formatDateTime(a.valid_until)}</span>
                  </span>
                </div>
                <div className="dash-row-end">
                  <StatusBadge kind="auction" status={status} />
                  {a.registered && <span className="dash-tag">Registered</span>}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
