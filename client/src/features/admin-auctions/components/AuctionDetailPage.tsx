import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { formatRupees, STRICT_CANCEL_WORDS, auctionSteps, stepsInWords, sumRupees, type AdminAuction, type Product, type Settled } from '@auction/shared';
import { paths } from '../../../config/paths';
import { Badge } from '../../../components/ui/Badge';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { formatCountdown, formatDateTimeSeconds, formatEndTime, secondsLeft } from '../../../lib/format';
import { holdClock, useClock } from '../../../lib/live';
import { useAuctionDetail } from '../hooks/use-auction-detail';
import { auctionStatus } from '../lib/forms';
import { settleWording } from '../lib/settle';
import { winnerOf, type FeedEntry } from '../lib/live-feed';
import { describeSoftClose, INCREMENT_SHORT, ladderSteps } from '../lib/rules';
import { BidderCancels } from './BidderCancels';
import { useAdminAuctionActions } from '../store/admin-auctions-store';
import { AuctionFormModal } from './AuctionFormModal';
import './admin-auctions.css';

/** Why a lot was not sold, as the settle answer says it. */
export const UNSOLD_REASON: Record<Settled['unsold'][number]['reason'], string> = {
  NO_BIDS: 'No bids',
  RESERVE_NOT_MET: 'Reserve not met',
};

/** The settle this page asked for: its answer, with the lots' names as they were (unsold lots leave the auction). */
interface SettleView {
  answer: Settled;
  names: ReadonlyMap<string, string>;
}

