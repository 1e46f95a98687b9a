import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { sumRupees, type Product } from '@auction/shared';
import { paths } from '../../../config/paths';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { formatCountdown, formatDateTime, formatDateTimeSeconds, formatRupees, secondsLeft } from '../../../lib/format';
import { holdClock, useClock } from '../../live';
import { useAuctionDetail } from '../hooks/use-auction-detail';
import { auctionStatus } from '../lib/forms';
import type { FeedEntry } from '../lib/live-feed';
import { AuctionFormModal } from './AuctionFormModal';
import './admin-auctions.css';

/** /admin/auctions/:auctionId: the creator sees the live bid feed with usernames; another admin a read-only page. */
export function AuctionDetailPage() {
  const { auctionId = '' } = useParams();
  const { status, data, isCreator, replaceAuction } = useAuctionDetail(auctionId);
  const now = useClock((s) => s.now);
  const [editing, setEditing] = useState(false);

  useEffect(() => holdClock(), []);

  const names = useMemo(() => new Map(data?.products.map((p) => [p.id, p.name]) ?? []), [data?.products]);

  if (status === 'loading') return <div className="page aa-page"><Spinner label="Loading auction…" /></div>;
  if (status === 'not-found' || status === 'error' || !data) {
    return (
      <div className="page aa-page">
        <BackLink />
        <section className="card">
          <EmptyState icon="alert" title={status === 'not-found' ? 'Auction not found' : 'Failed to load auction data'}>
            <p>{status === 'not-found' ? <>No auction has the id <code>{auctionId}</code>.</> : 'Please try again in a moment.'}</p>
          </EmptyState>
        </section>
      </div>
    );
  }

  const { auction, products, feed } = data;
  const st = auctionStatus(auction, now);
  const left = secondsLeft(auction.valid_until, now);
  // Rupee sums in paise (sumRupees), so amounts with decimals add up exactly.
  const sold = sumRupees(products.filter((p) => p.status === 'sold').map((p) => p.highest_bid));
  const leadingAndSold = sumRupees(products.map((p) => p.highest_bid));
  const bidCount = products.reduce((sum, p) => sum + p.bid_count, 0);

  return (
    <div className="page aa-page">
      <BackLink />

      <section className="card ad-hero" aria-labelledby="ad-name">
        <div className="ad-hero-main">
          <p className="ad-eyebrow">Auction</p>
          <h2 id="ad-name" className="ad-name">{auction.name}</h2>
          <p className="ad-id">ID <code>{auction.id}</code></p>
        </div>
        <div className="ad-hero-side">
          <StatusBadge kind="auction" status={st} />
          {isCreator && (
            <button
              type="button"
              className="btn btn-outline btn-sm"
              onClick={() => setEditing(true)}
              disabled={st === 'settled'}
              title={st === 'settled' ? 'A settled auction cannot be edited' : undefined}
            >
              Edit Auction
            </button>
          )}
        </div>
        <dl className="ad-facts">
          <div>
            <dt>Valid Until</dt>
            <dd>{formatDateTime(auction.valid_until)}</dd>
          </div>
          <div>
            <dt>Time Left</dt>
            <dd>{st === 'active' ? formatCountdown(left) : st === 'settled' ? 'Settled' : 'Ended'}</dd>
          </div>
          <div>
            <dt>Bids</dt>
            <dd className="num">{bidCount}</dd>
          </div>
          <div>
            <dt>{st === 'settled' ? 'Revenue' : 'Leading total'}</dt>
            <dd className="num">{formatRupees(st === 'settled' ? sold : leadingAndSold)}</dd>
          </div>
        </dl>
      </section>

      {!isCreator && (
        <p className="info-note" role="note">
          <Icon name="eye" size={18} />
          <span>Read-only view: this auction belongs to another admin. Bidders are masked and its live bid feed goes to its creator only.</span>
        </p>
      )}

      <div className="ad-layout">
        <section className="card" aria-labelledby="ad-products">
          <div className="card-header">
            <h3 id="ad-products" className="card-title">Products</h3>
            <span className="aa-count">{products.length}</span>
          </div>
          {products.length === 0 ? <EmptyState icon="box" title="No products in this auction" /> : (
            <ul className="ad-products">
              {products.map((p) => <ProductItem key={p.id} product={p} />)}
            </ul>
          )}
        </section>

        <section className="card ad-feed-card" aria-labelledby="ad-feed">
          <div className="card-header">
            <h3 id="ad-feed" className="card-title">{isCreator ? 'Live Bid Feed' : 'Bid History'}</h3>
            {isCreator && st === 'active' && <span className="ad-live"><span className="ad-live-dot" aria-hidden="true" /> Live</span>}
          </div>
          {feed.length === 0 ? (
            <EmptyState icon="bids" title="No bids yet">{isCreator && st === 'active' ? 'New bids appear here as they are placed.' : null}</EmptyState>
          ) : (
            <ol className="ad-feed" aria-live={isCreator ? 'polite' : undefined} aria-label="Bids, newest first">
              {feed.map((f) => <FeedItem key={f.bid_id} entry={f} productName={names.get(f.product_id) ?? f.product_id} />)}
            </ol>
          )}
        </section>
      </div>

      {editing && (
        <AuctionFormModal mode="edit" auction={auction} withProducts={false} onClose={() => setEditing(false)} onSaved={replaceAuction} />
      )}
    </div>
  );
}

function BackLink() {
  return (
    <Link to={paths.admin.auctions} className="ad-back">
      <Icon name="arrow-left" size={16} /> Manage Auctions
    </Link>
  );
}

function ProductItem({ product: p }: { product: Product }) {
  return (
    <li className="ad-product" data-product-id={p.id}>
      <div className="ad-product-main">
        <span className="ad-product-name">{p.name}</span>
        <code className="aa-id">{p.id}</code>
        {p.description && <span className="ad-product-desc">{p.description}</span>}
      </div>
      <dl className="ad-product-stats">
        <div>
          <dt>{p.status === 'sold' ? 'Sold for' : 'Highest bid'}</dt>
          <dd className="num" data-testid={`highest-${p.id}`}>{formatRupees(p.highest_bid)}</dd>
        </div>
        <div>
          <dt>Bids</dt>
          <dd className="num" data-testid={`bids-${p.id}`}>{p.bid_count}</dd>
        </div>
        <div>
          <dt className="visually-hidden">Status</dt>
          <dd><StatusBadge kind="product" status={p.status} /></dd>
        </div>
      </dl>
    </li>
  );
}

function FeedItem({ entry: f, productName }: { entry: FeedEntry; productName: string }) {
  return (
    <li className="ad-feed-item" data-bid-id={f.bid_id}>
      <span className="ad-avatar" aria-hidden="true">{f.bidder.charAt(0).toUpperCase() || '?'}</span>
      <div className="ad-feed-main">
        <span className="ad-feed-line">
          <strong className="ad-bidder">{f.bidder}</strong> bid <strong className="num">{formatRupees(f.amount)}</strong>
        </span>
        <span className="ad-feed-meta">
          on {productName} · <time dateTime={f.timestamp}>{formatDateTimeSeconds(f.timestamp)}</time>
        </span>
      </div>
      <StatusBadge kind="bid" status={f.status} />
    </li>
  );
}
