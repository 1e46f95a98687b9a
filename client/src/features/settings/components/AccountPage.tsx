import { useSession } from '../../../lib/session';
import { useServerQuery } from '../../../lib/query';
import { Icon } from '../../../components/ui/Icon';
import { meQuery } from '../api/account-api';
import { BillingCard } from './BillingCard';
import { EmailCard } from './EmailCard';
import { NotificationSettingsCard } from './NotificationSettingsCard';
import { PasswordForm } from './PasswordForm';
import './settings.css';

/** The bidder's details as the server holds them (GET /me; the session's copy until it answers). */
function ProfileCard() {
  const user = useSession((s) => s.user);
  const { data: me } = useServerQuery(meQuery('user'));
  const shown = me ?? user;
  const rows = [
    { label: 'Full Name', value: shown?.name },
    { label: 'Username', value: shown?.username },
    { label: 'Mobile Number', value: shown?.mobile_number },
  ];
  return (
    <section className="card settings-card" aria-labelledby="account-profile-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="user" size={18} /></span>
          <h2 id="account-profile-title" className="card-title">Profile</h2>
        </div>
      </div>
      <dl className="card-body account-profile">
        {rows.map((row) => (
          <div key={row.label} className="account-profile-row">
            <dt>{row.label}</dt>
            <dd>{row.value || '—'}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** /user/account: the bidder's details, email address, billing details, which notices are mailed, and password. */
export function AccountPage() {
  // A different bidder in this tab starts with fresh forms.
  const userId = useSession((s) => s.user?.id);
  return (
    <div className="page page-stack settings-page account-page" key={userId ?? 'none'}>
      <div className="settings-grid">
        <ProfileCard />
        <EmailCard portal="user" />
        <BillingCard />
        <NotificationSettingsCard />
        <PasswordForm portal="user" />
      </div>
    </div>
  );
}
