import { useEffect, useId, useRef, useState } from 'react';
import type { AuctionSort, Category } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { useServerQuery } from '../../../lib/query';
import { categoriesQuery, type BrowseParams } from '../../../lib/catalogue';

/** How long typing rests before the search goes to the URL (and the server). */
export const SEARCH_DEBOUNCE_MS = 250;

const SORT_LABELS: Record<AuctionSort, string> = { ending: 'Ending soonest', newest: 'Newest', bids: 'Most bids' };
const NO_CATEGORIES: Category[] = [];

interface BrowseFiltersProps {
  params: BrowseParams;
  /** A bidder is signed in (only then can the list be narrowed to their registrations). */
  signedIn: boolean;
  /** The first page of cards has answered: the category list is asked for only then, so the cards come first. */
  cardsShown: boolean;
  onChange: (change: Partial<BrowseParams>) => void;
}

/** Search, category, sort and "Registered only"; on a phone they fold away under a "Filters" button. */
export function BrowseFilters({ params, signedIn, cardsShown, onChange }: BrowseFiltersProps) {
  const searchId = useId();
  const categoryId = useId();
  const sortId = useId();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const categories = useServerQuery(categoriesQuery(), { enabled: cardsShown }).data ?? NO_CATEGORIES;

  // The box follows the URL (back, forward, a shared link); typing reaches the URL once it rests.
  const [text, setText] = useState(params.q);
  const typed = useRef(params.q);
  useEffect(() => {
    typed.current = params.q;
    setText(params.q);
  }, [params.q]);
  const change = useRef(onChange);
  change.current = onChange;
  useEffect(() => {
    if (text === typed.current) return;
    const timer = setTimeout(() => {
      typed.current = text;
      change.current({ q: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const active = (params.category ? 1 : 0) + (params.sort !== 'ending' ? 1 : 0) + (params.registered ? 1 : 0);
  const known = params.category === '' || categories.length === 0 || categories.some((c) => c.slug === params.category);

  return (
    <div className="card auc-toolbar">
      <div className="auc-search">
        <label htmlFor={searchId} className="visually-hidden">Search auctions</label>
        <span className="auc-search-icon" aria-hidden="true"><Icon name="search" size={18} /></span>
        <input id={searchId} className="input auc-search-input" type="search" placeholder="Search auctions"
          autoComplete="off" maxLength={200} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <button type="button" className="btn btn-outline auc-filters-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <Icon name="menu" size={16} /> Filters{active > 0 ? ` (${active})` : ''}
      </button>
      <div id={panelId} className={`auc-filters${open ? ' auc-filters-open' : ''}`}>
        <div className="auc-filter">
          <label htmlFor={categoryId} className="auc-filter-label">Category</label>
          <select id={categoryId} className="input auc-select" value={params.category} onChange={(e) => onChange({ category: e.target.value })}>
            <option value="">All categories</option>
            {!known && <option value={params.category}>{params.category}</option>}
            {categories.map((c) => (
              <option key={c.id} value={c.slug}>
                {c.parent_id === null ? '' : '\u2003'}{c.name} ({c.open_lots})
              </option>
            ))}
          </select>
        </div>
        <div className="auc-filter">
          <label htmlFor={sortId} className="auc-filter-label">Sort</label>
          <select id={sortId} className="input auc-select" value={params.sort} onChange={(e) => onChange({ sort: e.target.value as AuctionSort })}>
            {(Object.keys(SORT_LABELS) as AuctionSort[]).map((s) => (
              <option key={s} value={s}>{s === 'ending' && params.tab === 'ended' ? 'Recently ended' : SORT_LABELS[s]}</option>
            ))}
          </select>
        </div>
        {signedIn && (
          <button type="button" className={`btn auc-filter-toggle ${params.registered ? 'btn-dark' : 'btn-outline'}`}
            aria-pressed={params.registered} onClick={() => onChange({ registered: !params.registered })}>
            <Icon name="check" size={16} /> Registered only
          </button>
        )}
      </div>
    </div>
  );
}
