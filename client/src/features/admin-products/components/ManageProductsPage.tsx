import { formatRupees } from '@auction/shared';
import type { Product } from '@auction/shared';
import { useState, type ReactNode } from 'react';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { tabId, Tabs, type TabItem } from '../../../components/ui/Tabs';
import { toast, useToasts } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation, useServerQuery, type ServerState } from '../../../lib/query';
import { auctionProductsQuery, deleteProduct, productAuctionsQuery, productsChanged, unassignedProductsQuery } from '../api/products-api';
import { mediaSrc } from '../model';
import { ProductFormModal } from './ProductFormModal';
import './products.css';

type Tab = 'unassigned' | 'auction';
type Editing = { mode: 'add' } | { mode: 'edit'; product: Product } | null;

const TAB_ID = 'products-tab';
const PANEL_ID = 'products-panel';

export const NO_UNASSIGNED = 'No unassigned products';
export const NO_AUCTION_PRODUCTS = 'No products for this auction';
const LOAD_FAILED = 'Failed to load data';

/** A read's failure, said once: the page's lists often fail together, for one reason. */
function complain(err: unknown) {
  const text = errorText(err, LOAD_FAILED);
  if (!useToasts.getState().toasts.some((t) => t.kind === 'error' && t.message === text)) toast.error(text);
}

/** A list, null until its first answer; empty when it could not be read (or the session ended). */
function orEmpty<T>(read: ServerState<T[]>): T[] | null {
  return read.data ?? (read.status === 'error' ? [] : null);
}

/** /admin/products: the admin's products, unassigned or by auction, with add, edit and delete. */
export function ManageProductsPage() {
  const [tab, setTab] = useState<Tab>('unassigned');
  const [picked, setPicked] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);

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

  const totalInAuctions = auctions?.reduce((sum, a) => sum + a.product_count, 0) ?? 0;
  // The counts stay in the label text: the tabs' accessible names are 'Unassigned (n)' and 'By Auction (n)'.
  const tabs: TabItem<Tab>[] = [
    { key: 'unassigned', label: `Unassigned (${unassigned?.length ?? 0})` },
    { key: 'auction', label: `By Auction (${totalInAuctions})` },
  ];

  const rows = tab === 'unassigned' ? unassigned : auctionRows;
  const loading = tab === 'unassigned' ? unassigned === null : auctions === null || auctionRows === null;

  return (
    <div className="page page-stack products-page">
      <div className="products-head">
        <p className="muted products-intro">Create products, then attach them to an auction from Manage Auctions.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-outline" onClick={refresh}>
            <Icon name="refresh" size={16} /> Refresh
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'add' })}>
            <Icon name="plus" size={16} /> Add Product
          </button>
        </div>
      </div>

      <section className="card">
        <div className="products-tabs-row">
          <Tabs tabs={tabs} value={tab} onChange={setTab} idPrefix={TAB_ID} label="Products" panelId={PANEL_ID} />
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
          {loading ? (
            <Spinner label="Loading products…" />
          ) : tab === 'auction' && auctions?.length === 0 ? (
            <EmptyState icon="gavel" title="No auctions yet">Create an auction in Manage Auctions to see its products here.</EmptyState>
          ) : (
            <ProductsTable
              products={rows ?? []}
              empty={<EmptyState icon="box" title={tab === 'unassigned' ? NO_UNASSIGNED : NO_AUCTION_PRODUCTS} />}
              onEdit={(product) => setEditing({ mode: 'edit', product })}
              onDelete={setDeleting}
            />
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
  products: readonly Product[];
  empty: ReactNode;
  onEdit: (p: Product) => void;
  onDelete: (p: Product) => void;
}) {
  const columns: Column<Product>[] = [
    { key: 'id', header: 'ID', area: 'id', className: 'products-id', cell: (p) => <code>{p.id}</code> },
    { key: 'name', header: 'Name', area: 'name', className: 'products-name', cell: (p) => <NameWithCover product={p} /> },
    { key: 'description', header: 'Description', area: 'desc', className: 'products-desc', cell: (p) => p.description },
    { key: 'prices', header: 'Prices', area: 'prices', className: 'products-col-prices', cell: (p) => <Pricing product={p} /> },
    { key: 'status', header: 'Status', area: 'status', cell: (p) => <StatusBadge kind="product" status={p.status} /> },
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

/** The product's name beside its cover photo's thumbnail, or a placeholder while it has none. */
function NameWithCover({ product: p }: { product: Product }) {
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
      <span>{p.name}</span>
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
