import { LIMITS } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import type { Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { useSession } from '../../../lib/session';
import { changeAdminPassword, changeUserPassword } from '../api/settings-api';
import { validatePasswordChange, type FieldErrors, type PasswordDraft } from '../model';

const EMPTY: PasswordDraft = { current: '', next: '', confirm: '' };

/**
 * Current, new and confirm (the checks of model.ts); the new token replaces the old one, which stops
 * working. The admin's Settings (POST /admin/change-password) and the bidder's Account (POST /change-password).
 */
export function PasswordForm({ portal = 'admin' }: { portal?: Portal }) {
  const [draft, setDraft] = useState<PasswordDraft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<keyof PasswordDraft>>({});
  const idPrefix = portal === 'admin' ? 'settings' : 'account';
  const change = useServerMutation({
    mutationFn: ({ username, current, next }: { username: string; current: string; next: string }) =>
      portal === 'admin'
        ? changeAdminPassword({ username, password: current, new_password: next })
        : changeUserPassword({ password: current, new_password: next }),
    onSuccess: (res) => {
      // The profile is read now: a profile save may have replaced it meanwhile.
      const session = useSession.getState();
      if (portal === 'admin' && session.admin) session.setAdminSession({ token: res.token, admin: session.admin });
      if (portal === 'user' && session.user) session.setUserSession({ token: res.token, user: session.user });
      setDraft(EMPTY);
      toast.success('Password changed successfully!');
    },
    onError: (err) => toast.error(errorText(err, 'Failed to change password')),
  });
  const saving = change.isPending;

  const set = (key: keyof PasswordDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors({});
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const found = validatePasswordChange(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const account = portal === 'admin' ? useSession.getState().admin : useSession.getState().user;
    if (!account) return;
    change.mutate({ username: account.username, current: draft.current, next: draft.next });
  }

  return (
    <section className="card settings-card" aria-labelledby={`${idPrefix}-password-title`}>
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="shield" size={18} /></span>
          <h2 id={`${idPrefix}-password-title`} className="card-title">Change Password</h2>
        </div>
      </div>
      <form className="card-body settings-form" onSubmit={submit} noValidate>
        <FormField id={`${idPrefix}-current`} label="Current Password" type="password" value={draft.current} onValueChange={set('current')} error={errors.current} autoComplete="current-password" maxLength={LIMITS.passwordMax} />
        <FormField id={`${idPrefix}-new`} label="New Password" type="password" value={draft.next} onValueChange={set('next')} error={errors.next} autoComplete="new-password" maxLength={LIMITS.passwordMax} />
        <FormField id={`${idPrefix}-confirm`} label="Confirm New Password" type="password" value={draft.confirm} onValueChange={set('confirm')} error={errors.confirm} autoComplete="new-password" maxLength={LIMITS.passwordMax} />
        <p className="settings-hint">At least {LIMITS.passwordMin} characters. Other signed-in sessions will be signed out.</p>
        <div className="settings-actions">
          <button type="submit" className="btn btn-dark" disabled={saving} aria-busy={saving}>
            {saving ? 'Changing…' : 'Change Password'}
          </button>
        </div>
      </form>
    </section>
  );
}
