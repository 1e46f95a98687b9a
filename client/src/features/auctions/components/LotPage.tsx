import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { STRICT_CANCEL_WORDS, type Auction, type Product } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { LoadMore } from '../../../components/ui/LoadMore';
import { Spinner } from '../../../components/ui/Spinner';
import { auctionTimeStatus, StatusBadge } from '../../../components/ui/StatusBadge';
import { toast } from '../../../components/ui/toast/toast-store';
import { browseLotPath, lotPath, paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { countdownUrgent, formatCountdown, formatEndTime, formatRupees } from '../../../lib/format';
import { useWatchAuctions } from '../../../lib/live';
import { useSession, useSignInToContinue } from '../../../lib/session';
import { LotStarOf } from './lot-slots';
import { bidAction, isEnded, softCloseText, stepsText } from '../../../lib/catalogue';
import { useAuctionActions, useAuctionProducts } from '../store/auctions-store';
import { loadMoreLotHistory, useLotPage } from '../store/lot-store';
import { BidModal } from './BidModal';
import { BuyNowDialog } from './BuyNowDialog';
import { ExtendedMark } from './ExtendedMark';
import { LotGallery } from './LotGallery';
import { LotHistory } from './LotHistory';
import { LotState } from './LotState';
import { useSecondsLeft } from './use-seconds-left';
import './auctions.css';
import './lot.css';

export const HISTORY_MORE_FAILED = 'Could not load more of the bid history';

/**
 * /auctions/:auctionId/products/:productId, a lot's own page (where notices and the star's lists
 * lead): its photos, description and price, the caller's state on it, the bid form and buy now, its
 * auction's countdown, the save star, a share link and the bid history with aliases. The numbers and
 * the caller's state are the auction's products (live); the auction (with the caller's registration)
 * and the history are the lot's own read, the auction kept live, the history read again after live
 * changes (lot-store.ts).
 */
export function LotPage() {
  const { auctionId = '', productId = '' } = useParams();
  const navigate = useNavigate();
  const lotRead = useLotPage(productId);
  const lot = lotRead.data;

  // The lot's auction is watched live while the page is open (its bids, its end, its extensions).
  useWatchAuctions([auctionId]);
  // A visitor (a shared link) reads the lot and its auction's lots as a bidder does, without standing or registration.
  const visitor = useSession((s) => s.user === null);
  const live = useAuctionProducts(auctionId, { silent: true }).data?.find((p) => p.id === productId);

  // A link to a lot that has since moved to another auction leads to where it is now.
  const movedTo = lot && lot.id === productId && lot.auction_id !== null && lot.auction_id !== auctionId ? lot.auction_id : null;
  useEffect(() => {
    if (movedTo !== null) void navigate(lotPath(movedTo, productId), { replace: true });
  }, [movedTo, productId, navigate]);

  if (!lot) {
    if (lotRead.status === 'error') {
      const missing = lotRead.error instanceof ApiError && lotRead.error.status === 404;
      return (
        <div className="page lot-page">
          <div className="card">
            <EmptyState icon={missing ? 'box' : 'alert'} title={missing ? 'This lot no longer exists' : 'Failed to load this lot'}>
              {missing ? (
                <Link to={paths.user.auctions} className="btn btn-primary">Browse Auctions</Link>
              ) : (
                <button type="button" className="btn btn-outline btn-sm" onClick={() => void lotRead.refetch()}>Try again</button>
              )}
            </EmptyState>
          </div>
        </div>
      );
    }
    return <div className="page lot-page"><Spinner label="Loading lot…" /></div>;
  }

  const inAuction = lot.auction_id === auctionId;
  // What the auction's live products say is newest; the lot's own read fills in until they arrive.
  const product: Product = live ?? lot;
  const auction: Auction | null = inAuction ? lot.auction : null;
  // The dialogs follow the auction's live products: they open once those have arrived.
  return (
    <LotView product={product} auction={auction} history={lot.bids} more={(lot.bids_next_before ?? null) !== null}
      onLoadMore={() => loadMoreLotHistory(productId)} ready={live !== undefined} visitor={visitor} />
  );
}

interface LotViewProps {
  product: Product;
  /** Null: the lot is in no auction now (it came back unsold). */
  auction: Auction | null;
  history: Parameters<typeof LotHistory>[0]['entries'];
  /** More of the history is there to load. */
  more: boolean;
  onLoadMore: () => Promise<void>;
  /** The auction's live products, which the bid and buy-now dialogs read, have arrived. */
  ready: boolean;
  /** Not signed in: bidding, buying and registering start with signing in, and come back here. */
  visitor: boolean;
}

function LotView({ product, auction, history, more, onLoadMore, ready, visitor }: LotViewProps) {
  const signIn = useSignInToContinue();
  const titleId = useId();
  const historyId = useId();
  const descriptionId = useId();
  const [bidding, setBidding] = useState(false);
  const [buying, setBuying] = useState(false);
  const register = useAuctionActions((s) => s.register);
  const registering = useAuctionActions((s) => (auction ? s.registering[auction.id] === true : false));
  const purchasing = useAuctionActions((s) => s.buying[product.id] === true);
  const secs = useSecondsLeft(auction?.valid_until);
  const ended = auction === null || isEnded(auction, secs);
  const [announcement, setAnnouncement] = useState('');
  const shownHighest = useRef(product.highest_bid);

  // A new highest bid is read out (the figure itself is in a live region too, but says nothing of why).
  useEffect(() => {
    if (shownHighest.current === product.highest_bid) return;
    shownHighest.current = product.highest_bid;
    if (product.highest_bid > 0) setAnnouncement(`New highest bid: ${formatRupees(product.highest_bid)}`);
  }, [product.highest_bid]);

  const closeBid = useCallback(() => setBidding(false), []);
  const closeBuy = useCallback(() => setBuying(false), []);

  const sold = product.status === 'sold';
  const unbid = product.highest_bid <= 0 && !sold;
  const registered = auction?.registered === true;
  const action = bidAction(product, registered, ended);
  const buyNowPrice = !sold && !ended ? product.buy_now_price : null;
  const softClose = auction ? softCloseText(auction) : null;
  const urgent = !ended && countdownUrgent(secs);
  const priceLabel = sold ? 'Sold for' : unbid ? 'Starting bid' : 'Highest bid';

  return (
    <div className={`page lot-page${auction && !ended && !sold ? ` lot-page-with-bar${buyNowPrice !== null && registered ? ' lot-page-with-bar-tall' : ''}` : ''}`}>
      <nav className="lot-crumbs" aria-label="Breadcrumb">
        <Link to={auction ? browseLotPath(auction.id, product.id) : paths.user.auctions} className="lot-back">
          <Icon name="arrow-left" size={16} />
          {auction ? <>Back to <span className="lot-back-name">{auction.name}</span></> : 'Browse Auctions'}
        </Link>
      </nav>

      <div className="lot-top">
        <div className="card lot-gallery-card">
          <LotGallery name={product.name} images={product.images} />
        </div>

        <section className="card lot-summary" aria-labelledby={titleId}>
          <div className="lot-head">
            <div className="lot-title">
              <h2 id={titleId} className="lot-name">{product.name}</h2>
              <p className="auc-id">ID: {product.id}</p>
            </div>
            <StatusBadge kind="product" status={product.status} />
            <LotStarOf lot={product} className="lot-star" />
          </div>

          <div className="lot-price">
            <p className="auc-eyebrow">{priceLabel}</p>
            <p className="lot-amount" aria-live="polite">{formatRupees(unbid ? product.min_next_bid : product.highest_bid)}</p>
            <p className="lot-price-sub">
              {product.bid_count} {product.bid_count === 1 ? 'bid' : 'bids'}
              {!sold && !ended && !unbid && <> · Minimum next bid {formatRupees(product.min_next_bid)}</>}
            </p>
          </div>

          <LotState product={product} ended={ended} className="lot-state" />

          {auction ? (
            <dl className="lot-timing">
              <div>
                <dt>Auction</dt>
                <dd className="lot-auction-name">{auction.name}</dd>
              </div>
              <div>
                <dt>Ends</dt>
                <dd><time dateTime={auction.valid_until}>{formatEndTime(auction.valid_until, { extended: auction.extended, secondsLeft: ended ? 0 : secs })}</time></dd>
              </div>
              <div>
                <dt>Time left</dt>
                <dd className={`lot-countdown${urgent ? ' auc-countdown-urgent' : ''}`}>
                  <StatusBadge kind="auction" status={ended ? 'ended' : auctionTimeStatus(secs)} />
                  <span role="timer">{ended ? 'Bidding closed' : formatCountdown(secs)}</span>
                  <ExtendedMark auction={auction} ended={ended} />
                </dd>
              </div>
            </dl>
          ) : (
            <p className="info-note lot-note"><Icon name="info" size={18} /> <span>This lot is not in an auction right now.</span></p>
          )}
          {softClose && !ended && <p className="auc-panel-rule lot-rule"><Icon name="clock" size={14} /> {softClose}</p>}
          {auction && !ended && !sold && <p className="auc-panel-rule lot-rule" data-testid="lot-steps"><Icon name="bids" size={14} /> {stepsText(auction)}</p>}
          {auction?.cancel_policy === 'strict' && !ended && !sold && <p className="auc-panel-rule lot-rule"><Icon name="info" size={14} /> {STRICT_CANCEL_WORDS}</p>}

          {auction && !registered && !ended && (
            <p className="info-note lot-note"><Icon name="info" size={18} /> <span>{visitor ? 'Sign in and register for this auction to place bids.' : 'Register for this auction to place bids.'}</span></p>
          )}

          {/* On phones, while the lot can be bid on, a bar fixed at the screen's bottom: its price and Place Bid stay in view. */}
          <div className={`lot-actions${auction && !ended && !sold ? ' lot-actions-bar' : ''}`}>
            <span className="lot-bar-price" aria-hidden="true">
              <span className="lot-bar-label">{priceLabel}</span>
              <strong>{formatRupees(unbid ? product.min_next_bid : product.highest_bid)}</strong>
            </span>
            {auction && visitor && (
              <button type="button" className="btn btn-accent lot-bid" disabled={action.disabled} title={action.reason} onClick={signIn}>
                {action.disabled ? action.label : 'Sign in to bid'}
              </button>
            )}
            {auction && !visitor && (
              <button type="button" className={`btn ${registered ? 'btn-primary' : 'btn-accent'} lot-bid`}
                disabled={action.disabled || (registered ? !ready : registering)} title={action.reason}
                onClick={registered ? () => setBidding(true) : () => void register(auction.id)}>
                {!registered && registering ? 'Registering…' : action.label}
              </button>
            )}
            {buyNowPrice !== null && registered && (
              <button type="button" className="btn btn-outline lot-buy" disabled={purchasing || !ready} onClick={() => setBuying(true)}>
                {purchasing ? 'Buying…' : `Buy now ${formatRupees(buyNowPrice)}`}
              </button>
            )}
            <ShareButton name={product.name} />
          </div>
          {action.reason && auction && <p className="lot-closed">{action.reason}.</p>}
          {buyNowPrice !== null && !registered && <p className="auc-buy-now-note">Buy now {formatRupees(buyNowPrice)} once registered</p>}
        </section>
      </div>

      <div className="lot-bottom">
        <section className="card lot-description" aria-labelledby={descriptionId}>
          <h2 id={descriptionId} className="card-title">Description</h2>
          <p className="lot-description-text">{product.description}</p>
        </section>
        <section className="card lot-history" aria-labelledby={historyId}>
          <h2 id={historyId} className="card-title">
            Bid history {history.length > 0 && <span className="lot-history-count">({history.length}{more ? '+' : ''})</span>}
          </h2>
          <LotHistory entries={history} titleId={historyId} />
          {history.length > 0 && <LoadMore shown={history.length} more={more} onLoadMore={onLoadMore} noun="bids" failed={HISTORY_MORE_FAILED} />}
        </section>
      </div>

      <p className="visually-hidden" aria-live="polite">{announcement}</p>
      {bidding && auction && <BidModal auctionId={auction.id} productId={product.id} auction={auction} onClose={closeBid} />}
      {buying && auction && <BuyNowDialog auctionId={auction.id} productId={product.id} onClose={closeBuy} />}
    </div>
  );
}

/** Shares the page's address: the system share sheet where there is one (phones), else the clipboard. */
function ShareButton({ name }: { name: string }) {
  async function share() {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: name, url });
        return;
      } catch (err) {
        // Closed by the user: nothing more to do.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Link copied');
    } catch {
      toast.info(`Copy this link: ${url}`);
    }
  }
  return (
    <button type="button" className="btn btn-outline lot-share" onClick={() => void share()}>
      <Icon name="share" size={16} /> Share
    </button>
  );
}
