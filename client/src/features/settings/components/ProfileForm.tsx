import { LIMITS, type UpdateProfileBody } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { useSession } from '../../../lib/session';
import { updateProfile } from '../api/settings-api';
import { validateProfile, type FieldErrors, type ProfileDraft } from '../model';

/** Full name and mobile number, saved with PUT /admin/profile; the header follows the session's admin. */
export function ProfileForm() {
  const admin = useSession((s) => s.admin);
  const [draft, setDraft] = useState<ProfileDraft>({ name: admin?.name ?? '', mobile: admin?.mobile_number ?? '' });
  const [errors, setErrors] = useState<FieldErrors<keyof ProfileDraft>>({});
  const save = useServerMutation({
    mutationFn: (body: UpdateProfileBody) => updateProfile(body),
    onSuccess: (res) => {
      // The token is unchanged; read it now in case a password change replaced it meanwhile.
      const token = useSession.getState().adminToken;
      if (token) useSession.getState().setAdminSession({ token, admin: res.admin });
      setDraft({ name: res.admin.name, mobile: res.admin.mobile_number });
      toast.success('Profile updated successfully!');
    },
    onError: (err) => toast.error(errorText(err, 'Failed to update profile')),
  });
  const saving = save.isPending;

  const set = (key: keyof ProfileDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const found = validateProfile(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ name: draft.name.trim(), mobile_number: draft.mobile.trim() });
  }

  return (
    <section className="card settings-card" aria-labelledby="settings-profile-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="user" size={18} /></span>
          <h2 id="settings-profile-title" className="card-title">Profile</h2>
        </div>
        {admin?.is_owner && <span className="badge badge-info">Platform owner</span>}
      </div>
      <form className="card-body settings-form" onSubmit={submit} noValidate>
        <FormField id="settings-name" label="Full Name" value={draft.name} onValueChange={set('name')} error={errors.name} autoComplete="name" maxLength={LIMITS.nameMax} required />
        <div className="field">
          <label className="field-label" htmlFor="settings-username">Username</label>
          <input id="settings-username" className="input settings-readonly" value={admin?.username ?? ''} readOnly aria-describedby="settings-username-hint" />
          <p id="settings-username-hint" className="settings-hint">Usernames cannot be changed.</p>
        </div>
        <FormField id="settings-mobile" label="Mobile Number" type="tel" inputMode="tel" value={draft.mobile} onValueChange={set('mobile')} error={errors.mobile} autoComplete="tel" maxLength={16} required />
        <div className="settings-actions">
          <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
            {saving ? 'Saving…' : 'Update Profile'}
          </button>
        </div>
      </form>
    </section>
  );
}
