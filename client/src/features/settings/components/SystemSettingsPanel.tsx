import { useEffect, useState } from 'react';
import { Badge } from '../../../components/ui/Badge';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { errorText } from '../../../lib/api-client';
import { formatRupees } from '../../../lib/format';
import { fetchSystemSettings, type SystemSettings } from '../api/settings-api';

/** The server's real configuration (GET /admin/settings), read-only. */
export function SystemSettingsPanel() {
  const [settings, setSettings] = useState<SystemSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    fetchSystemSettings().then(
      (s) => { if (live) setSettings(s); },
      (err: unknown) => { if (live) setError(errorText(err, 'Failed to load data')); },
    );
    return () => { live = false; };
  }, [attempt]);

  return (
    <section className="card settings-card settings-system" aria-labelledby="settings-system-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="settings" size={18} /></span>
          <h2 id="settings-system-title" className="card-title">System Settings</h2>
        </div>
        <span className="settings-hint">Read-only · set by the server</span>
      </div>
      {error && !settings ? (
        <p className="settings-error" role="alert">
          <Icon name="alert" size={18} /> <span>{error}</span>
          <button type="button" className="settings-link-btn" onClick={() => setAttempt((n) => n + 1)}>Try again</button>
        </p>
      ) : !settings ? (
        <Spinner label="Loading system settings…" />
      ) : (
        <dl className="card-body settings-list">
          <div className="settings-item">
            <dt>Auto-settlement</dt>
            <dd><Badge tone={settings.auto_settle ? 'success' : 'neutral'}>{settings.auto_settle ? 'On' : 'Off'}</Badge></dd>
            <dd className="settings-item-note">Auctions settle by themselves when they end</dd>
          </div>
          <div className="settings-item">
            <dt>Admin signup</dt>
            <dd><Badge tone={settings.admin_signup === 'open' ? 'success' : 'warning'}>{settings.admin_signup === 'open' ? 'Open' : 'Closed'}</Badge></dd>
            <dd className="settings-item-note">Whether new admins may register</dd>
          </div>
          <div className="settings-item">
            <dt>Bid increment</dt>
            <dd className="settings-value">{formatRupees(settings.min_increment)}</dd>
            <dd className="settings-item-note">Minimum step above the highest bid</dd>
          </div>
          <div className="settings-item">
            <dt>Live frame</dt>
            <dd className="settings-value">{settings.live_frame_ms} ms</dd>
            <dd className="settings-item-note">How often live updates are sent</dd>
          </div>
          <div className="settings-item">
            <dt>Time zone</dt>
            <dd className="settings-value">{settings.timezone}</dd>
            <dd className="settings-item-note">For auction end times entered without one</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
