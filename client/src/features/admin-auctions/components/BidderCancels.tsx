import type { AdminAuction } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';

type Row = NonNullable<AdminAuction['bidder_cancels']>[number];

/** The seller's view of who cancels: each bidder of the auction and how many of their bids they cancelled (docs/bidding.md#cancelling-a-bid). */
export function BidderCancels({ rows, strict }: { rows: readonly Row[]; strict: boolean }) {
  return (
    <section className="card" aria-labelledby="ad-cancels">
      <div className="card-header">
        <h3 id="ad-cancels" className="card-title">Bidders and their cancels</h3>
        <span className="aa-count">{rows.length}</span>
      </div>
      <p className="aa-hint ad-cancels-hint">
        {strict
          ? 'Strict cancelling: a bid can be cancelled only within 10 minutes of being placed, never in the last hour.'
          : 'Bidders may cancel a leading bid until the end: at most 3 on one lot and 6 in the auction.'}
      </p>
      {rows.length === 0 ? <EmptyState icon="users" title="No bidders yet" /> : (
        <table className="ad-cancels">
          <thead>
            <tr><th scope="col">Bidder</th><th scope="col" className="num">Bids cancelled</th></tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.user_id}>
                <td>{r.username}</td>
                <td className={`num${r.cancels > 0 ? ' ad-cancels-some' : ''}`}>{r.cancels}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
