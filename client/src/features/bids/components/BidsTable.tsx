import type { UserBid } from '@auction/shared';
import { Badge } from '../../../components/ui/Badge';
import { bidStatusLabel, formatDateTime, formatRupees, secondsLeft } from '../../../lib/format';
import { isEnded, useAuctions } from '../../auctions';
import { useClock } from '../../live';
import { bidStatusNote } from '../model';

interface BidsTableProps {
  bids: readonly UserBid[];
  cancellingId: number | null;
  onCancel: (bid: UserBid) => void;
}

/** The bid history; below 720 px each row becomes a card (labels from data-label, see bids.css). */
export function BidsTable({ bids, cancellingId, onCancel }: BidsTableProps) {
  return (
    <div className="table-wrap">
      <table className="table bids-table">
        <caption className="visually-hidden">Your bids, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Auction</th>
            <th scope="col" className="bids-col-amount">Bid Amount</th>
            <th scope="col">Date &amp; Time</th>
            <th scope="col">Status</th>
            <th scope="col" className="bids-col-actions">Actions</th>
          </tr>
        </thead>
        <tbody>
          {bids.map((bid) => (
            <BidRow key={bid.bid_id} bid={bid} busy={cancellingId === bid.bid_id} locked={cancellingId !== null} onCancel={onCancel} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * False once the bid's auction has ended (bids can be cancelled only before the auction ends). An
 * auction the page does not know is left to the server; the selector re-renders the row only when it flips.
 */
function useAuctionOpen(auctionId: string): boolean {
  const auction = useAuctions((s) => s.auctions.find((a) => a.id === auctionId));
  return useClock((s) => !auction || !isEnded(auction, secondsLeft(auction.valid_until, s.now)));
}

function BidRow({ bid, busy, locked, onCancel }: { bid: UserBid; busy: boolean; locked: boolean; onCancel: (bid: UserBid) => void }) {
  const { label, tone } = bidStatusLabel(bid.status);
  const note = bidStatusNote(bid);
  const open = useAuctionOpen(bid.auction_id);
  const cancellable = bid.status === 'success' && open;
  return (
    <tr className={`bids-row bids-row-${bid.status}`}>
      <td data-label="Product" className="bids-cell-product">
        <div className="bids-cell-stack">
          <span className="bids-cell-title">{bid.product_name}</span>
          <span className="bids-cell-sub">ID: {bid.product_id}</span>
        </div>
      </td>
      <td data-label="Auction">
        <div className="bids-cell-stack">
          <span className="bids-cell-title">{bid.auction_name || bid.auction_id}</span>
          <span className="bids-cell-sub">ID: {bid.auction_id}</span>
        </div>
      </td>
      <td data-label="Bid Amount" className="num bids-col-amount bids-amount">{formatRupees(bid.amount)}</td>
      <td data-label="Date & Time" className="bids-date">
        <time dateTime={bid.timestamp}>{formatDateTime(bid.timestamp)}</time>
      </td>
      <td data-label="Status">
        <span className="bids-status">
          <Badge tone={tone}>{label}</Badge>
          {note && <span className="bids-cell-sub bids-reason">{note}</span>}
        </span>
      </td>
      <td data-label="Actions" className={`bids-col-actions${cancellable ? '' : ' bids-no-action'}`}>
        {cancellable ? (
          <button
            type="button"
            className="btn btn-sm bids-cancel-btn"
            onClick={() => onCancel(bid)}
            disabled={locked}
            aria-label={`Cancel bid of ${formatRupees(bid.amount)} on ${bid.product_name}`}
          >
            {busy ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : (
          <span className="muted" aria-label="No action available" title={bid.status === 'success' ? 'The auction has ended' : undefined}>N/A</span>
        )}
      </td>
    </tr>
  );
}
