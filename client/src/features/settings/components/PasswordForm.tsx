import { LIMITS, type AdminPublic } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { useSession } from '../../../lib/session';
import { changeAdminPassword } from '../api/settings-api';
import { validatePasswordChange, type FieldErrors, type PasswordDraft } from '../model';

const EMPTY: PasswordDraft = { current: '', next: '', confirm: '' };

/** Current, new and confirm (the checks of model.ts); the new token replaces the old one, which stops working. */
export function PasswordForm() {
  const [draft, setDraft] = useState<PasswordDraft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors<keyof PasswordDraft>>({});
  const change = useServerMutation({
    mutationFn: ({ admin, current, next }: { admin: AdminPublic; current: string; next: string }) =>
      changeAdminPassword({ username: admin.username, password: current, new_password: next }),
    onSuccess: (res, { admin }) => {
      useSession.getState().setAdminSession({ token: res.token, admin: useSession.getState().admin ?? admin });
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
    const admin = useSession.getState().admin;
    if (!admin) return;
    change.mutate({ admin, current: draft.current, next: draft.next });
  }

  return (
    <section className="card settings-card" aria-labelledby="settings-password-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="shield" size={18} /></span>
          <h2 id="settings-password-title" className="card-title">Change Password</h2>
        </div>
      </div>
      <form className="card-body settings-form" onSubmit={submit} noValidate>
        <FormField id="settings-current" label="Current Password" type="password" value={draft.current} onValueChange={set('current')} error={errors.current} autoComplete="current-password" maxLength={LIMITS.passwordMax} />
        <FormField id="settings-new" label="New Password" type="password" value={draft.next} onValueChange={set('next')} error={errors.next} autoComplete="new-password" maxLength={LIMITS.passwordMax} />
        <FormField id="settings-confirm" label="Confirm New Password" type="password" value={draft.confirm} onValueChange={set('confirm')} error={errors.confirm} autoComplete="new-password" maxLength={LIMITS.passwordMax} />
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
