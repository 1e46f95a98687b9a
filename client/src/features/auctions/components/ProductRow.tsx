import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Product } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { lotPath } from '../../../config/paths';
import { formatRupees } from '../../../lib/format';
import { mediaSrc } from '../../../lib/media';
import { LotStarOf } from './lot-slots';
import { bidAction } from '../../../lib/catalogue';
import { LotState } from './LotState';

interface ProductRowProps {
  product: Product;
  registered: boolean;
  ended: boolean;
  registering: boolean;
  /** A buy-now purchase of this product is on its way. */
  buying: boolean;
  onBid: (productId: string) => void;
  onBuyNow: (productId: string) => void;
  onRegister: () => void;
  /** Told when this product's highest bid changes while it is on screen. */
  onHighestChange: (product: Product) => void;
}

const FLASH_MS = 2000;

/**
 * One lot: its highest bid (or starting bid before any), the caller's own state on it (leading, outbid,
 * won, lost) and its reserve as they change live, and the Place Bid and Buy now actions.
 */
export function ProductRow({ product, registered, ended, registering, buying, onBid, onBuyNow, onRegister, onHighestChange }: ProductRowProps) {
  const nameId = useId();
  const reasonId = useId();
  const shown = useRef(product.highest_bid);
  const [flash, setFlash] = useState(0);
  const notify = useRef(onHighestChange);
  notify.current = onHighestChange;

  // A new highest bid lights the row up briefly; each change restarts the glow.
  useEffect(() => {
    if (shown.current === product.highest_bid) return;
    shown.current = product.highest_bid;
    setFlash((n) => n + 1);
    notify.current(product);
  }, [product]);

  useEffect(() => {
    if (flash === 0) return;
    const timer = setTimeout(() => setFlash(0), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  const action = bidAction(product, registered, ended);
  const sold = product.status === 'sold';
  const onClick = registered ? () => onBid(product.id) : onRegister;
  const unbid = product.highest_bid <= 0 && !sold;
  const buyNowPrice = !sold && !ended ? product.buy_now_price : null;
  const page = product.auction_id === null ? null : lotPath(product.auction_id, product.id);
  const cover = product.images[0];

  return (
    <li className={`auc-product${flash ? ' auc-product-flash' : ''}${sold ? ' auc-product-sold' : ''}`} aria-labelledby={nameId}>
      {flash > 0 && <span key={flash} className="auc-product-glow" aria-hidden="true" />}
      <div className="auc-product-main">
        {/* The cover (or a placeholder) leads to the lot's page, as its name does; one stop for the keyboard. */}
        {page ? (
          <Link to={page} className="auc-product-thumb" tabIndex={-1} aria-hidden="true">
            {cover ? <img src={mediaSrc(cover.thumb_url)} alt="" loading="lazy" width={72} height={72} /> : <Icon name="image" size={24} />}
          </Link>
        ) : (
          <span className="auc-product-thumb" aria-hidden="true">
            {cover ? <img src={mediaSrc(cover.thumb_url)} alt="" loading="lazy" width={72} height={72} /> : <Icon name="image" size={24} />}
          </span>
        )}
        <div className="auc-product-text">
        <div className="auc-product-head">
          <h3 id={nameId} className="auc-product-name">{page ? <Link to={page} className="auc-product-link">{product.name}</Link> : product.name}</h3>
          <StatusBadge kind="product" status={product.status} />
          <LotStarOf lot={product} className="save-star-end" />
        </div>
        <p className="auc-id">ID: {product.id}</p>
        {(product.lot_number != null || product.category) && (
          <p className="auc-product-tags">
            {product.lot_number != null && <span className="auc-lot-number">Lot {product.lot_number}</span>}
            {product.category && <span className="auc-category">{product.category.name}</span>}
          </p>
        )}
        {product.description && <p className="auc-product-desc">{product.description}</p>}
        <LotState product={product} ended={ended} />
        </div>
      </div>
      <div className="auc-product-side">
        <dl className="auc-product-stats">
          <div>
            <dt>{unbid ? 'Starting bid' : 'Highest bid'}</dt>
            <dd className="auc-highest">
              {formatRupees(unbid ? product.min_next_bid : product.highest_bid)}
              {flash > 0 && <span className="auc-new-high">New</span>}
            </dd>
          </div>
          <div>
            <dt>Bids</dt>
            <dd>{product.bid_count}</dd>
          </div>
        </dl>
        <div className="auc-product-actions">
          <button type="button" className={`btn btn-sm ${registered ? 'btn-primary' : 'btn-accent'}`}
            disabled={action.disabled || (!registered && registering)}
            aria-describedby={action.reason ? `${nameId} ${reasonId}` : nameId}
            title={action.reason}
            onClick={onClick}>
            {!registered && registering ? 'Registering…' : action.label}
          </button>
          {buyNowPrice !== null && registered && (
            <button type="button" className="btn btn-sm btn-outline auc-buy-now" disabled={buying}
              aria-describedby={nameId} onClick={() => onBuyNow(product.id)}>
              {buying ? 'Buying…' : `Buy now ${formatRupees(buyNowPrice)}`}
            </button>
          )}
          {buyNowPrice !== null && !registered && <p className="auc-buy-now-note">Buy now {formatRupees(buyNowPrice)} once registered</p>}
        </div>
        {action.reason && <span id={reasonId} className="visually-hidden">{action.reason}</span>}
      </div>
    </li>
  );
}
