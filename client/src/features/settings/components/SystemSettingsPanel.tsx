import { Badge } from '../../../components/ui/Badge';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { errorText } from '../../../lib/api-client';
import { useServerQuery } from '../../../lib/query';
import { systemSettingsQuery } from '../api/settings-api';
import { systemItems } from '../model';

/** System Settings: the server's real configuration (GET /admin/settings) and the client's own defaults, read-only. */
export function SystemSettingsPanel() {
  const { data, status, error, refetch } = useServerQuery(systemSettingsQuery());
  const settings = data ?? null;

  return (
    <section className="card settings-card settings-system" aria-labelledby="settings-system-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="settings" size={18} /></span>
          <h2 id="settings-system-title" className="card-title">System Settings</h2>
        </div>
        <span className="settings-hint">Read-only · the values in force</span>
      </div>
      {status === 'error' && !settings ? (
        <p className="settings-error" role="alert">
          <Icon name="alert" size={18} /> <span>{errorText(error, 'Failed to load data')}</span>
          <button type="button" className="settings-link-btn" onClick={() => void refetch()}>Try again</button>
        </p>
      ) : !settings ? (
        <Spinner label="Loading system settings…" />
      ) : (
        <dl className="card-body settings-list">
          {systemItems(settings).map((item) => (
            <div key={item.label} className="settings-item">
              <dt>{item.label}</dt>
              <dd className={item.tone ? undefined : 'settings-value'}>
                {item.tone ? <Badge tone={item.tone}>{item.value}</Badge> : item.value}
              </dd>
              <dd className="settings-item-note">{item.note}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
