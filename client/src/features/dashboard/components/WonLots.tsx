import type { UserBid } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { formatRupees } from '../../../lib/format';

/**
 * The caller's won lots (the newest `WON_COUNT`, from the my-bids query, so a live `bid:won` adds one
 * at once): product, auction, the price paid and whether it was bought at the buy-now price.
 */
export function WonLots({ bids, total, loading, onViewAll }: {
  bids: readonly UserBid[];
  /** Every won lot, of which `bids` are the first. */
  total: number;
  loading: boolean;
  onViewAll: () => void;
}) {
  return (
    <section className="card dash-panel dash-won" aria-labelledby="dash-won">
      <div className="card-header">
        <div className="dash-won-heading">
          <h3 id="dash-won" className="card-title">Won</h3>
          {!loading && total > 0 && <span className="dash-won-count">{total === 1 ? '1 lot' : `${total} lots`}</span>}
        </div>
        <button type="button" className="btn btn-outline btn-sm" onClick={onViewAll}>View All</button>
      </div>
      {loading ? <Spinner label="Loading your wins…" /> : bids.length === 0 ? (
        <EmptyState icon="gavel" title="Nothing won yet">Lots you win, or buy at their buy-now price, show up here.</EmptyState>
      ) : (
        <ul className="dash-won-grid">
          {bids.map((b) => (
            <li key={b.bid_id} className="dash-won-card">
              <span className="dash-won-icon" aria-hidden="true"><Icon name="check" size={18} /></span>
              <div className="dash-won-main">
                <span className="dash-won-title">{b.product_name}</span>
                <span className="dash-row-meta">{b.auction_name || b.auction_id}</span>
                <span className="dash-won-foot">
                  <span className="dash-won-amount num">{formatRupees(b.amount)}</span>
                  {b.buy_now && <span className="dash-won-tag">Bought now</span>}
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
