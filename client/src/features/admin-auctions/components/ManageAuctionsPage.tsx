import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AdminAuction } from '@auction/shared';
import { adminAuctionPath } from '../../../config/paths';
import { Badge } from '../../../components/ui/Badge';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { formatDateTime, formatEndTime, secondsLeft } from '../../../lib/format';
import { holdClock, useClock } from '../../../lib/live';
import { auctionStatus } from '../lib/forms';
import { settleWording } from '../lib/settle';
import { useAdminAuctions } from '../store/admin-auctions-store';
import { AuctionFormModal } from './AuctionFormModal';
import './admin-auctions.css';

export const CONFIRM_DELETE = 'Are you sure you want to delete this auction?';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; auction: AdminAuction }
  | { kind: 'settle'; auction: AdminAuction }
  | { kind: 'delete'; auction: AdminAuction };

/** /admin/auctions: the admin's own auctions with edit, settle and delete. */
export function ManageAuctionsPage() {
  const { auctions, status, busy, load, settle, remove } = useAdminAuctions();
  const now = useClock((s) => s.now);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  useEffect(() => holdClock(), []);
  useEffect(() => {
    void load();
  }, [load]);

  async function confirm() {
    if (dialog?.kind !== 'settle' && dialog?.kind !== 'delete') return;
    // Either way the question is answered: the toast says how it went.
    if (dialog.kind === 'settle') await settle(dialog.auction.id);
    else await remove(dialog.auction.id);
    setDialog(null);
  }

  const pending = dialog && (dialog.kind === 'settle' || dialog.kind === 'delete') ? busy[dialog.auction.id] === true : false;

  return (
    <div className="page aa-page">
      <section className="card aa-head">
        <div className="aa-head-text">
          <h2 className="aa-title">Your auctions</h2>
          <p className="aa-sub">Create auctions from your unassigned products, edit them while they run and settle them when you are done.</p>
        </div>
        <div className="toolbar">
          <button type="button" className="btn btn-outline" onClick={() => void load()} disabled={status === 'loading'}>
            <Icon name="refresh" size={18} /> Refresh
          </button>
          <button type="button" className="btn btn-primary" onClick={() => setDialog({ kind: 'create' })}>
            <Icon name="plus" size={18} /> Create Auction
          </button>
        </div>
      </section>

      <section className="card aa-table-card" aria-labelledby="aa-list-title">
        <div className="card-header">
          <h3 id="aa-list-title" className="card-title">Auctions</h3>
          {status === 'ready' && <span className="aa-count">{auctions.length} total</span>}
        </div>
        {status === 'loading' || status === 'idle' ? <Spinner label="Loading auctions…" /> : (
          <AuctionsTable
            auctions={auctions}
            now={now}
            busy={busy}
            onDialog={setDialog}
            empty={(
              <EmptyState icon="gavel" title="No auctions found. Create your first auction!">
                <button type="button" className="btn btn-primary btn-sm" onClick={() => setDialog({ kind: 'create' })}>
                  <Icon name="plus" size={16} /> Create Auction
                </button>
              </EmptyState>
            )}
          />
        )}
      </section>

      {dialog?.kind === 'create' && <AuctionFormModal mode="create" onClose={() => setDialog(null)} />}
      {dialog?.kind === 'edit' && <AuctionFormModal mode="edit" auction={dialog.auction} onClose={() => setDialog(null)} />}
      {dialog?.kind === 'settle' && (
        <ConfirmDialog
          title={settleWording(dialog.auction, now).dialogTitle}
          message={settleWording(dialog.auction, now).message}
          confirmLabel={settleWording(dialog.auction, now).confirmLabel}
          busy={pending}
          onConfirm={() => void confirm()}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title="Delete Auction"
          message={CONFIRM_DELETE}
          confirmLabel="Delete"
          danger
          busy={pending}
          onConfirm={() => void confirm()}
          onCancel={() => setDialog(null)}
        />
      )}
    </div>
  );
}

function AuctionsTable({ auctions, now, busy, onDialog, empty }: {
  auctions: readonly AdminAuction[];
  now: number;
  busy: Record<string, boolean>;
  onDialog: (dialog: Dialog) => void;
  empty: ReactNode;
}) {
  const columns: Column<AdminAuction>[] = [
    { key: 'id', header: 'ID', cell: (a) => <code className="aa-id">{a.id}</code> },
    { key: 'name', header: 'Name', cell: (a) => <Link className="aa-name-link" to={adminAuctionPath(a.id)}>{a.name}</Link> },
    { key: 'end', header: 'End Date', className: 'num', cell: (a) => <EndDate auction={a} now={now} /> },
    { key: 'products', header: 'Products', align: 'end', className: 'num', cell: (a) => a.product_count },
    { key: 'status', header: 'Status', cell: (a) => <StatusBadge kind="auction" status={auctionStatus(a, now)} /> },
    {
      key: 'actions', header: 'Actions', align: 'end', label: false, className: 'aa-col-actions',
      cell: (a) => {
        const settled = auctionStatus(a, now) === 'settled';
        const off = settled || busy[a.id] === true;
        const wording = settleWording(a, now);
        return (
          <div className="aa-actions">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              disabled={off}
              title={settled ? 'A settled auction cannot be edited' : `Edit ${a.name}`}
              onClick={() => onDialog({ kind: 'edit', auction: a })}
            >
              Edit
            </button>
            <button
              type="button"
              className="btn btn-accent btn-sm"
              disabled={off}
              title={settled ? 'This auction is already settled' : wording.title}
              onClick={() => onDialog({ kind: 'settle', auction: a })}
            >
              {settled ? 'Settled' : wording.label}
            </button>
            <button
              type="button"
              className="btn btn-danger-outline btn-sm"
              disabled={off}
              title={settled ? 'A settled auction cannot be deleted' : `Delete ${a.name}`}
              onClick={() => onDialog({ kind: 'delete', auction: a })}
            >
              Delete
            </button>
          </div>
        );
      },
    },
  ];
  return (
    <DataTable
      className="aa-table"
      columns={columns}
      rows={auctions}
      rowKey={(a) => a.id}
      rowProps={(a) => ({ 'data-auction-id': a.id })}
      empty={empty}
    />
  );
}

/** The end, marked when soft close has moved it (the title says from when). */
function EndDate({ auction: a, now }: { auction: Pick<AdminAuction, 'valid_until' | 'original_valid_until' | 'extended'>; now: number }) {
  const end = formatEndTime(a.valid_until, { extended: a.extended, secondsLeft: secondsLeft(a.valid_until, now) });
  if (!a.extended) return <>{end}</>;
  return (
    <span className="aa-end" title={`Soft close moved the end from ${formatDateTime(a.original_valid_until)}`}>
      <span>{end}</span>
      <Badge tone="warning">Extended</Badge>
    </span>
  );
}
