import { useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { SavedLot } from '@auction/shared';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { paths } from '../../../config/paths';
import { countdownUrgent, formatCountdown, formatRupees, secondsLeft } from '../../../lib/format';
import { isEnded, standingOf } from '../../../lib/catalogue';
import { useClock, useWatchAuctions } from '../../../lib/live';
import { lotLinkOf, mediaSrc, priceOf } from '../model';
import { setSaved, useSavedLots } from '../store/saved-store';
import './saved.css';

export const EMPTY_TITLE = 'No saved lots yet — tap the star on any lot to keep it here';

const NO_LOTS: SavedLot[] = [];
const STANDING_ICON = { leading: 'check', outbid: 'alert', won: 'check', lost: 'info' } as const;

/**
 * /user/saved: the lots the caller starred, with their price, the caller's state on each, their
 * auction and its time left (each lot's `auction`, read with the list), and Remove. The auctions of
 * the lots still open are watched, so prices move live as bids land.
 */
export function SavedPage() {
  const { data, status, fetching, refetch } = useSavedLots();
  const lots = data ?? NO_LOTS;
  const loaded = data !== undefined;
  const ended = useEndedLots(lots);
  useWatchAuctions(lots.flatMap((p) => (p.auction_id !== null && p.status !== 'sold' && !ended(p) ? [p.auction_id] : [])));
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [announcement, setAnnouncement] = useState('');

  function remove(lot: SavedLot) {
    setSaved(lot, false);
    setAnnouncement(`${lot.name} removed from Saved`);
    // The row and its button are gone: keep keyboard focus on the list.
    headingRef.current?.focus();
  }

  const columns: Column<SavedLot>[] = [
    {
      key: 'lot', header: 'Lot', priority: 'primary', area: 'lot', className: 'saved-col-lot',
      cell: (p) => <LotCell lot={p} />,
    },
    {
      key: 'price', header: 'Price', area: 'price', className: 'saved-col-price',
      cell: (p) => {
        const price = priceOf(p);
        return (
          <span className="saved-price">
            <span className="saved-sub">{price.label}</span>
            <span className="saved-amount">{formatRupees(price.amount)}</span>
          </span>
        );
      },
    },
    {
      key: 'state', header: 'Your state', area: 'state', className: 'saved-col-state',
      cell: (p) => <StateCell lot={p} ended={ended(p)} />,
    },
    {
      key: 'actions', header: 'Actions', area: 'actions', align: 'end', width: 'fit', label: false, className: 'saved-col-actions',
      cell: (p) => {
        const link = lotLinkOf(p);
        return (
          <div className="saved-actions">
            {link && (
              <Link to={link} className="btn btn-sm btn-primary">
                View lot<span className="visually-hidden">: {p.name}</span>
              </Link>
            )}
            <button type="button" className="btn btn-sm btn-outline saved-remove" onClick={() => remove(p)}>
              <Icon name="trash" size={15} />
              Remove{' '}<span className="visually-hidden">{p.name} from Saved</span>
            </button>
          </div>
        );
      },
    },
  ];

  let body;
  if (!loaded && status === 'error') {
    body = (
      <EmptyState icon="alert" title="Failed to load your saved lots">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>Try again</button>
      </EmptyState>
    );
  } else if (!loaded) {
    body = <Spinner label="Loading your saved lots…" />;
  } else {
    body = (
      <DataTable
        className="saved-table"
        caption="Your saved lots, most recently saved first"
        columns={columns}
        rows={lots}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ 'data-testid': `saved-${p.id}` })}
        card={{ columns: 'minmax(0, 1fr)', areas: ['lot', 'price', 'state', 'actions'] }}
        empty={
          <EmptyState icon="star" title={EMPTY_TITLE}>
            <Link to={paths.user.auctions} className="btn btn-primary saved-browse">
              Browse Auctions <Icon name="arrow-right" size={16} />
            </Link>
          </EmptyState>
        }
      />
    );
  }

  return (
    <div className="page saved-page">
      <section className="card" aria-labelledby="saved-title">
        <div className="card-header">
          <h2 id="saved-title" className="card-title" ref={headingRef} tabIndex={-1}>
            Saved lots{loaded && lots.length > 0 ? <>{' '}<span className="saved-count">({lots.length})</span></> : null}
          </h2>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()} disabled={fetching} aria-busy={fetching}>
            <Icon name="refresh" size={16} />
            {fetching ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
        {body}
      </section>
      <p className="visually-hidden" aria-live="polite">{announcement}</p>
    </div>
  );
}

/** The cover thumbnail (or a placeholder), the lot's name, and its auction by name with the time left. */
function LotCell({ lot }: { lot: SavedLot }) {
  const { auction } = lot;
  const cover = lot.images[0];
  return (
    <span className="saved-lot">
      {cover ? (
        <img className="saved-cover" src={mediaSrc(cover.thumb_url)} alt="" width={56} height={56} loading="lazy" data-testid={`cover-${lot.id}`} />
      ) : (
        <span className="saved-cover saved-cover-none" title="No photos yet" data-testid={`cover-${lot.id}`}>
          <Icon name="image" size={22} />
        </span>
      )}
      <span className="saved-lot-text">
        <span className="saved-name">{lot.name}</span>
        {auction === null && <span className="saved-sub">Not in an auction now</span>}
        {auction && (
          <span className="saved-sub saved-auction">
            <span className="saved-auction-name">{auction.name}</span>
            {lot.status !== 'sold' && <TimeLeft validUntil={auction.valid_until} />}
          </span>
        )}
      </span>
    </span>
  );
}

/** "Ends in 2h 5m" (red under five minutes), "Bidding closed" once over; ticks with the shared clock. */
function TimeLeft({ validUntil }: { validUntil: string }) {
  const secs = useClock((s) => secondsLeft(validUntil, s.now));
  return (
    <span className={countdownUrgent(secs) ? 'saved-left saved-left-urgent' : 'saved-left'} role="timer">
      {secs > 0 ? `Ends in ${formatCountdown(secs)}` : 'Bidding closed'}
    </span>
  );
}

/** The caller's own state on the lot ("You're the highest bidder", "Outbid — bid again", …) and a Sold badge. */
function StateCell({ lot, ended }: { lot: SavedLot; ended: boolean }) {
  const standing = standingOf(lot, ended);
  return (
    <span className="saved-state">
      {standing ? (
        <span className={`saved-standing saved-standing-${standing.tone}`}>
          <Icon name={STANDING_ICON[standing.tone]} size={14} /> {standing.text}
        </span>
      ) : (
        <span className="saved-sub">{ended ? 'Bidding closed' : 'No bid from you yet'}</span>
      )}
      {lot.status === 'sold' && <StatusBadge kind="product" status="sold" />}
    </span>
  );
}

/**
 * Whether a lot's bidding is over: it is in no auction, or its auction has ended. The page re-renders
 * only when that set changes, not every second.
 */
function useEndedLots(lots: readonly SavedLot[]): (lot: SavedLot) => boolean {
  const ids = useClock((s) => lots.filter(({ auction }) => auction === null || isEnded(auction, secondsLeft(auction.valid_until, s.now))).map((p) => p.id).join('\0'));
  return useMemo(() => {
    const set = new Set(ids ? ids.split('\0') : []);
    return (lot: SavedLot) => set.has(lot.id);
  }, [ids]);
}
