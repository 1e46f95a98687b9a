import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { STRICT_CANCEL_WORDS, type UserBid } from '@auction/shared';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { lotPath } from '../../../config/paths';
import { formatDateTime, formatRupees, secondsLeft } from '../../../lib/format';
import { isEnded } from '../../../lib/catalogue';
import { useClock } from '../../../lib/live';
import { bidStatusNote } from '../../../lib/account/bids-model';

interface BidsTableProps {
  bids: readonly UserBid[];
  cancellingId: number | null;
  onCancel: (bid: UserBid) => void;
}

/** The bid history; below 720 px each row becomes a card headed by the product (DataTable). */
export function BidsTable({ bids, cancellingId, onCancel }: BidsTableProps) {
  const ended = useEndedAuctions(bids);
  const cancellable = (bid: UserBid) => bid.state === 'success' && !ended.has(bid.auction_id);

  const columns: Column<UserBid>[] = [
    {
      key: 'product', header: 'Product', priority: 'primary',
      cell: (bid) => (
        <div className="bids-cell-stack">
          {/* The lot's page (it leads on to the lot's current auction if it has moved since). */}
          <Link to={lotPath(bid.auction_id, bid.product_id)} className="bids-cell-title bids-cell-link">{bid.product_name}</Link>
          <span className="bids-cell-sub">ID: {bid.product_id}</span>
        </div>
      ),
    },
    {
      key: 'auction', header: 'Auction',
      cell: (bid) => (
        <div className="bids-cell-stack">
          <span className="bids-cell-title">{bid.auction_name || bid.auction_id}</span>
          <span className="bids-cell-sub">ID: {bid.auction_id}</span>
        </div>
      ),
    },
    {
      key: 'amount', header: 'Bid Amount', align: 'end', className: 'num bids-amount',
      cell: (bid) => (
        <span className="bids-amount-stack">
          <span>{formatRupees(bid.amount)}</span>
          {/* A maximum (proxy) bid: the server bids for the caller up to this, step by step. */}
          {bid.max_amount != null && <span className="bids-cell-sub bids-max">max {formatRupees(bid.max_amount)}</span>}
        </span>
      ),
    },
    {
      key: 'date', header: 'Date & Time', className: 'bids-date',
      cell: (bid) => <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>,
    },
    {
      key: 'status', header: 'Status',
      cell: (bid) => {
        const note = bidStatusNote(bid);
        return (
          <span className="bids-status">
            <StatusBadge kind="bid" status={bid.state} />
            {bid.buy_now && <span className="bids-buy-now">Bought now</span>}
            {note && <span className="bids-cell-sub bids-reason">{note}</span>}
          </span>
        );
      },
    },
    {
      key: 'actions', header: 'Actions', align: 'end', width: 'fit', className: 'bids-col-actions',
      // On a card, a row without an action says nothing: leave it out.
      hiddenOnCard: (bid) => !cancellable(bid),
      cell: (bid) => cancellable(bid) ? (
        <span className="bids-cancel-stack">
          <button
            type="button"
            className="btn btn-sm bids-cancel-btn"
            onClick={() => onCancel(bid)}
            disabled={cancellingId !== null}
            aria-label={`Cancel bid of ${formatRupees(bid.amount)} on ${bid.product_name}`}
          >
            {cancellingId === bid.bid_id ? 'Cancelling…' : 'Cancel'}
          </button>
          {bid.auction_cancel_policy === 'strict' && <span className="bids-cell-sub" title={STRICT_CANCEL_WORDS}>Strict: within 10 min, not in the last hour</span>}
        </span>
      ) : (
        <span className="muted" aria-label="No action available" title={bid.state === 'success' ? 'The auction has ended' : undefined}>N/A</span>
      ),
    },
  ];

  return (
    <DataTable
      className="bids-table"
      caption="Your bids, newest first"
      columns={columns}
      rows={bids}
      rowKey={(bid) => bid.bid_id}
      rowProps={(bid) => ({ className: `bids-row bids-row-${bid.state}` })}
    />
  );
}

/**
 * The ids of the bids' auctions that have ended (bids can be cancelled only before the auction ends),
 * from each bid's own `auction_valid_until` and `auction_status`; the table re-renders only when the
 * set changes, not every second.
 */
function useEndedAuctions(bids: readonly UserBid[]): ReadonlySet<string> {
  const ids = useClock((s) => {
    const ended = new Set<string>();
    for (const b of bids) {
      if (isEnded({ status: b.auction_status }, secondsLeft(b.auction_valid_until, s.now))) ended.add(b.auction_id);
    }
    return [...ended].sort().join('\0');
  });
  return useMemo(() => new Set(ids ? ids.split('\0') : []), [ids]);
}
