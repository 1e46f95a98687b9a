import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/Icon';
import { lotPath } from '../../../config/paths';
import { countdownUrgent, formatCountdown, formatRupees, secondsLeft } from '../../../lib/format';
import { useClock } from '../../../lib/live';
import { mediaSrc } from '../../../lib/media';
import { bidCountText, lotLabel, priceOf, type ShownLot } from '../model';

/** One lot of the results: its photo, number, name, category, price, bids, Buy now, auction and time left; the card opens the lot. */
export function LotResultCard({ lot }: { lot: ShownLot }) {
  const price = priceOf(lot);
  const label = lotLabel(lot);
  return (
    <article className="lot-card" data-testid={`lot-card-${lot.id}`}>
      {lot.cover ? (
        <img className="lot-card-cover" src={mediaSrc(lot.cover.thumb_url)} alt="" loading="lazy" width={400} height={300} />
      ) : (
        <span className="lot-card-cover lot-card-cover-none" aria-hidden="true"><Icon name="image" size={32} /></span>
      )}
      <div className="lot-card-body">
        <p className="lot-card-meta">
          {label && <span className="lot-card-number">{label}</span>}
          {lot.category && <span className="lot-card-category">{lot.category.name}</span>}
        </p>
        <h3 className="lot-card-name">
          {/* Stretched over the whole card (CSS), so the card is one link for a pointer and one stop for the keyboard. */}
          <Link to={lotPath(lot.auction.id, lot.id)} className="lot-card-link">
            {label && <><span className="visually-hidden">{label}:</span>{' '}</>}
            {lot.name}
          </Link>
        </h3>
        <p className="lot-card-price">
          <span className="lot-card-sub">{price.label}</span>
          <span className="lot-card-amount">{formatRupees(price.amount)}</span>
          <span className="lot-card-bids">{bidCountText(lot.bid_count)}</span>
        </p>
        {lot.buy_now_price !== null && (
          <p className="lot-card-buy-now"><Icon name="bolt" size={14} /> Buy now {formatRupees(lot.buy_now_price)}</p>
        )}
        <p className="lot-card-auction">
          <span className="lot-card-auction-name">{lot.auction.name}</span>
          {lot.sold ? <span className="lot-card-sold">Sold</span> : <TimeLeft validUntil={lot.auction.valid_until} />}
        </p>
      </div>
    </article>
  );
}

/** "Ends in 2h 5m" (red under five minutes), "Bidding closed" once over; ticks with the shared clock. */
function TimeLeft({ validUntil }: { validUntil: string }) {
  const secs = useClock((s) => secondsLeft(validUntil, s.now));
  return (
    <span className={countdownUrgent(secs) ? 'lot-card-left lot-card-left-urgent' : 'lot-card-left'} role="timer">
      {secs > 0 ? `Ends in ${formatCountdown(secs)}` : 'Bidding closed'}
    </span>
  );
}
