import { ADMIN_PRODUCT_FILTERS, formatRupees } from '@auction/shared';
import type { AdminProductFilter, AdminProductItem, Product } from '@auction/shared';
import { useEffect, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { LoadMore } from '../../../components/ui/LoadMore';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { tabId, Tabs, type TabItem } from '../../../components/ui/Tabs';
import { toast, useToasts } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation, useServerQuery, type ServerState } from '../../../lib/query';
import {
  auctionProductsQuery, deleteProduct, exportProducts, productAuctionsQuery, productsChanged, unassignedProductsQuery, useProductPages,
} from '../api/products-api';
import { mediaSrc } from '../model';
import { ImportProductsModal } from './ImportProductsModal';
import { ProductFormModal } from './ProductFormModal';
import './products.css';

type Tab = 'unassigned' | 'all' | 'auction';
/** A row of either list: the paged list's rows also name their auction. */
type Row = Product & { auction?: AdminProductItem['auction'] };
type Editing = { mode: 'add' } | { mode: 'edit'; product: Product } | null;

const TAB_ID = 'products-tab';
const PANEL_ID = 'products-panel';

export const NO_UNASSIGNED = 'No unassigned products';
export const NO_AUCTION_PRODUCTS = 'No products for this auction';
const LOAD_FAILED = 'Failed to load data';
export const SEARCH_DEBOUNCE_MS = 300;

const STATUS_LABELS: Record<AdminProductFilter | '', string> = { '': 'All products', unassigned: 'Unassigned', assigned: 'In an auction', sold: 'Sold' };
const EMPTY_TITLES: Record<AdminProductFilter | '', string> = { '': 'No products yet', unassigned: NO_UNASSIGNED, assigned: 'No products in an auction', sold: 'No sold products' };
const readStatus = (text: string | null): AdminProductFilter | '' => ((ADMIN_PRODUCT_FILTERS as readonly string[]).includes(text ?? '') ? text as AdminProductFilter : '');

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A read's failure, said once: the page's lists often fail together, for one reason. */
function complain(err: unknown) {
  const text = errorText(err, LOAD_FAILED);
  if (!useToasts.getState().toasts.some((t) => t.kind === 'error' && t.message === text)) toast.error(text);
}

/** A list, null until its first answer; empty when it could not be read (or the session ended). */
function orEmpty<T>(read: ServerState<T[]>): T[] | null {
  return read.data ?? (read.status === 'error' ? [] : null);
}

/**
 * /admin/products: the admin's unassigned products (what a new auction is made of), all of them a
 * page at a time (searched by name and filtered by where they are, both kept in the URL), or one
 * auction's; add, edit, delete, and products in bulk (CSV).
 */
