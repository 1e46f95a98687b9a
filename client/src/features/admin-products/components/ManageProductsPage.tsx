import type { AdminAuction, Product } from '@auction/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge } from '../../../components/ui/Badge';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { tabId, Tabs, type TabItem } from '../../../components/ui/Tabs';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import {
  createProduct, deleteProduct, fetchAuctionProducts, fetchMyAuctions, fetchUnassigned, updateProduct,
} from '../api/products-api';
import { productBadge, type ProductDraft } from '../model';
import { ProductFormModal } from './ProductFormModal';
import './products.css';

type Tab = 'unassigned' | 'auction';
type Editing = { mode: 'add' } | { mode: 'edit'; product: Product } | null;

const TAB_ID = 'products-tab';
const PANEL_ID = 'products-panel';

export const NO_UNASSIGNED = 'No unassigned products';
export const NO_AUCTION_PRODUCTS = 'No products for this auction';

/** /admin/products: the admin's products, unassigned or by auction, with add, edit and delete. */
export function ManageProductsPage() {
  const [tab, setTab] = useState<Tab>('unassigned');
  const [unassigned, setUnassigned] = useState<Product[] | null>(null);
  const [auctions, setAuctions] = useState<AdminAuction[] | null>(null);
  const [auctionId, setAuctionId] = useState('');
  const [auctionProducts, setAuctionProducts] = useState<Product[] | null>(null);
  const [loadingAuction, setLoadingAuction] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const [busy, setBusy] = useState(false);
  const auctionReq = useRef(0);

  const loadBase = useCallback(async () => {
    const [u, a] = await Promise.allSettled([fetchUnassigned(), fetchMyAuctions()]);
    if (u.status === 'fulfilled') setUnassigned(u.value);
    if (a.status === 'fulfilled') {
      setAuctions(a.value);
      setAuctionId((current) => (a.value.some((x) => x.id === current) ? current : (a.value[0]?.id ?? '')));
    }
    const failed = [u, a].find((r) => r.status === 'rejected');
    if (failed) {
      if (u.status === 'rejected') setUnassigned((prev) => prev ?? []);
      if (a.status === 'rejected') setAuctions((prev) => prev ?? []);
      if (!isSessionEnded(failed.reason)) toast.error(errorText(failed.reason, 'Failed to load data'));
    }
  }, []);

  const loadAuction = useCallback(async (id: string) => {
    const mine = ++auctionReq.current;
    if (!id) {
      setAuctionProducts([]);
      return;
    }
    setLoadingAuction(true);
    try {
      const products = await fetchAuctionProducts(id);
      if (mine === auctionReq.current) setAuctionProducts(products);
    } catch (err) {
      if (mine === auctionReq.current) {
        setAuctionProducts([]);
        if (!isSessionEnded(err)) toast.error(errorText(err, 'Failed to load data'));
      }
    } finally {
      if (mine === auctionReq.current) setLoadingAuction(false);
    }
  }, []);

  useEffect(() => { void loadBase(); }, [loadBase]);
  useEffect(() => {
    if (auctions !== null) void loadAuction(auctionId);
  }, [auctions, auctionId, loadAuction]);

  async function refresh() {
    await loadBase();
    if (tab === 'auction') await loadAuction(auctionId);
  }

  async function save(draft: ProductDraft): Promise<boolean> {
    if (!editing) return false;
    setBusy(true);
    try {
      if (editing.mode === 'add') {
        await createProduct(draft);
        toast.success('Product created');
      } else {
        await updateProduct(editing.product.id, { name: draft.name, description: draft.description });
        toast.success('Product updated');
      }
      setEditing(null);
      await refresh();
      return true;
    } catch (err) {
      toast.error(errorText(err, editing.mode === 'add' ? 'Create failed' : 'Update failed'));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    try {
      await deleteProduct(deleting.id);
      toast.success('Deleted');
      setDeleting(null);
      await refresh();
    } catch (err) {
      toast.error(errorText(err, 'Delete failed'));
      setDeleting(null);
    } finally {
      setBusy(false);
    }
  }

  const totalInAuctions = auctions?.reduce((sum, a) => sum + a.product_count, 0) ?? 0;
  // The counts stay in the label text: the tabs' accessible names are 'Unassigned (n)' and 'By Auction (n)'.
  const tabs: TabItem<Tab>[] = [
    { key: 'unassigned', label: `Unassigned (${unassigned?.length ?? 0})` },
    { key: 'auction', label: `By Auction (${totalInAuctions})` },
  ];

  const rows = tab === 'unassigned' ? unassigned : auctionProducts;
  const loading = tab === 'unassigned' ? unassigned === null : auctions === null || loadingAuction || auctionProducts === null;

  return (
    <div className="page page-stack products-page">
      <div className="products-head">
        <p className="muted products-intro">Create products, then attach them to an auction from Manage Auctions.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-outline" onClick={() => void refresh()}>
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
              <select id="products-auction" className="input products-select" value={auctionId} onChange={(e) => setAuctionId(e.target.value)}>
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
          ) : !rows || rows.length === 0 ? (
            <EmptyState icon="box" title={tab === 'unassigned' ? NO_UNASSIGNED : NO_AUCTION_PRODUCTS} />
          ) : (
            <ProductsTable products={rows} onEdit={(product) => setEditing({ mode: 'edit', product })} onDelete={setDeleting} />
          )}
        </div>
      </section>

      {editing && (
        <ProductFormModal
          key={editing.mode === 'edit' ? editing.product.id : 'add'}
          product={editing.mode === 'edit' ? editing.product : undefined}
          busy={busy}
          onSubmit={save}
          onClose={() => { if (!busy) setEditing(null); }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Delete Product"
          message="Delete product?"
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function ProductsTable({ products, onEdit, onDelete }: {
  products: readonly Product[];
  onEdit: (p: Product) => void;
  onDelete: (p: Product) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table products-table">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Status</th>
            <th scope="col" className="products-col-actions">Actions</th>
          </tr>
        </thead>
        <tbody>
          {products.map((p) => {
            const badge = productBadge(p.status);
            return (
              <tr key={p.id}>
                <td data-label="ID" className="products-id"><code>{p.id}</code></td>
                <td data-label="Name" className="products-name">{p.name}</td>
                <td data-label="Description" className="products-desc">{p.description}</td>
                <td data-label="Status" className="products-status"><Badge tone={badge.tone}>{badge.label}</Badge></td>
                <td className="products-col-actions">
                  <div className="products-actions">
                    <button type="button" className="icon-btn products-action" aria-label={`Edit ${p.name}`} title="Edit" onClick={() => onEdit(p)}>
                      <EditGlyph />
                    </button>
                    <button
                      type="button"
                      className="icon-btn products-action products-action-danger"
                      aria-label={`Delete ${p.name}`}
                      title={p.status === 'sold' ? 'Sold products cannot be deleted' : 'Delete'}
                      disabled={p.status === 'sold'}
                      onClick={() => onDelete(p)}
                    >
                      <TrashGlyph />
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// The shared icon set has no pencil or bin; these two follow its 24×24 stroke style.
function EditGlyph() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4z" />
    </svg>
  );
}

function TrashGlyph() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6" />
      <path d="M10 11v6M14 11v6" />
    </svg>
  );
}
