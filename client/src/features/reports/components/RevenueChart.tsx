import { formatRupees } from '@auction/shared';
import type { AuctionReport } from '@auction/shared';
import { chartRows } from '../model';

/**
 * Revenue (taken) and pending (leading, not yet settled) per auction as stacked horizontal bars.
 * Labels are HTML so they stay readable at any width; each bar is a small SVG scaled to the row.
 */
export function RevenueChart({ auctions }: { auctions: readonly AuctionReport[] }) {
  const rows = chartRows(auctions);
  if (rows.length === 0) return null;
  const max = Math.max(...rows.map((a) => a.revenue + a.pending));
  const pct = (v: number) => `${max > 0 ? Math.max((v / max) * 100, v > 0 ? 0.8 : 0) : 0}%`;

  return (
    <section className="card reports-chart" aria-labelledby="reports-chart-title">
      <div className="card-header">
        <h2 id="reports-chart-title" className="card-title">Revenue by Auction</h2>
        <div className="reports-legend" aria-hidden="true">
          <span><i className="reports-swatch reports-swatch-revenue" /> Revenue</span>
          <span><i className="reports-swatch reports-swatch-pending" /> Pending</span>
        </div>
      </div>
      <ul className="card-body reports-chart-list">
        {rows.map((a) => (
          <li key={a.id} className="reports-chart-row">
            <div className="reports-chart-label">
              <span className="reports-chart-name" title={a.name}>{a.name}</span>
              <span className="reports-chart-value num">
                {formatRupees(a.revenue)}
                {a.pending > 0 && <span className="muted"> + {formatRupees(a.pending)} pending</span>}
              </span>
            </div>
            <svg
              className="reports-bar"
              width="100%"
              height="14"
              role="img"
              aria-label={`${a.name}: revenue ${formatRupees(a.revenue)}, pending ${formatRupees(a.pending)}`}
            >
              <rect x="0" y="0" width="100%" height="14" rx="7" className="reports-bar-track" />
              <rect x="0" y="0" width={pct(a.revenue + a.pending)} height="14" rx="7" className="reports-bar-pending" />
              <rect x="0" y="0" width={pct(a.revenue)} height="14" rx="7" className="reports-bar-revenue" />
            </svg>
          </li>
        ))}
      </ul>
    </section>
  );
}
