import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AUCTION_SORTS, type AuctionTab } from '@auction/shared';
import { useLocation, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { Tabs, tabId } from '../../../components/ui/Tabs';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { holdClock, useLive } from '../../../lib/live';
import { useServerInfiniteQuery } from '../../../lib/query';
import { useSession } from '../../../lib/session';
import { browseCardsOptions, cardsOf, useAuctionById, type BrowseParams } from '../../../lib/catalogue';
import { AuctionCard } from './AuctionCard';
import { BidModal } from './BidModal';
import { BrowseFilters } from './BrowseFilters';
import { BrowseMore } from './BrowseMore';
import { BuyNowDialog } from './BuyNowDialog';
import { ProductsPanel, type PanelAuction } from './ProductsPanel';
import './auctions.css';

/** Matches auctions.css: below this width the products panel sits under the list. */
const STACKED = '(max-width: 1099px)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** How long a lot reached by a link (a notice's) stays highlighted. */
export const LOT_HIGHLIGHT_MS = 2500;

const TABS: readonly AuctionTab[] = ['active', 'ending', 'ended'];
const TAB_LABELS: Record<AuctionTab, string> = { active: 'Active', ending: 'Ending soon', ended: 'Ended' };
const EMPTY_TAB: Record<AuctionTab, string> = {
  active: 'New auctions will appear here as soon as they open.',
  ending: 'No open auction ends within the next 24 hours.',
  ended: 'Auctions appear here once they end.',
};

/** The row of lot `productId` in the products panel, if it is listed there. */
function lotRow(panel: Element | null | undefined, productId: string): HTMLElement | null {
  for (const row of panel?.querySelectorAll<HTMLElement>('.auc-product') ?? []) {
    if (row.querySelector('.auc-id')?.textContent === `ID: ${productId}`) return row;
  }
  return null;
}

function revealPanel(heading: HTMLElement | null) {
  if (!heading || !window.matchMedia?.(STACKED).matches) return;
  const calm = window.matchMedia(REDUCED_MOTION).matches;
  heading.closest('section')?.scrollIntoView({ block: 'start', behavior: calm ? 'auto' : 'smooth' });
}

/** What the URL asks Browse to show (`?show=ending|ended&q=&category=&sort=newest|bids&registered=1`). */
function paramsOf(search: URLSearchParams, signedIn: boolean): BrowseParams {
  const show = search.get('show');
  const sort = search.get('sort');
  return {
    tab: show === 'ending' || show === 'ended' ? show : 'active',
    q: search.get('q') ?? '',
    category: search.get('category') ?? '',
    sort: AUCTION_SORTS.find((s) => s === sort) ?? 'ending',
    registered: signedIn && search.get('registered') === '1',
  };
}

function writeParams(into: URLSearchParams, p: BrowseParams): URLSearchParams {
  const next = new URLSearchParams(into);
  const set = (name: string, value: string) => (value ? next.set(name, value) : next.delete(name));
  set('show', p.tab === 'active' ? '' : p.tab);
  set('q', p.q.trim());
  set('category', p.category);
  set('sort', p.sort === 'ending' ? '' : p.sort);
  set('registered', p.registered ? '1' : '');
  return next;
}

/**
 * /user/auctions: the auctions a page at a time (Active, Ending soon, Ended), searched, filtered by
 * category and sorted, every choice kept in the URL; the cards on screen stay live. "Load more" (and
 * scrolling to the end) reads the next page. ?auction={id}&lot={productId} (where a notice leads)
 * opens that auction's products, read by id whether or not a loaded page holds it, and brings the lot
 * into view.
 */
