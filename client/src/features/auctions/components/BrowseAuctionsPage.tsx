import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Auction } from '@auction/shared';
import { useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { Tabs, tabId } from '../../../components/ui/Tabs';
import { holdClock, useClock } from '../../live';
import { BROWSE_VIEWS, browseView, filterAuctions, type BrowseView } from '../lib/rules';
import { useAuctionList } from '../store/auctions-store';
import { AuctionCard } from './AuctionCard';
import { BidModal } from './BidModal';
import { BuyNowDialog } from './BuyNowDialog';
import { ProductsPanel } from './ProductsPanel';
import './auctions.css';

const NO_AUCTIONS: Auction[] = [];

/** Matches auctions.css: below this width the products panel sits under the list. */
const STACKED = '(max-width: 1099px)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function revealPanel(heading: HTMLElement | null) {
  if (!heading || !window.matchMedia?.(STACKED).matches) return;
  const calm = window.matchMedia(REDUCED_MOTION).matches;
  heading.closest('section')?.scrollIntoView({ block: 'start', behavior: calm ? 'auto' : 'smooth' });
}

const VIEW_LABELS: Record<BrowseView, string> = { active: 'Active', ending: 'Ending soon', ended: 'Ended' };
const EMPTY_VIEW: Record<BrowseView, string> = {
  active: 'New auctions will appear here as soon as they open.',
  ending: 'No open auction ends within the next 24 hours.',
  ended: 'Auctions appear here once they end.',
};

/**
 * /user/auctions (accepts ?registered=1 and ?show=ending|ended): Active (ending soonest first), Ending
 * soon (within a day) or Ended (most recent first) auctions; search, register, and bid live on the
 * products of an auction.
 */
export function BrowseAuctionsPage() {
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const registeredOnly = params.get('registered') === '1';
  const show = params.get('show');
  const view: BrowseView = show === 'ending' || show === 'ended' ? show : 'active';
  const viewsId = useId();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [bidOn, setBidOn] = useState<string | null>(null);
  const [buyOn, setBuyOn] = useState<string | null>(null);
  const panelHeading = useRef<HTMLHeadingElement>(null);

  // Read on mount (a failure toasted) and kept current by live events and after a reconnect.
  const { data, status: listStatus } = useAuctionList();
  const auctions = data ?? NO_AUCTIONS;
  const listed = listStatus === 'success';

  // Auctions move between the views as the clock reaches their ends.
  useEffect(() => holdClock(), []);
  const now = useClock((s) => s.now);
  const searched = useMemo(() => filterAuctions(auctions, query, registeredOnly), [auctions, query, registeredOnly]);
  const visible = useMemo(() => browseView(searched, view, now), [searched, view, now]);
  const counts = useMemo(() => Object.fromEntries(BROWSE_VIEWS.map((v) => [v, browseView(searched, v, now).length])) as Record<BrowseView, number>, [searched, now]);

  function setView(next: BrowseView) {
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      if (next === 'active') p.delete('show');
      else p.set('show', next);
      return p;
    }, { replace: true });
  }
  const selected = selectedId === null ? null : auctions.find((a) => a.id === selectedId) ?? null;

  // The open auction is watched live, and its products read afresh, by its panel (ProductsPanel).

  // A deleted auction closes its panel.
  useEffect(() => {
    if (selectedId !== null && listed && !selected) setSelectedId(null);
  }, [selectedId, listed, selected]);

  // Below the list (narrow screens) the panel scrolls into view, again once its products have arrived.
  const scrollPending = useRef(false);
  const onProductsShown = useCallback(() => {
    if (!scrollPending.current) return;
    scrollPending.current = false;
    requestAnimationFrame(() => revealPanel(panelHeading.current));
  }, []);

  const onView = useCallback((auctionId: string) => {
    setSelectedId(auctionId);
    scrollPending.current = true;
    // Focus follows the user to the panel.
    requestAnimationFrame(() => {
      panelHeading.current?.focus({ preventScroll: true });
      revealPanel(panelHeading.current);
    });
  }, []);

  const onClosePanel = useCallback(() => {
    setSelectedId(null);
    setBidOn(null);
    setBuyOn(null);
  }, []);

  const closeBid = useCallback(() => setBidOn(null), []);
  const closeBuy = useCallback(() => setBuyOn(null), []);

  function setRegisteredOnly(on: boolean) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (on) next.set('registered', '1');
      else next.delete('registered');
      return next;
    }, { replace: true });
  }

  const filtering = query.trim() !== '' || registeredOnly;
  let list;
  if (listStatus === 'idle' || listStatus === 'loading') {
    list = <Spinner label="Loading auctions…" />;
  } else if (visible.length === 0) {
    list = (
      <div className="card">
        <EmptyState icon="gavel" title="No auctions found">
          {filtering ? 'Try another search or clear the filter.' : EMPTY_VIEW[view]}
        </EmptyState>
      </div>
    );
  } else {
    list = (
      <ul className="auc-list">
        {visible.map((a) => (
          <li key={a.id}>
            <AuctionCard auction={a} selected={a.id === selectedId} onView={onView} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <div className="page auc-page">
      <div className="card auc-toolbar">
        <div className="auc-search">
          <label htmlFor={searchId} className="visually-hidden">Search auctions by name or ID</label>
          <span className="auc-search-icon" aria-hidden="true"><Icon name="search" size={18} /></span>
          <input id={searchId} className="input auc-search-input" type="search" placeholder="Search by name or ID"
            autoComplete="off" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <button type="button" className={`btn auc-filter-toggle ${registeredOnly ? 'btn-dark' : 'btn-outline'}`}
          aria-pressed={registeredOnly} onClick={() => setRegisteredOnly(!registeredOnly)}>
          <Icon name="check" size={16} /> Registered only
        </button>
        <p className="auc-count" aria-live="polite">
          {listed ? `${visible.length} of ${auctions.length} auctions` : ''}
        </p>
      </div>

      {registeredOnly && (
        <div className="auc-filter-note" role="status">
          <span>Showing only auctions you registered for.</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setRegisteredOnly(false)}>
            <Icon name="close" size={14} /> Clear filter
          </button>
        </div>
      )}

      <div className="auc-layout">
        <div className="auc-list-col">
          {/* The list's own heading (h1 page title → h2 → h3 per auction card); read, not shown. */}
          <h2 className="visually-hidden">Auctions</h2>
          <Tabs tabs={BROWSE_VIEWS.map((v) => ({ key: v, label: VIEW_LABELS[v], count: listed ? counts[v] : undefined }))}
            value={view} onChange={setView} idPrefix={viewsId} label="Show auctions" panelId={listId} className="auc-views" />
          <div id={listId} role="tabpanel" aria-labelledby={tabId(viewsId, view)}>
            {list}
          </div>
        </div>
        <ProductsPanel auction={selected} headingRef={panelHeading} onBid={setBidOn} onBuyNow={setBuyOn} onClose={onClosePanel} onShown={onProductsShown} />
      </div>

      {bidOn !== null && selected && <BidModal auctionId={selected.id} productId={bidOn} onClose={closeBid} />}
      {buyOn !== null && selected && <BuyNowDialog auctionId={selected.id} productId={buyOn} onClose={closeBuy} />}
    </div>
  );
}
