import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { UserBid } from '@auction/shared';
import { paths } from '../../../config/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatCard } from '../../../components/ui/StatCard';
import { toast } from '../../../components/ui/toast/toast-store';
import { formatRupees } from '../../../lib/format';
import { bidStats } from '../../../lib/account/bids-model';
import { useBidCancel, useMyBids } from '../store/bids-store';
import { BidsTable } from './BidsTable';
import './bids.css';

export const CANCEL_QUESTION = 'Are you sure you want to cancel this bid? The amount will be refunded to your wallet.';
const NO_BIDS: UserBid[] = [];

export const CANCELLED_TOAST = 'Bid cancelled and amount refunded successfully!';

/** /user/bids: the caller's bids with their numbers, live status and the cancel action. */
export function MyBidsPage() {
  const { data, status, fetching: loading, refetch } = useMyBids();
  const bids = data ?? NO_BIDS;
  const loaded = status === 'success';
  const cancellingId = useBidCancel((s) => s.cancellingId);
  const cancel = useBidCancel((s) => s.cancel);
  const [confirming, setConfirming] = useState<UserBid | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // The list is read on mount by useMyBids, which toasts a failed read; Refresh reads it again.
  function refresh() {
    void refetch();
  }

  async function confirmCancel() {
    if (!confirming) return;
    const result = await cancel(confirming.bid_id);
    setConfirming(null);
    if (result.ok) toast.success(CANCELLED_TOAST);
    else toast.error(result.error);
    // The Cancel button that opened the dialog is gone now: keep keyboard focus on the list.
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  const stats = bidStats(bids);
  const known = loaded || bids.length > 0;
  const show = (n: number | string) => (known ? n : '—');

  return (
    <div className="page bids-page">
      <section className="stat-grid bids-stats" aria-label="Bid summary">
        <StatCard label="Total Bids" value={show(stats.total)} icon="bids" tone="primary" />
        <StatCard label="Active Bids" value={show(stats.active)} icon="bolt" tone="success" />
        <StatCard label="Failed / Cancelled" value={show(stats.failedOrCancelled)} icon="alert" tone="danger" />
        <StatCard label="Total Amount" value={show(formatRupees(stats.totalAmount))} icon="wallet" tone="info" hint="Active and won bids" />
      </section>

      <p className="info-note">
        <Icon name="info" size={18} className="info-note-icon" />
        <span>Active bids can be cancelled before the auction ends; the amount is refunded to your wallet immediately. Auctions with strict cancelling allow it only within 10 minutes of placing the bid, and never in their last hour.</span>
      </p>

      <section className="card" aria-labelledby="bids-history-title">
        <div className="card-header">
          <h2 id="bids-history-title" className="card-title" ref={headingRef} tabIndex={-1}>Bid History</h2>
          <button type="button" className="btn btn-outline btn-sm" onClick={refresh} disabled={loading} aria-busy={loading}>
            <Icon name="refresh" size={16} />
            {loading ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
        {!known && loading ? (
          <Spinner label="Loading your bids…" />
        ) : bids.length === 0 ? (
          <EmptyState icon="gavel" title="You have no bids yet">
            <p>Find an auction you like, register and place your first bid.</p>
            <Link to={paths.user.auctions} className="btn btn-primary bids-browse">
              Browse Auctions <Icon name="arrow-right" size={16} />
            </Link>
          </EmptyState>
        ) : (
          <BidsTable bids={bids} cancellingId={cancellingId} onCancel={setConfirming} />
        )}
      </section>

      {confirming && (
        <ConfirmDialog
          title="Cancel Bid"
          message={CANCEL_QUESTION}
          confirmLabel={cancellingId !== null ? 'Cancelling…' : 'Yes, cancel bid'}
          danger
          busy={cancellingId !== null}
          onConfirm={() => void confirmCancel()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </div>
  );
}