export function BrowseAuctionsPage() {
  const [search, setSearch] = useSearchParams();
  const { key: locationKey } = useLocation();
  const signedIn = useSession((s) => s.user !== null);
  const params = useMemo(() => paramsOf(search, signedIn), [search, signedIn]);
  const tabsId = useId();
  const listId = useId();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [bidOn, setBidOn] = useState<string | null>(null);
  const [buyOn, setBuyOn] = useState<string | null>(null);
  const panelHeading = useRef<HTMLHeadingElement>(null);

  const pages = useServerInfiniteQuery(browseCardsOptions(params));
  const cards = useMemo(() => cardsOf(pages.data), [pages.data]);
  const counts = pages.data?.pages[0]?.counts;
  const listed = pages.status === 'success';

  // Countdowns tick while the page is shown.
  useEffect(() => holdClock(), []);

  // The cards on screen are watched live (the newest-loaded ones when there are more than the server
  // takes); the live store asks again after a reconnect.
  const cardKey = cards.map((c) => c.id).join('\0');
  useEffect(() => {
    useLive.getState().watchCards(cardKey === '' ? [] : cardKey.split('\0'));
  }, [cardKey]);
  useEffect(() => () => useLive.getState().watchCards([]), []);

  const change = useCallback((next: Partial<BrowseParams>) => {
    // A new filter is a new history entry: back returns to the list as it was.
    setSearch((prev) => writeParams(prev, { ...paramsOf(prev, signedIn), ...next }));
  }, [setSearch, signedIn]);

  // The panel shows the card at once; the auction itself (its rules, which bidding needs) is read by id,
  // which also opens one that no loaded page holds.
  const selected = useAuctionById(selectedId);
  const selectedCard = selectedId === null ? undefined : cards.find((c) => c.id === selectedId);
  const fullAuction = selected.data?.id === selectedId ? selected.data : null;
  const shownAuction: PanelAuction | null = fullAuction
    ? { ...fullAuction, registered: fullAuction.registered || selectedCard?.registered === true }
    : selectedCard ?? null;

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
    // Focus follows the user to the panel (its heading, once the auction is there).
    requestAnimationFrame(() => {
      panelHeading.current?.focus({ preventScroll: true });
      revealPanel(panelHeading.current);
    });
  }, []);

  // An auction that cannot be read and is on no card (gone) closes its panel.
  const missing = selectedId !== null && selected.status === 'error' && selectedCard === undefined;
  useEffect(() => {
    if (!missing) return;
    toast.info('That auction is no longer listed');
    setSelectedId(null);
  }, [missing]);
  // A card removed live (its auction deleted) closes its panel too.
  const removed = useRef(new Set<string>());
  useEffect(() => {
    const shown = new Set(cards.map((c) => c.id));
    if (selectedId !== null && removed.current.has(selectedId) && !shown.has(selectedId)) setSelectedId(null);
    removed.current = shown;
  }, [cards, selectedId]);

  // A link to an auction (?auction=, a notice's): its products open (the auction read by id, so one no
  // loaded page holds opens too) and the parameters leave the URL.
  const linkAuction = search.get('auction');
  const linkLot = search.get('lot');
  const handledLink = useRef<string | null>(null);
  useEffect(() => {
    if (linkAuction === null || handledLink.current === locationKey) return;
    handledLink.current = locationKey;
    setSearch((prev) => {
      const p = new URLSearchParams(prev);
      p.delete('auction');
      p.delete('lot');
      return p;
    }, { replace: true });
    pendingLot.current = linkLot ? { auctionId: linkAuction, productId: linkLot } : null;
    const alreadyOpen = linkAuction === openId.current;
    onView(linkAuction);
    // Its panel already open and its products shown: the lot is brought into view now (otherwise once they are).
    if (alreadyOpen && linkLot) requestAnimationFrame(() => void showPendingLot());
  }, [linkAuction, linkLot, locationKey, setSearch, onView, showPendingLot]);

  const onClosePanel = useCallback(() => {
    setSelectedId(null);
    setBidOn(null);
    setBuyOn(null);
  }, []);
  const closeBid = useCallback(() => setBidOn(null), []);
  const closeBuy = useCallback(() => setBuyOn(null), []);

  const filtering = params.q.trim() !== '' || params.category !== '' || params.registered;
  let list;
  if (pages.status === 'error') {
    list = (
      <div className="card" role="alert">
        <EmptyState icon="alert" title="Could not load auctions">
          <p className="auc-error-text">{errorText(pages.error, 'The server did not answer.')}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void pages.refetch()}>Retry</button>
        </EmptyState>
      </div>
    );
  } else if (!listed) {
    list = <Spinner label="Loading auctions…" />;
  } else if (cards.length === 0) {
    list = (
      <div className="card">
        <EmptyState icon="gavel" title="No auctions found">
          {filtering ? 'Try another search or clear the filters.' : EMPTY_TAB[params.tab]}
        </EmptyState>
      </div>
    );
  } else {
    list = (
      <>
        <ul className="auc-list">
          {cards.map((a) => (
            <li key={a.id}>
              <AuctionCard auction={a} selected={a.id === selectedId} signedIn={signedIn} onView={onView} />
            </li>
          ))}
        </ul>
        <BrowseMore shown={cards.length} total={counts?.[params.tab] ?? null} more={pages.hasNextPage}
          loading={pages.fetchingNextPage} onLoadMore={pages.fetchNextPage} />
      </>
    );
  }

  return (
    <div className="page auc-page">
      <BrowseFilters params={params} signedIn={signedIn} cardsShown={pages.status !== 'loading'} onChange={change} />

      {params.registered && (
        <div className="auc-filter-note" role="status">
          <span>Showing only auctions you registered for.</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => change({ registered: false })}>Clear filter</button>
        </div>
      )}

      <div className="auc-layout">
        <div className="auc-list-col">
          {/* The list's own heading (h1 page title → h2 → h3 per auction card); read, not shown. */}
          <h2 className="visually-hidden">Auctions</h2>
          <Tabs tabs={TABS.map((t) => ({ key: t, label: TAB_LABELS[t], count: counts?.[t] }))}
            value={params.tab} onChange={(tab) => change({ tab })} idPrefix={tabsId} label="Show auctions" panelId={listId} className="auc-views" />
          <div id={listId} role="tabpanel" aria-labelledby={tabId(tabsId, params.tab)}>
            {list}
          </div>
        </div>
        {(signedIn || selectedId !== null) && (
          <ProductsPanel auction={shownAuction} loading={selectedId !== null && shownAuction === null} headingRef={panelHeading}
            onBid={setBidOn} onBuyNow={setBuyOn} onClose={onClosePanel} onShown={onProductsShown} />
        )}
      </div>

      {bidOn !== null && fullAuction && <BidModal auctionId={fullAuction.id} productId={bidOn} onClose={closeBid} />}
      {buyOn !== null && shownAuction && <BuyNowDialog auctionId={shownAuction.id} productId={buyOn} onClose={closeBuy} />}
    </div>
  );
}
