import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { STRICT_CANCEL_WORDS, type Auction, type UserBid } from '@auction/shared';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { lotPath } from '../../../config/paths';
import { formatDateTime, formatRupees, secondsLeft } from '../../../lib/format';
import { isEnded, useAuctionList } from '../../../lib/catalogue';
import { useClock } from '../../../lib/live';
import { bidStatusNote } from '../../../lib/account/bids-model';

interface BidsTableProps {
  bids: readonly UserBid[];
  cancellingId: number | null;
  onCancel: (bid: UserBid) => void;
}

/** The bid history; below 720 px each row becomes a card headed by the product (DataTable). */
export function BidsTable({ bids, cancellingId, onCancel }: BidsTableProps) {
  const ended = useEndedAuctions();
  const strict = useStrictAuctions();
  const cancellable = (bid: UserBid) => bid.status === 'success' && !ended.has(bid.auction_id);

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
            <StatusBadge kind="bid" status={bid.status} />
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
          {strict.has(bid.auction_id) && <span className="bids-cell-sub" title={STRICT_CANCEL_WORDS}>Strict: within 10 min, not in the last hour</span>}
        </span>
      ) : (
        <span className="muted" aria-label="No action available" title={bid.status === 'success' ? 'The auction has ended' : undefined}>N/A</span>
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
      rowProps={(bid) => ({ className: `bids-row bids-row-${bid.status}` })}
    />
  );
}

const NO_AUCTIONS: Auction[] = [];

/** The ids of the auctions with the strict cancel policy (docs/bidding.md#cancelling-a-bid). */
function useStrictAuctions(): ReadonlySet<string> {
  const auctions = useAuctionList({ read: false }).data ?? NO_AUCTIONS;
  return useMemo(() => new Set(auctions.filter((a) => a.cancel_policy === 'strict').map((a) => a.id)), [auctions]);
}

/**
 * The ids of the auctions that have ended (bids can be cancelled only before the auction ends). An
 * auction the page does not know is left to the server; the table re-renders only when the set changes.
 */
function useEndedAuctions(): ReadonlySet<string> {
  // The page reads the list; the table follows it.
  const auctions = useAuctionList({ read: false }).data ?? NO_AUCTIONS;
  const ids = useClock((s) => auctions.filter((a) => isEnded(a, secondsLeft(a.valid_until, s.now))).map((a) => a.id).join('\0'));
  return useMemo(() => new Set(ids ? ids.split('\0') : []), [ids]);
}
