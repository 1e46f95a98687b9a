import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CARD_WATCH_MAX, SEARCH_TOTAL_MAX } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { LoadMore } from '../../../components/ui/LoadMore';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import { useWatchAuctions } from '../../../lib/live';
import { categoriesQuery } from '../../../lib/catalogue';
import { useServerQuery } from '../../../lib/query';
import { useLotSearch } from '../hooks/use-lot-search';
import { countText, describeSearch, filtersToParams, filtersToQuery, hasFilters, readFilters, type SearchFilters, type ShownLot } from '../model';
import { LotResultCard } from './LotResultCard';
import { SearchFiltersBar } from './SearchFilters';
import './search.css';

export const LOAD_FAILED = 'Could not load the search results';
export const MORE_FAILED = 'Could not load more lots';

/**
 * /user/search: lots found by words and filters (all in the URL), a page at a time ("Load more", and
 * the next page read as the end of the list scrolls into view). The auctions of the lots shown are
 * watched, so prices and bid counts move live.
 */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const queryKey = JSON.stringify(filtersToQuery(filters));
  const query = useMemo(() => JSON.parse(queryKey) as Record<string, string>, [queryKey]);
  const search = useLotSearch(query);
  const categories = useServerQuery(categoriesQuery());
  const lots = search.lots;
  useWatchAuctions(watchedAuctions(lots, filters));

  function change(next: SearchFilters) {
    setParams(filtersToParams(next));
  }

  const categoryName = categories.data?.find((c) => c.slug === filters.category || String(c.id) === filters.category)?.name;
  const searched = describeSearch(filters, categoryName);

  let body;
  if (search.status === 'error') {
    body = (
      <EmptyState icon="alert" title={errorText(search.error, LOAD_FAILED)}>
        <button type="button" className="btn btn-outline btn-sm" onClick={search.refetch}>Retry</button>
      </EmptyState>
    );
  } else if (!lots) {
    body = <Spinner label="Searching…" />;
  } else if (lots.length === 0) {
    body = (
      <EmptyState icon="search" title={searched ? `No lots found ${searched.startsWith('“') ? 'for ' : ''}${searched}` : 'No lots to show'}>
        <p className="search-empty-hint">
          {hasFilters(filters) ? 'Try removing some filters, or fewer or other words.' : 'Try fewer or other words.'}
        </p>
        {hasFilters(filters) && (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => change({ ...filters, category: '', min_price: '', max_price: '', buy_now: false, status: 'open' })}>
            Remove filters
          </button>
        )}
      </EmptyState>
    );
  } else {
    body = (
      <>
        <ul className="lot-grid" aria-label="Lots found">
          {lots.map((lot) => <li key={lot.id}><LotResultCard lot={lot} /></li>)}
        </ul>
        <LoadMore
          shown={lots.length}
          total={search.total > SEARCH_TOTAL_MAX ? null : search.total}
          more={search.more}
          onLoadMore={search.loadMore}
          noun="lots"
          failed={MORE_FAILED}
        />
        {/* Remounted with each page, so a sentinel still in view after a page asks for the next. */}
        {search.more && <ScrollSentinel key={lots.length} onVisible={search.loadMore} />}
      </>
    );
  }

  return (
    <div className="page search-page">
      <SearchFiltersBar filters={filters} categories={categories.data} onChange={change} />
      <section className="search-results" aria-labelledby="search-count">
        <div className="search-summary" aria-live="polite">
          <h2 id="search-count" className="search-count">{lots ? countText(search.total) : 'Lots'}</h2>
          {lots && searched && <p className="search-what">{searched}</p>}
        </div>
        {body}
      </section>
    </div>
  );
}

/** The open auctions of the lots shown, each once, at most as many as a socket may watch. */
function watchedAuctions(lots: ShownLot[] | undefined, filters: SearchFilters): string[] {
  if (!lots || filters.status === 'ended') return [];
  const ids = new Set<string>();
  for (const lot of lots) {
    if (lot.sold) continue;
    ids.add(lot.auction.id);
    if (ids.size >= CARD_WATCH_MAX) break;
  }
  return [...ids];
}

/** Reads the next page when the end of the list comes near the viewport (the button stays for keyboards). */
function ScrollSentinel({ onVisible }: { onVisible: () => Promise<void> }) {
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onVisible);
  useEffect(() => {
    load.current = onVisible;
  });
  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      load.current().catch((err: unknown) => {
        if (!isSessionEnded(err)) toast.error(MORE_FAILED);
      });
    }, { rootMargin: '0px 0px 600px 0px' });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return <div ref={ref} className="search-sentinel" aria-hidden="true" />;
}
