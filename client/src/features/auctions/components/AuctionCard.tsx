import { useId, useRef } from 'react';
import type { AuctionCard as Card } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { auctionTimeStatus, StatusBadge } from '../../../components/ui/StatusBadge';
import { countdownUrgent, formatCountdown, formatEndTime, formatRupees } from '../../../lib/format';
import { mediaSrc } from '../../../lib/media';
import { useLive } from '../../../lib/live';
import { isEnded } from '../../../lib/catalogue';
import { useAuctionActions, useAuctionProducts, useExtensions } from '../store/auctions-store';
import { ExtendedMark } from './ExtendedMark';
import { useSecondsLeft } from './use-seconds-left';

interface AuctionCardProps {
  auction: Card;
  selected: boolean;
  /** A bidder is signed in; a visitor's Register leads to signing in and back (the store's register). */
  signedIn: boolean;
  onView: (auctionId: string) => void;
}

/**
 * The highest bid across an auction's lots, their bids and the cover (the first lot's first photo): the
 * list's, or what this tab's copy of the auction's products says once it has them (its panel is or was
 * open: live events and re-reads keep them current, photos changed since the list was read included).
 */
function useAuctionSummary(auction: Card): { highest: number; bids: number; cover: Card['cover'] } {
  const products = useAuctionProducts(auction.id, { read: false }).data;
  if (!products) return { highest: auction.highest_bid, bids: auction.bid_count, cover: auction.cover };
  let highest = 0;
  let bids = 0;
  let cover: Card['cover'] = null;
  for (const p of products) {
    highest = Math.max(highest, p.highest_bid);
    bids += p.bid_count;
    const first = p.images[0];
    if (!cover && first) cover = { url: first.url, thumb_url: first.thumb_url };
  }
  return { highest, bids, cover };
}

/**
 * One auction in the list: its cover, what it is, its highest bid and bids, how many lots, when it ends,
 * and the Register / View Products actions.
 */
export function AuctionCard({ auction, selected, signedIn, onView }: AuctionCardProps) {
  const titleId = useId();
  const secs = useSecondsLeft(auction.valid_until);
  const ended = isEnded(auction, secs);
  const status = ended ? 'ended' : auctionTimeStatus(secs);
  // Counts arrive only while this tab watches the auction (its panel is open); older ones go stale.
  const watchers = useLive((s) => s.watchers[auction.id]);
  const registering = useAuctionActions((s) => s.registering[auction.id] === true);
  const register = useAuctionActions((s) => s.register);
  const registeredTag = useRef<HTMLSpanElement>(null);
  const price = useAuctionSummary(auction);
  // A card carries no earlier end: it shows "Extended" once this tab has seen an extension move it here.
  const extended = useExtensions((s) => s.lastEnd[auction.id] === auction.valid_until);

  async function onRegister() {
    // The button turns into the tag: keep keyboard focus on the same spot.
    if (await register(auction.id)) registeredTag.current?.focus();
  }

  const tone = status === 'ended' ? 'ended' : status === 'closing' ? 'soon' : 'open';
  // Red in the last five minutes.
  const urgent = !ended && countdownUrgent(secs);
  return (
    <article className={`auc-card auc-card-${tone}${selected ? ' auc-card-selected' : ''}`} aria-labelledby={titleId}>
      <div className="auc-card-head">
        <span className="auc-card-cover" aria-hidden="true">
          {price.cover ? <img src={mediaSrc(price.cover.thumb_url)} alt="" loading="lazy" width={64} height={64} /> : <Icon name="gavel" size={24} />}
        </span>
        <div className="auc-card-title">
          <h3 id={titleId} className="auc-card-name">{auction.name}</h3>
          <p className="auc-id">ID: {auction.id}</p>
        </div>
        <StatusBadge kind="auction" status={status} />
      </div>

      <dl className="auc-meta">
        <div>
          <dt>Ends</dt>
          <dd><time dateTime={auction.valid_until}>{formatEndTime(auction.valid_until, { extended, secondsLeft: ended ? 0 : secs })}</time></dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd className={`auc-countdown auc-countdown-${tone}${urgent ? ' auc-countdown-urgent' : ''}`}>
            <Icon name="clock" size={14} />
            <span role="timer">{formatCountdown(ended ? 0 : secs)}</span>
            <ExtendedMark auction={{ id: auction.id, extended, original_valid_until: auction.valid_until }} ended={ended} />
          </dd>
        </div>
      </dl>

      <div className="auc-card-facts">
        <span className="auc-card-top-bid">
          {price.highest > 0 ? <>{ended ? 'Top bid' : 'Highest bid'} <strong>{formatRupees(price.highest)}</strong></> : 'No bids yet'}
        </span>
        <span>{auction.product_count} {auction.product_count === 1 ? 'lot' : 'lots'}</span>
        <span>{price.bids} {price.bids === 1 ? 'bid' : 'bids'}</span>
        {selected && watchers !== undefined && (
          <span className="auc-watchers"><Icon name="eye" size={14} /> {watchers} watching</span>
        )}
      </div>

      <div className="auc-card-actions">
        {signedIn && auction.registered ? (
          <span ref={registeredTag} className="auc-tag-registered" tabIndex={-1}>
            <Icon name="check" size={16} /> Registered
          </span>
        ) : (
          <button type="button" className="btn btn-outline btn-sm" disabled={ended || registering}
            onClick={() => void onRegister()} aria-describedby={titleId} title={signedIn ? undefined : 'Sign in to register and bid'}>
            {registering ? 'Registering…' : 'Register'}
          </button>
        )}
        <button type="button" className={`btn btn-sm ${selected ? 'btn-dark' : 'btn-primary'}`}
          onClick={() => onView(auction.id)} aria-pressed={selected} aria-describedby={titleId}>
          <Icon name="box" size={16} /> View Products
        </button>
      </div>
    </article>
  );
}
