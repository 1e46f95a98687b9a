import { useCallback, useEffect, useRef, useState, type Ref } from 'react';
import { STRICT_CANCEL_WORDS, type Auction, type AuctionCard, type Product } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { auctionTimeStatus, StatusBadge } from '../../../components/ui/StatusBadge';
import { countdownUrgent, formatCountdown, formatRupees } from '../../../lib/format';
import { useWatchAuctions } from '../../../lib/live';
import { isEnded, softCloseText, stepsText } from '../../../lib/catalogue';
import { useAuctionActions, useAuctionProducts } from '../store/auctions-store';
import { ExtendedMark } from './ExtendedMark';
import { ProductRow } from './ProductRow';
import { useExtensionFlash } from './use-extension-flash';
import { useSecondsLeft } from './use-seconds-left';

/** What the panel shows of an auction: its card at once, the whole auction (its rules) once read. */
export type PanelAuction = Auction | AuctionCard;

const isFull = (a: PanelAuction): a is Auction => 'increment_rule' in a;

interface ProductsPanelProps {
  auction: PanelAuction | null;
  /** An auction is chosen and being read (a link to one no loaded page holds). */
  loading?: boolean;
  headingRef: Ref<HTMLHeadingElement>;
  onBid: (productId: string) => void;
  onBuyNow: (productId: string) => void;
  onClose: () => void;
  /** The open auction's products are on screen (cached or just read). */
  onShown: () => void;
}

const NO_PRODUCTS: Product[] = [];

/** The selected auction's products, live: highest bids, the caller's standing, sold badges and the auction's end. */
export function ProductsPanel({ auction, loading = false, headingRef, onBid, onBuyNow, onClose, onShown }: ProductsPanelProps) {
  return (
    <section className={`card auc-panel${auction || loading ? '' : ' auc-panel-empty'}`} aria-labelledby="auc-panel-title">
      {auction ? (
        <PanelBody auction={auction} headingRef={headingRef} onBid={onBid} onBuyNow={onBuyNow} onClose={onClose} onShown={onShown} />
      ) : loading ? (
        <>
          <h2 id="auc-panel-title" ref={headingRef} tabIndex={-1} className="visually-hidden">Products</h2>
          <Spinner label="Loading the auction…" />
        </>
      ) : (
        <>
          <h2 id="auc-panel-title" ref={headingRef} tabIndex={-1} className="visually-hidden">Products</h2>
          <EmptyState icon="box" title="Select an Auction">
            Choose <strong>View Products</strong> on an auction to see its items and bid live.
          </EmptyState>
        </>
      )}
    </section>
  );
}

function PanelBody({ auction, headingRef, onBid, onBuyNow, onClose, onShown }: ProductsPanelProps & { auction: PanelAuction }) {
  // The open auction is watched live for as long as it stays open; this effect runs before the read's,
  // so the watch is asked for first. After a dropped connection what is on screen is read again by itself.
  useWatchAuctions([auction.id]);
  // Read afresh whenever it opens (a cached answer shows at once), a failure toasted.
  const { data, status, refetch } = useAuctionProducts(auction.id);
  const products = data ?? NO_PRODUCTS;
  const loaded = data !== undefined;
  const register = useAuctionActions((s) => s.register);
  const registering = useAuctionActions((s) => s.registering[auction.id] === true);
  const buying = useAuctionActions((s) => s.buying);
  const secs = useSecondsLeft(auction.valid_until);
  const ended = isEnded(auction, secs);
  const [announcement, setAnnouncement] = useState('');

  // An extension that arrives while the panel is open is read out with the new time left.
  const extension = useExtensionFlash(auction.id);
  const latestSecs = useRef(secs);
  latestSecs.current = secs;
  useEffect(() => {
    if (extension > 0) setAnnouncement(`Auction extended: ends in ${formatCountdown(latestSecs.current)}`);
  }, [extension]);

  const onHighestChange = useCallback((p: Product) => {
    setAnnouncement(`New highest bid on ${p.name}: ${formatRupees(p.highest_bid)}`);
  }, []);
  const onRegister = useCallback(() => void register(auction.id), [register, auction.id]);
  useEffect(() => {
    if (loaded) onShown();
  }, [loaded, onShown, auction.id]);

  const rules = isFull(auction) ? auction : null;
  const softClose = rules && softCloseText(rules);
  const extendedMark = rules ?? { id: auction.id, extended: false, original_valid_until: auction.valid_until };

  let body;
  if (!loaded && status === 'error') {
    body = (
      <EmptyState icon="alert" title="Failed to load products">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>Try again</button>
      </EmptyState>
    );
  } else if (!loaded) {
    body = <Spinner label="Loading products…" />;
  } else if (products.length === 0) {
    body = <EmptyState icon="box" title="No products in this auction" />;
  } else {
    body = (
      <ul className="auc-products">
        {products.map((p) => (
          <ProductRow key={p.id} product={p} registered={auction.registered} ended={ended} registering={registering}
            buying={buying[p.id] === true} onBid={onBid} onBuyNow={onBuyNow} onRegister={onRegister} onHighestChange={onHighestChange} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <div className="auc-panel-head">
        <div className="auc-panel-title">
          <p className="auc-eyebrow">Products</p>
          <h2 id="auc-panel-title" ref={headingRef} tabIndex={-1} className="card-title">{auction.name}</h2>
          <p className="auc-panel-sub">
            <span className="auc-id">ID: {auction.id}</span>
            <StatusBadge kind="auction" status={ended ? 'ended' : auctionTimeStatus(secs)} />
            <span className={`auc-panel-countdown${!ended && countdownUrgent(secs) ? ' auc-countdown-urgent' : ''}`}>
              {ended ? 'Bidding closed' : `Ends in ${formatCountdown(secs)}`}
            </span>
            <ExtendedMark auction={extendedMark} ended={ended} />
          </p>
          {softClose && !ended && (
            <p className="auc-panel-rule"><Icon name="clock" size={14} /> {softClose}</p>
          )}
          {rules && !ended && <p className="auc-panel-rule"><Icon name="bids" size={14} /> {stepsText(rules)}</p>}
          {rules?.cancel_policy === 'strict' && !ended && <p className="auc-panel-rule"><Icon name="info" size={14} /> {STRICT_CANCEL_WORDS}</p>}
        </div>
        <button type="button" className="icon-btn" aria-label="Close products" onClick={onClose}>
          <Icon name="close" size={18} />
        </button>
      </div>
      {!auction.registered && !ended && (
        <div className="info-note auc-register-note">
          <Icon name="info" size={18} />
          <span>Register for this auction to place bids.</span>
        </div>
      )}
      <div className="auc-panel-body">{body}</div>
      <p className="visually-hidden" aria-live="polite">{announcement}</p>
    </>
  );
}
