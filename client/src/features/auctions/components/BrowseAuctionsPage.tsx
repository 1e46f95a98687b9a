import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Auction } from '@auction/shared';
import { useLocation, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { Tabs, tabId } from '../../../components/ui/Tabs';
import { toast } from '../../../components/ui/toast/toast-store';
import { holdClock, useClock } from '../../../lib/live';
import { BROWSE_VIEWS, browseView, filterAuctions, type BrowseView } from '../../../lib/catalogue';
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

/** How long a lot reached by a link (a notice's) stays highlighted. */
export const LOT_HIGHLIGHT_MS = 2500;

/** The row of lot `productId` in the products panel, if it is listed there. */
function lotRow(panel: Element | null | undefined, productId: string): HTMLElement | null {
  for (const row of panel?.querySelectorAll<HTMLElement>('.auc-product') ?? []) {
    if (row.querySelector('.auc-id')?.textContent === `ID: ${productId}`) return row;
  }
  return null;
}

/** The view to show `auction` in: the current one if it lists it, else the one that does. */
function viewOf(auction: Auction, current: BrowseView, now: number): BrowseView {
  const lists = (v: BrowseView) => browseView([auction], v, now).length > 0;
  return lists(current) ? current : BROWSE_VIEWS.find(lists) ?? current;
}

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
 * products of an auction. ?auction={id}&lot={productId} (where a notice leads) opens that auction's
 * products and brings the lot into view.
 */
export function BrowseAuctionsPage() {
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const { key: locationKey } = useLocation();
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

  // Below the list (narrow screens) the panel scrolls into view, again once its products have arrived;
  // a lot named by a link (?lot=) is brought into view instead, and highlighted for a moment.
  const scrollPending = useRef(false);
  const pendingLot = useRef<{ auctionId: string; productId: string } | null>(null);
  const openId = useRef(selectedId);
  openId.current = selectedId;
  /** Brings the pending lot's row into view and highlights it; false when it is not on screen. */
  const showPendingLot = useCallback((): boolean => {
    const lot = pendingLot.current;
    if (!lot || lot.auctionId !== openId.current) return false;
    const row = lotRow(panelHeading.current?.closest('section'), lot.productId);
    if (!row) return false;
    pendingLot.current = null;
    const calm = window.matchMedia?.(REDUCED_MOTION).matches;
    row.scrollIntoView?.({ block: 'center', behavior: calm ? 'auto' : 'smooth' });
    row.classList.add('auc-product-target');
    setTimeout(() => row.classList.remove('auc-product-target'), LOT_HIGHLIGHT_MS);
    return true;
  }, []);
  const onProductsShown = useCallback(() => {
    if (pendingLot.current) {
      scrollPending.current = false;
      requestAnimationFrame(() => {
        // A lot no longer listed: the panel alone.
        if (!showPendingLot()) revealPanel(panelHeading.current);
        pendingLot.current = null;
      });
      return;
    }
    if (!scrollPending.current) return;
    scrollPending.current = false;
    requestAnimationFrame(() => revealPanel(panelHeading.current));
  }, [showPendingLot]);

  const onView = useCallback((auctionId: string) => {
    setSelectedId(auctionId);
    scrollPending.current = true;
    // Focus follows the user to the panel.
    requestAnimationFrame(() => {
      panelHeading.current?.focus({ preventScroll: true });
      revealPanel(panelHeading.current);
    });
  }, []);

  // A link to an auction (?auction=, a notice's): once the list is read, its products open in the view
  // that lists it (a search or filter hiding it is cleared), and the parameters leave the URL.
  const linkAuction = params.get('auction');
  const linkLot = params.get('lot');
  const handledLink = useRef<string | null>(null);
  useEffect(() => {
    if (linkAuction === null || !listed || handledLink.current === locationKey) return;
    handledLink.current = locationKey;
    const target = auctions.find((a) => a.id === linkAuction);
    const hidden = target !== undefined && filterAuctions([target], query, registeredOnly).length === 0;
    setParams((prev) => {
      const p = new URLSearchParams(prev);
      p.delete('auction');
      p.delete('lot');
      if (target) {
        const into = viewOf(target, view, now);
        if (into === 'active') p.delete('show');
        else p.set('show', into);
        if (hidden) p.delete('registered');
      }
      return p;
    }, { replace: true });
    if (!target) {
      toast.info('That auction is no longer listed');
      return;
    }
    if (hidden) setQuery('');
    pendingLot.current = linkLot ? { auctionId: target.id, productId: linkLot } : null;
    const alreadyOpen = target.id === openId.current;
    onView(target.id);
    // Its panel already open and its products shown: the lot is brought into view now (otherwise once they are).
    if (alreadyOpen && linkLot) requestAnimationFrame(() => void showPendingLot());
  }, [linkAuction, linkLot, listed, locationKey, auctions, query, registeredOnly, view, now, setParams, onView, showPendingLot]);

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
