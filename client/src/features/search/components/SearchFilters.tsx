import { useId, useState, type FormEvent } from 'react';
import { LOT_SORTS, SEARCH_QUERY_MAX, type Category } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { hasFilters, isPrice, sortLabel, type SearchFilters } from '../model';

interface Props {
  filters: SearchFilters;
  categories: Category[] | undefined;
  onChange: (next: SearchFilters) => void;
}

/**
 * The words and price bounds (sent with Search) and the category, Buy now, Open/Ended and sort
 * (applied at once). The form starts from the URL each time the URL's words or prices change.
 */
export function SearchFiltersBar({ filters, categories, onChange }: Props) {
  return <FiltersForm key={`${filters.q}\0${filters.min_price}\0${filters.max_price}`} filters={filters} categories={categories} onChange={onChange} />;
}

function FiltersForm({ filters, categories, onChange }: Props) {
  const id = useId();
  const [q, setQ] = useState(filters.q);
  const [min, setMin] = useState(filters.min_price);
  const [max, setMax] = useState(filters.max_price);
  const [priceError, setPriceError] = useState('');

  function submit(e: FormEvent) {
    e.preventDefault();
    const lo = min.trim();
    const hi = max.trim();
    if ((lo && !isPrice(lo)) || (hi && !isPrice(hi))) {
      setPriceError('Prices are amounts in rupees, with at most 2 decimals');
      return;
    }
    if (lo && hi && Number(lo) > Number(hi)) {
      setPriceError('The lowest price must not be above the highest');
      return;
    }
    setPriceError('');
    onChange({ ...filters, q, min_price: lo, max_price: hi });
  }

  // The server's default order heads the list as '' (relevance needs words to rank by).
  const defaultSort = filters.q.trim() ? 'relevance' : 'ending';
  const sorts = LOT_SORTS.filter((s) => s !== 'relevance' && s !== defaultSort);
  const sortValue = filters.sort && sorts.includes(filters.sort) ? filters.sort : '';
  const categoryKnown = !filters.category || (categories ?? []).some((c) => c.slug === filters.category || String(c.id) === filters.category);

  return (
    <form className="card search-filters" role="search" aria-label="Search lots" onSubmit={submit}>
      <div className="search-row">
        <label className="visually-hidden" htmlFor={`${id}-q`}>Words to search for</label>
        <span className="search-input-wrap">
          <Icon name="search" size={18} />
          <input
            id={`${id}-q`} className="input search-q" type="search" value={q} maxLength={SEARCH_QUERY_MAX}
            placeholder="Search lots by name, description or auction" onChange={(e) => setQ(e.target.value)}
          />
        </span>
        <button type="submit" className="btn btn-primary">Search</button>
      </div>
      <div className="search-filter-grid">
        <label className="field">
          <span className="field-label">Category</span>
          <select className="input" value={filters.category} onChange={(e) => onChange({ ...filters, category: e.target.value })}>
            <option value="">All categories</option>
            {!categoryKnown && <option value={filters.category}>{filters.category}</option>}
            {(categories ?? []).map((c) => (
              <option key={c.id} value={c.slug}>{c.parent_id === null ? c.name : `\u00a0\u00a0\u00a0${c.name}`}</option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Min price (₹)</span>
          <input className="input" inputMode="decimal" value={min} placeholder="Any" aria-invalid={priceError !== '' || undefined} aria-describedby={priceError ? `${id}-price` : undefined} onChange={(e) => setMin(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Max price (₹)</span>
          <input className="input" inputMode="decimal" value={max} placeholder="Any" aria-invalid={priceError !== '' || undefined} aria-describedby={priceError ? `${id}-price` : undefined} onChange={(e) => setMax(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Show</span>
          <select className="input" value={filters.status} onChange={(e) => onChange({ ...filters, status: e.target.value === 'ended' ? 'ended' : 'open' })}>
            <option value="open">Open lots</option>
            <option value="ended">Ended lots</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">Sort by</span>
          <select className="input" value={sortValue} onChange={(e) => onChange({ ...filters, sort: sorts.find((s) => s === e.target.value) ?? null })}>
            <option value="">{sortLabel(defaultSort, filters.status)}</option>
            {sorts.map((s) => <option key={s} value={s}>{sortLabel(s, filters.status)}</option>)}
          </select>
        </label>
        <label className="search-check">
          <input type="checkbox" checked={filters.buy_now} onChange={(e) => onChange({ ...filters, buy_now: e.target.checked })} />
          Buy now only
        </label>
      </div>
      {priceError && <p id={`${id}-price`} className="search-error" role="alert">{priceError}</p>}
      {hasFilters(filters) && (
        <button type="button" className="btn btn-sm btn-outline search-clear" onClick={() => onChange({ ...filters, category: '', min_price: '', max_price: '', buy_now: false, status: 'open' })}>
          <Icon name="close" size={14} /> Clear filters
        </button>
      )}
    </form>
  );
}
