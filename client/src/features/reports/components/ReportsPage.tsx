import { formatRupees } from '@auction/shared';
import type { AuctionReport, ProductReport } from '@auction/shared';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { adminAuctionPath } from '../../../config/paths';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { StatCard } from '../../../components/ui/StatCard';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { tabId, Tabs } from '../../../components/ui/Tabs';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { downloadText } from '../../../lib/csv';
import { formatDateTime } from '../../../lib/format';
import { useServerQuery } from '../../../lib/query';
import { reportsQuery } from '../api/reports-api';
import { reportCsv, reportFilename, reportStats, type ReportTab } from '../model';
import { RevenueChart } from './RevenueChart';
import './reports.css';

const LOAD_FAILED = 'Failed to load report data';

const TAB_ID = 'reports-tab';
const PANEL_ID = 'reports-panel';

/** /admin/reports: the admin's auctions and products with their bids and money. */
export function ReportsPage() {
  const reports = useServerQuery(reportsQuery(), { onError: (err) => toast.error(errorText(err, LOAD_FAILED)) });
  const data = reports.data ?? null;
  const loading = reports.status === 'idle' || reports.fetching;
  const error = reports.error === undefined ? null : errorText(reports.error, LOAD_FAILED);
  const load = reports.refetch;
  const [tab, setTab] = useState<ReportTab>('auctions');

  function exportCsv() {
    if (!data) return;
    downloadText(reportFilename(tab), reportCsv(tab, data));
    toast.success('CSV file generated.');
  }

  const stats = data ? reportStats(data) : null;
  const show = (v: number | string | null | undefined) => (v === undefined || v === null ? '—' : v);

  return (
    <div className="page page-stack reports-page">
      <div className="reports-head">
        <p className="muted">Bids, sales and money for the auctions you created.</p>
        <div className="toolbar">
          <button type="button" className="btn btn-outline" onClick={() => void load()} disabled={loading} aria-busy={loading}>
            <Icon name="refresh" size={16} /> {loading && data ? 'Refreshing…' : 'Refresh'}
          </button>
          <button type="button" className="btn btn-primary" onClick={exportCsv} disabled={!data}>
            <Icon name="download" size={16} /> Export CSV
          </button>
        </div>
      </div>

      <section className="stat-grid reports-stats" aria-label="Report summary">
        <StatCard label="Total Auctions" value={show(stats?.totalAuctions)} icon="gavel" tone="primary" />
        <StatCard label="Active Auctions" value={show(stats?.activeAuctions)} icon="clock" tone="success" />
        <StatCard label="Total Products" value={show(stats?.totalProducts)} icon="box" tone="info" />
        <StatCard label="Revenue" value={show(stats && formatRupees(stats.revenue))} icon="wallet" tone="warning" hint="Won and paid" />
        <StatCard label="Pending" value={show(stats && formatRupees(stats.pending))} icon="bids" tone="danger" hint="Leading bids, not settled" />
      </section>

      {data && <RevenueChart auctions={data.auctions} />}

      <section className="card">
        <Tabs
          className="reports-tabs"
          tabs={[
            { key: 'auctions', label: 'Auction Reports', count: data?.auctions.length },
            { key: 'products', label: 'Product Reports', count: data?.products.length },
          ]}
          value={tab}
          onChange={setTab}
          idPrefix={TAB_ID}
          label="Reports"
          panelId={PANEL_ID}
        />
        <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(TAB_ID, tab)}>
          {!data && loading ? (
            <Spinner label="Loading reports…" />
          ) : !data ? (
            <div className="reports-error" role="alert">
              <Icon name="alert" size={18} /> <span>{error ?? 'Failed to load report data'}</span>
              <button type="button" className="reports-link-btn" onClick={() => void load()}>Try again</button>
            </div>
          ) : tab === 'auctions' ? (
            <DataTable className="reports-table" columns={AUCTION_COLUMNS} rows={data.auctions} rowKey={(a) => a.id} empty={<EmptyState icon="gavel" title="No auctions yet" />} />
          ) : (
            <DataTable className="reports-table" columns={PRODUCT_COLUMNS} rows={data.products} rowKey={(p) => p.id} empty={<EmptyState icon="box" title="No products yet" />} />
          )}
        </div>
      </section>
    </div>
  );
}

const AUCTION_COLUMNS: Column<AuctionReport>[] = [
  { key: 'id', header: 'ID', className: 'reports-id', cell: (a) => <Link to={adminAuctionPath(a.id)}>{a.id}</Link> },
  { key: 'name', header: 'Name', className: 'reports-name', cell: (a) => a.name },
  { key: 'ends', header: 'Ends', className: 'reports-nowrap', cell: (a) => <time dateTime={a.valid_until}>{formatDateTime(a.valid_until)}</time> },
  { key: 'products', header: '#Products', align: 'end', className: 'num', cell: (a) => a.product_count },
  { key: 'bids', header: '#Bids', align: 'end', className: 'num', cell: (a) => a.bid_count },
  {
    key: 'revenue', header: 'Revenue', align: 'end', className: 'num reports-wrap',
    cell: (a) => (
      <>
        <span className="reports-money">{formatRupees(a.revenue)}</span>
        {a.pending > 0 && <span className="reports-sub">+{formatRupees(a.pending)} pending</span>}
      </>
    ),
  },
  { key: 'status', header: 'Status', cell: (a) => <StatusBadge kind="auction" status={a.status} /> },
];

const PRODUCT_COLUMNS: Column<ProductReport>[] = [
  { key: 'id', header: 'ID', className: 'reports-id', cell: (p) => <code>{p.id}</code> },
  { key: 'name', header: 'Name', className: 'reports-name', cell: (p) => p.name },
  { key: 'description', header: 'Description', className: 'reports-desc', cell: (p) => p.description },
  { key: 'status', header: 'Status', cell: (p) => <StatusBadge kind="product" status={p.status} /> },
  { key: 'bids', header: '#Bids', align: 'end', className: 'num', cell: (p) => p.bid_count },
  { key: 'highest', header: 'Highest Bid', align: 'end', className: 'num', cell: (p) => (p.highest_bid > 0 ? formatRupees(p.highest_bid) : '—') },
];
