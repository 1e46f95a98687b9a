import { useSession } from '../../../lib/session';
import { EmailCard } from './EmailCard';
import { PasswordForm } from './PasswordForm';
import { ProfileForm } from './ProfileForm';
import { SystemSettingsPanel } from './SystemSettingsPanel';
import './settings.css';

/** /admin/settings: the admin's profile, password and email address, and the server's configuration. */
export function SettingsPage() {
  // A different admin in this tab starts with fresh forms.
  const adminId = useSession((s) => s.admin?.id);
  return (
    <div className="page page-stack settings-page">
      <div className="settings-grid">
        <ProfileForm key={adminId ?? 'none'} />
        <PasswordForm key={`pw-${adminId ?? 'none'}`} />
        <EmailCard key={`email-${adminId ?? 'none'}`} portal="admin" />
      </div>
      <SystemSettingsPanel />
    </div>
  );
}
