import { useCallback, useState, type Ref } from 'react';
import type { Auction, Product } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { auctionTimeStatus, StatusBadge } from '../../../components/ui/StatusBadge';
import { formatCountdown, formatRupees } from '../../../lib/format';
import { isEnded } from '../lib/rules';
import { useAuctions } from '../store/auctions-store';
import { ProductRow } from './ProductRow';
import { useSecondsLeft } from './use-seconds-left';

interface ProductsPanelProps {
  auction: Auction | null;
  headingRef: Ref<HTMLHeadingElement>;
  onBid: (productId: string) => void;
  onClose: () => void;
}

const NO_PRODUCTS: Product[] = [];

/** The selected auction's products, live: highest bids, sold badges and the auction's end. */
export function ProductsPanel({ auction, headingRef, onBid, onClose }: ProductsPanelProps) {
  return (
    <section className="card auc-panel" aria-labelledby="auc-panel-title">
      {auction ? (
        <PanelBody auction={auction} headingRef={headingRef} onBid={onBid} onClose={onClose} />
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

function PanelBody({ auction, headingRef, onBid, onClose }: ProductsPanelProps & { auction: Auction }) {
  const products = useAuctions((s) => s.products[auction.id] ?? NO_PRODUCTS);
  const loaded = useAuctions((s) => s.products[auction.id] !== undefined);
  const status = useAuctions((s) => s.productsStatus[auction.id] ?? 'idle');
  const loadProducts = useAuctions((s) => s.loadProducts);
  const register = useAuctions((s) => s.register);
  const registering = useAuctions((s) => s.registering[auction.id] === true);
  const secs = useSecondsLeft(auction.valid_until);
  const ended = isEnded(auction, secs);
  const [announcement, setAnnouncement] = useState('');

  const onHighestChange = useCallback((p: Product) => {
    setAnnouncement(`New highest bid on ${p.name}: ${formatRupees(p.highest_bid)}`);
  }, []);
  const onRegister = useCallback(() => void register(auction.id), [register, auction.id]);

  let body;
  if (!loaded && status === 'error') {
    body = (
      <EmptyState icon="alert" title="Failed to load products">
        <button type="button" className="btn btn-outline btn-sm" onClick={() => void loadProducts(auction.id)}>Try again</button>
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
            onBid={onBid} onRegister={onRegister} onHighestChange={onHighestChange} />
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
            <span className="auc-panel-countdown">{ended ? 'Bidding closed' : `Ends in ${formatCountdown(secs)}`}</span>
          </p>
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