/** /admin/auctions/:auctionId: the creator sees the live bid feed with usernames and may settle; another admin a read-only page. */
export function AuctionDetailPage() {
  const { auctionId = '' } = useParams();
  const { status, data, isCreator, replaceAuction, settled } = useAuctionDetail(auctionId);
  const now = useClock((s) => s.now);
  const settle = useAdminAuctionActions((s) => s.settle);
  const settling = useAdminAuctionActions((s) => s.busy[auctionId] === true);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [settleView, setSettleView] = useState<SettleView | null>(null);

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

  const { auction, products, feed, boughtNow } = data;
  const st = auctionStatus(auction, now);
  const left = secondsLeft(auction.valid_until, now);
  // Rupee sums in paise (sumRupees), so amounts with decimals add up exactly.
  const sold = sumRupees(products.filter((p) => p.status === 'sold').map((p) => p.highest_bid));
  const leadingAndSold = sumRupees(products.map((p) => p.highest_bid));
  const bidCount = products.reduce((sum, p) => sum + p.bid_count, 0);
  const unsoldReasons = new Map(settleView?.answer.unsold.map((u) => [u.id, u.reason]) ?? []);
  // A lot with a leading bid freezes the increment rule.
  const ruleLocked = products.some((p) => p.highest_bid > 0 && p.status !== 'sold');
  // Running: "End early", saying how early; ended: the spec's Settle.
  const wording = settleWording(auction, now);

  async function confirmSettle() {
    // Unsold lots go back to unassigned: keep their names for the answer.
    const before = new Map(names);
    const outcome = await settle(auction.id);
    setConfirming(false);
    if (!outcome) return;
    settled(outcome.answer, outcome.auction);
    setSettleView({ answer: outcome.answer, names: before });
  }

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
            <div className="ad-hero-actions">
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => setEditing(true)}
                disabled={st === 'settled'}
                title={st === 'settled' ? 'A settled auction cannot be edited' : undefined}
              >
                Edit Auction
              </button>
              {st !== 'settled' && (
                <button type="button" className="btn btn-accent btn-sm" onClick={() => setConfirming(true)} disabled={settling} title={wording.title}>
                  {wording.label}
                </button>
              )}
            </div>
          )}
        </div>
        <dl className="ad-facts">
          <div>
            <dt>Valid Until</dt>
            <dd data-testid="valid-until"><EndFact auction={auction} left={left} /></dd>
          </div>
          <div>
            <dt>Time Left</dt>
            <dd data-testid="time-left">{st === 'active' ? formatCountdown(left) : st === 'settled' ? 'Settled' : 'Ended'}</dd>
          </div>
          <div>
            <dt>Bids</dt>
            <dd className="num">{bidCount}</dd>
          </div>
          <div>
            <dt>{st === 'settled' ? 'Revenue' : 'Leading total'}</dt>
            <dd className="num">{formatRupees(st === 'settled' ? sold : leadingAndSold)}</dd>
          </div>
          <div>
            <dt>Increments</dt>
            <dd title={auction.increment_rule === 'ladder' ? ladderSteps() : undefined} data-testid="steps">
              {auction.increment_rule === 'ladder' ? INCREMENT_SHORT.ladder : stepsInWords(auctionSteps(auction))}
            </dd>
          </div>
          <div>
            <dt>Cancelling</dt>
            <dd title={auction.cancel_policy === 'strict' ? STRICT_CANCEL_WORDS : 'A bidder may cancel a leading bid until the auction ends'} data-testid="cancel-policy">
              {auction.cancel_policy === 'strict' ? 'Strict' : 'Until the end'}
            </dd>
          </div>
          <div>
            <dt>Soft close</dt>
            <dd
              title={auction.soft_close_s > 0
                ? `A bid that takes the lead in the last ${auction.soft_close_s} s moves the end to ${auction.soft_close_s} s after it, at most ${auction.max_extension_s} s past the end set`
                : 'Bids never move the end'}
            >
              {describeSoftClose(auction)}
            </dd>
          </div>
        </dl>
      </section>

      {settleView && <Settlement view={settleView} feed={feed} products={products} boughtNow={boughtNow} />}

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
              {products.map((p) => (
                <ProductItem
                  key={p.id}
                  product={p}
                  open={st !== 'settled'}
                  winner={winnerOf(feed, p.id, products)}
                  boughtNow={boughtNow.includes(p.id)}
                  unsold={unsoldReasons.get(p.id)}
                />
              ))}
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
              {feed.map((f) => (
                <FeedItem
                  key={f.key}
                  entry={f}
                  productName={names.get(f.product_id) ?? f.product_id}
                  buyNow={f.buy_now === true || (f.state === 'won' && boughtNow.includes(f.product_id))}
                />
              ))}
            </ol>
          )}
        </section>
      </div>

      {auction.bidder_cancels && <BidderCancels rows={auction.bidder_cancels} strict={auction.cancel_policy === 'strict'} />}

      {editing && (
        <AuctionFormModal mode="edit" auction={auction} withProducts={false} ruleLocked={ruleLocked} onClose={() => setEditing(false)} onSaved={replaceAuction} />
      )}
      {confirming && (
        <ConfirmDialog
          title={wording.dialogTitle}
          message={wording.message}
          confirmLabel={wording.confirmLabel}
          busy={settling}
          onConfirm={() => void confirmSettle()}
          onCancel={() => setConfirming(false)}
        />
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

/** The current end; once soft close has moved it, marked Extended with the end that was set. */
function EndFact({ auction: a, left }: { auction: AdminAuction; left: number }) {
  const end = formatEndTime(a.valid_until, { extended: a.extended, secondsLeft: left });
  if (!a.extended) return <>{end}</>;
  return (
    <span className="ad-end">
      <span className="aa-end">
        <span>{end}</span>
        <Badge tone="warning">Extended</Badge>
      </span>
      <span className="ad-end-was">set for {formatDateTimeSeconds(a.original_valid_until)}</span>
    </span>
  );
}

/** Who won a lot: "Bought now by asha" for a buy-now, else "Won by asha" (once the name is known). */
function winnerText(winner: string | undefined, boughtNow: boolean): string {
  if (boughtNow) return winner ? `Bought now by ${winner}` : 'Bought now';
  return winner ? `Won by ${winner}` : 'Sold';
}

/** The settle answer: the lots sold, for how much and to whom, and the lots not sold, and why. */
function Settlement({ view, feed, products, boughtNow }: { view: SettleView; feed: readonly FeedEntry[]; products: readonly Product[]; boughtNow: readonly string[] }) {
  const { answer, names } = view;
  const name = (id: string) => names.get(id) ?? id;
  return (
    <section className="card ad-settle" aria-labelledby="ad-settle-title">
      <div className="card-header">
        <h3 id="ad-settle-title" className="card-title">Settlement</h3>
        <span className="aa-count">{answer.sold.length} sold · {answer.unsold.length} unsold</span>
      </div>
      <div className="ad-settle-body">
        <div className="ad-settle-group">
          <h4 className="ad-settle-head">Sold</h4>
          {answer.sold.length === 0 ? <p className="ad-settle-none">No lot was sold.</p> : (
            <ul className="ad-settle-list" aria-label="Sold lots">
              {answer.sold.map((s) => (
                <li key={s.product_id} className="ad-settle-item" data-product-id={s.product_id}>
                  <span className="ad-settle-name">{name(s.product_id)}</span>
                  <strong className="num">{formatRupees(s.amount)}</strong>
                  <span className="ad-settle-who">{winnerText(winnerOf(feed, s.product_id, products), boughtNow.includes(s.product_id))}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="ad-settle-group">
          <h4 className="ad-settle-head">Unsold</h4>
          {answer.unsold.length === 0 ? <p className="ad-settle-none">Every lot was sold.</p> : (
            <ul className="ad-settle-list" aria-label="Unsold lots">
              {answer.unsold.map((u) => (
                <li key={u.id} className="ad-settle-item" data-product-id={u.id}>
                  <span className="ad-settle-name">{name(u.id)}</span>
                  <Badge tone={u.reason === 'RESERVE_NOT_MET' ? 'warning' : 'neutral'}>{UNSOLD_REASON[u.reason]}</Badge>
                  <span className="ad-settle-who">Back to unassigned{u.reason === 'RESERVE_NOT_MET' ? '; the leading bid was refunded' : ''}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}

/** "Start ₹500 · Reserve ₹800 · Buy now ₹2,000": the prices set (the reserve only for its owner). */
function PriceLine({ product: p }: { product: Product }) {
  const parts = [`Start ${formatRupees(p.starting_price)}`];
  if (p.reserve_price != null) parts.push(`Reserve ${formatRupees(p.reserve_price)}`);
  if (p.buy_now_price !== null) parts.push(`Buy now ${formatRupees(p.buy_now_price)}`);
  return <span className="ad-product-prices">{parts.join(' · ')}</span>;
}

function ProductItem({ product: p, open, winner, boughtNow, unsold }: {
  product: Product;
  /** The auction is not settled yet. */
  open: boolean;
  winner: string | undefined;
  boughtNow: boolean;
  /** Not sold at this page's settle, and why. */
  unsold: Settled['unsold'][number]['reason'] | undefined;
}) {
  let outcome: ReactNode = null;
  if (p.status === 'sold') {
    outcome = <span className="ad-outcome ad-outcome-sold" data-testid={`outcome-${p.id}`}>{winnerText(winner, boughtNow)}</span>;
  } else if (unsold) {
    outcome = <span className="ad-outcome" data-testid={`outcome-${p.id}`}>Not sold: {UNSOLD_REASON[unsold].toLowerCase()}</span>;
  } else if (open) {
    outcome = (
      <span className="ad-outcome" data-testid={`outcome-${p.id}`}>
        {p.reserve_met !== null && <Badge tone={p.reserve_met ? 'success' : 'warning'}>{p.reserve_met ? 'Reserve met' : 'Reserve not met'}</Badge>}
        <span className="ad-outcome-next">Next bid from {formatRupees(p.min_next_bid)}</span>
      </span>
    );
  }
  return (
    <li className="ad-product" data-product-id={p.id}>
      <div className="ad-product-main">
        <span className="ad-product-name">{p.name}</span>
        <code className="aa-id">{p.id}</code>
        {p.description && <span className="ad-product-desc">{p.description}</span>}
        <PriceLine product={p} />
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
          {/* Not sold at the settle: back among the admin's unassigned products. */}
          <dd><StatusBadge kind="product" status={unsold ? 'unassigned' : p.status} /></dd>
        </div>
      </dl>
      {outcome}
    </li>
  );
}

function FeedItem({ entry: f, productName, buyNow }: { entry: FeedEntry; productName: string; buyNow: boolean }) {
  return (
    <li className="ad-feed-item" data-bid-id={f.bid_id}>
      <span className="ad-avatar" aria-hidden="true">{f.bidder.charAt(0).toUpperCase() || '?'}</span>
      <div className="ad-feed-main">
        <span className="ad-feed-line">
          <strong className="ad-bidder">{f.bidder}</strong> {buyNow ? 'bought now for' : 'bid'} <strong className="num">{formatRupees(f.amount)}</strong>
          {f.auto && <span className="ad-mark" title={`An automatic raise of ${f.bidder}’s maximum bid`}>auto</span>}
          {buyNow && <span className="ad-mark ad-mark-buy" title="Bought at the buy-now price">buy now</span>}
        </span>
        <span className="ad-feed-meta">
          on {productName} · <time dateTime={f.timestamp}>{formatDateTimeSeconds(f.timestamp)}</time>
        </span>
      </div>
      <StatusBadge kind="bid" status={f.state} />
    </li>
  );
}