export function ManageProductsPage() {
  const [params, setParams] = useSearchParams();
  const view = params.get('view');
  const tab: Tab = view === 'auction' || view === 'all' ? view : 'unassigned';
  const status = readStatus(params.get('status'));
  const urlQuery = params.get('q') ?? '';
  const [query, setQuery] = useState(urlQuery);
  const [picked, setPicked] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);

  /** One URL parameter changed (blank removes it); the history entry is replaced, not added. */
  function setParam(key: string, value: string) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (value) next.set(key, value);
      else next.delete(key);
      return next;
    }, { replace: true });
  }
  // The search box's text reaches the URL (and the server) once typing pauses.
  const settled = useSettled(query.trim(), SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (settled !== urlQuery.trim()) setParam('q', settled);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new settled text writes the URL
  }, [settled]);

  const list = useProductPages({ q: urlQuery, status }, tab === 'all');
  const listError = list.error;
  useEffect(() => {
    if (listError) complain(listError);
  }, [listError]);

  // A list that could not be read shows as empty (and its toast says why).
  const unassignedRead = useServerQuery(unassignedProductsQuery(), { onError: complain });
  const auctionsRead = useServerQuery(productAuctionsQuery(), { onError: complain });
  const unassigned = orEmpty(unassignedRead);
  const auctions = orEmpty(auctionsRead);
  // The picked auction while it exists, else the first (once the auctions are known).
  const auctionId = auctions?.some((a) => a.id === picked) ? picked : (auctions?.[0]?.id ?? '');
  const auctionRead = useServerQuery(auctionProductsQuery(auctionId), { enabled: auctions !== null, onError: complain });
  const auctionRows = orEmpty(auctionRead);

  function refresh() {
    void unassignedRead.refetch();
    if (tab === 'all') void list.refetch();
    void auctionsRead.refetch();
    if (tab === 'auction') void auctionRead.refetch();
  }

  const remove = useServerMutation({
    mutationFn: (product: Product) => deleteProduct(product.id),
    onSuccess: () => {
      toast.success('Deleted');
      productsChanged();
    },
    onError: (err) => toast.error(errorText(err, 'Delete failed')),
    // Either way the question is answered: the toast says how it went.
    onSettled: () => setDeleting(null),
  });
  const busy = remove.isPending;

  function confirmDelete() {
    if (deleting) remove.mutate(deleting);
  }

  async function download() {
    if (exporting) return;
    setExporting(true);
    try {
      await exportProducts();
      toast.success('CSV file generated.');
    } catch (err) {
      toast.error(errorText(err, 'Export failed'));
    } finally {
      setExporting(false);
    }
  }

  const totalInAuctions = auctions?.reduce((sum, a) => sum + a.product_count, 0) ?? 0;
  // The counts stay in the label text: the tabs' accessible names are 'Unassigned (n)', 'All Products (n)' and 'By Auction (n)'.
  const tabs: TabItem<Tab>[] = [
    { key: 'unassigned', label: `Unassigned (${unassigned?.length ?? 0})` },
    { key: 'all', label: list.total === null ? 'All Products' : `All Products (${list.total})` },
    { key: 'auction', label: `By Auction (${totalInAuctions})` },
  ];

  const listRows = list.items ?? (list.status === 'error' ? [] : null);
  const rows: Row[] | null = tab === 'unassigned' ? unassigned : tab === 'all' ? listRows : auctionRows;
  const loading = tab === 'auction' ? auctions === null || auctionRows === null : rows === null;
  const q = urlQuery.trim();

  return (
    <div className="page page-stack products-page">
      <div className="products-head">
        <p className="muted products-intro">Create products, then attach them to an auction from Manage Auctions.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-outline" onClick={refresh}>
            <Icon name="refresh" size={16} /> Refresh
          </button>
          <button type="button" className="btn btn-outline" onClick={() => setImporting(true)}>
            <Icon name="upload" size={16} /> Import CSV
          </button>
          <button type="button" className="btn btn-outline" onClick={() => void download()} aria-busy={exporting}>
            <Icon name="download" size={16} /> {exporting ? 'Exporting…' : 'Export CSV'}
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'add' })}>
            <Icon name="plus" size={16} /> Add Product
          </button>
        </div>
      </div>

      <section className="card">
        <div className="products-tabs-row">
          <Tabs tabs={tabs} value={tab} onChange={(t) => setParam('view', t === 'unassigned' ? '' : t)} idPrefix={TAB_ID} label="Products" panelId={PANEL_ID} />
          {tab === 'auction' && auctions && auctions.length > 0 && (
            <div className="products-picker">
              <label className="field-label" htmlFor="products-auction">Auction</label>
              <select id="products-auction" className="input products-select" value={auctionId} onChange={(e) => setPicked(e.target.value)}>
                {auctions.map((a) => (
                  <option key={a.id} value={a.id}>{a.name} ({a.id}) · {a.product_count}</option>
                ))}
              </select>
            </div>
          )}
        </div>

        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(TAB_ID, tab)}>
          {tab === 'all' && (
            <div className="products-filters">
              <div className="products-search">
                <label htmlFor="products-search" className="visually-hidden">Search products by name</label>
                <Icon name="search" size={18} className="products-search-icon" />
                <input
                  id="products-search"
                  type="search"
                  className="input products-search-input"
                  placeholder="Search by name"
                  value={query}
                  maxLength={200}
                  onChange={(e) => setQuery(e.target.value)}
                />
              </div>
              <div className="products-status-filter">
                <label className="field-label" htmlFor="products-status">Show</label>
                <select id="products-status" className="input products-select" value={status} onChange={(e) => setParam('status', e.target.value)}>
                  {(['', ...ADMIN_PRODUCT_FILTERS] as const).map((s) => <option key={s} value={s}>{STATUS_LABELS[s]}</option>)}
                </select>
              </div>
            </div>
          )}
          {loading ? (
            <Spinner label="Loading products…" />
          ) : tab === 'auction' && auctions?.length === 0 ? (
            <EmptyState icon="gavel" title="No auctions yet">Create an auction in Manage Auctions to see its products here.</EmptyState>
          ) : (
            <ProductsTable
              products={rows ?? []}
              empty={<EmptyState icon="box" title={tab === 'auction' ? NO_AUCTION_PRODUCTS : tab === 'unassigned' ? NO_UNASSIGNED : q ? `No products match “${q}”` : EMPTY_TITLES[status]} />}
              onEdit={(product) => setEditing({ mode: 'edit', product })}
              onDelete={setDeleting}
            />
          )}
          {tab === 'all' && list.items && (
            <LoadMore shown={list.items.length} total={list.total} more={list.more} onLoadMore={list.loadMore} noun="products" failed={LOAD_FAILED} />
          )}
        </div>
      </section>

      {editing && (
        <ProductFormModal
          key={editing.mode === 'edit' ? editing.product.id : 'add'}
          product={editing.mode === 'edit' ? editing.product : undefined}
          onSaved={productsChanged}
          onClose={() => setEditing(null)}
        />
      )}
      {importing && <ImportProductsModal onClose={() => setImporting(false)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete Product"
          message="Delete product?"
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={confirmDelete}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function ProductsTable({ products, empty, onEdit, onDelete }: {
  products: readonly Row[];
  empty: ReactNode;
  onEdit: (p: Product) => void;
  onDelete: (p: Product) => void;
}) {
  const columns: Column<Row>[] = [
    { key: 'id', header: 'ID', area: 'id', className: 'products-id', cell: (p) => <code>{p.id}</code> },
    { key: 'name', header: 'Name', area: 'name', className: 'products-name', cell: (p) => <NameWithCover product={p} /> },
    { key: 'description', header: 'Description', area: 'desc', className: 'products-desc', cell: (p) => p.description },
    { key: 'prices', header: 'Prices', area: 'prices', className: 'products-col-prices', cell: (p) => <Pricing product={p} /> },
    { key: 'status', header: 'Status', area: 'status', className: 'products-col-status', cell: (p) => <Placement product={p} /> },
    {
      key: 'actions', header: 'Actions', area: 'actions', align: 'end', width: 'fit', className: 'products-col-actions',
      cell: (p) => (
        <div className="products-actions">
          <button type="button" className="icon-btn products-action" aria-label={`Edit ${p.name}`} title="Edit" onClick={() => onEdit(p)}>
            <Icon name="edit" size={16} />
          </button>
          <button
            type="button"
            className="icon-btn products-action products-action-danger"
            aria-label={`Delete ${p.name}`}
            title={p.status === 'sold' ? 'Sold products cannot be deleted' : 'Delete'}
            disabled={p.status === 'sold'}
            onClick={() => onDelete(p)}
          >
            <Icon name="trash" size={16} />
          </button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      className="products-table"
      columns={columns}
      rows={products}
      rowKey={(p) => p.id}
      empty={empty}
      card={{ columns: 'minmax(0, 1fr) auto', areas: ['name status', 'id id', 'desc desc', 'prices prices', 'actions actions'] }}
    />
  );
}

/** Its status, and while it is in an auction its lot number ("Lot 12") and the auction's name. */
function Placement({ product: p }: { product: Row }) {
  return (
    <span className="products-placement">
      <StatusBadge kind="product" status={p.status} />
      {p.lot_number != null && <span className="products-lot">Lot {p.lot_number}</span>}
      {p.auction && <span className="products-auction" title={p.auction.id}>{p.auction.name}</span>}
    </span>
  );
}

/** The product's name (and category) beside its cover photo's thumbnail, or a placeholder while it has none. */
function NameWithCover({ product: p }: { product: Row }) {
  const cover = p.images[0];
  return (
    <span className="products-name-cell">
      {cover ? (
        <img className="products-cover" src={mediaSrc(cover.thumb_url)} alt="" width={40} height={40} loading="lazy" data-testid={`cover-${p.id}`} />
      ) : (
        <span className="products-cover products-cover-none" title="No photos yet" data-testid={`cover-${p.id}`}>
          <Icon name="image" size={18} />
        </span>
      )}
      <span className="products-name-text">
        <span>{p.name}</span>
        {p.category && <span className="products-category">{p.category.name}</span>}
      </span>
    </span>
  );
}

/** A lot's prices in a few words: the starting price, and the reserve and buy-now price when set. */
function Pricing({ product: p }: { product: Product }) {
  return (
    <span className="products-pricing" data-testid={`prices-${p.id}`}>
      <span><span className="products-pricing-label">Start</span> {formatRupees(p.starting_price)}</span>
      {p.reserve_price != null && <span><span className="products-pricing-label">Reserve</span> {formatRupees(p.reserve_price)}</span>}
      {p.buy_now_price !== null && <span><span className="products-pricing-label">Buy now</span> {formatRupees(p.buy_now_price)}</span>}
    </span>
  );
}
