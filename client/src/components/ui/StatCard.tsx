import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';
import './ui.css';

/** One number with its label, for the stat rows of dashboards and lists. */
export function StatCard({ label, value, icon, tone = 'primary', hint }: {
  label: string;
  value: ReactNode;
  icon?: IconName;
  tone?: 'primary' | 'success' | 'warning' | 'danger' | 'info';
  hint?: ReactNode;
}) {
  return (
    <div className={`stat-card stat-${tone}`}>
      {icon && <span className="stat-icon" aria-hidden="true"><Icon name={icon} size={20} /></span>}
      <div className="stat-text">
        <span className="stat-label">{label}</span>
        <span className="stat-value">{value}</span>
        {hint && <span className="stat-hint">{hint}</span>}
      </div>
    </div>
  );
}
