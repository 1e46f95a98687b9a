import { useState, type FormEvent } from 'react';
import type { NotificationKind } from '@auction/shared';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { setQueryFresh } from '../../../lib/live-query';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { notificationSettingsKey, notificationSettingsQuery, saveNotificationSettings } from '../api/account-api';
import { changedKinds, NOTICE_KINDS, NOTICE_ORDER, type NoticeDraft } from '../account-model';

/**
 * Which notices are also mailed (GET/PUT /me/notification-settings): one checkbox per kind, as the
 * server holds them (it decides the defaults), saved together; only the kinds changed are sent.
 */
export function NotificationSettingsCard() {
  const { data, status, error, refetch } = useServerQuery(notificationSettingsQuery());
  const [draft, setDraft] = useState<NoticeDraft>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = useServerMutation({
    mutationFn: (email: NoticeDraft) => saveNotificationSettings({ email }),
    onSuccess: (res) => {
      setQueryFresh(notificationSettingsKey, res);
      setDraft({});
      toast.success('Email notifications saved');
    },
    onError: (err) => setRefusal(errorText(err, 'Could not save your email notifications. Please try again.')),
  });

  const changed = data ? changedKinds(data.email, draft) : {};
  const dirty = Object.keys(changed).length > 0;

  function toggle(kind: NotificationKind, on: boolean) {
    setDraft((d) => ({ ...d, [kind]: on }));
    setRefusal(null);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending || !dirty) return;
    setRefusal(null);
    save.mutate(changed);
  }

  return (
    <section className="card settings-card" aria-labelledby="notice-settings-title">
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="bell" size={18} /></span>
          <h2 id="notice-settings-title" className="card-title">Email notifications</h2>
        </div>
      </div>
      {status === 'error' && !data ? (
        <p className="settings-error" role="alert">
          <Icon name="alert" size={18} /> <span>{errorText(error, 'Failed to load your email notifications')}</span>
          <button type="button" className="settings-link-btn" onClick={() => void refetch()}>Try again</button>
        </p>
      ) : !data ? (
        <Spinner label="Loading your email notifications…" />
      ) : (
        <form className="card-body settings-form" onSubmit={submit} noValidate>
          {!data.email_verified && (
            <p className="info-note" role="note">
              <Icon name="info" size={18} />
              <span>Emails start once your email address is confirmed. Until then your choices are kept, and every notice still shows on the site.</span>
            </p>
          )}
          <fieldset className="notice-options">
            <legend className="settings-hint">Email me when:</legend>
            {NOTICE_ORDER.map((kind) => {
              const id = `notice-${kind}`;
              return (
                <div key={kind} className="notice-option">
                  <input
                    id={id}
                    type="checkbox"
                    checked={draft[kind] ?? data.email[kind]}
                    onChange={(e) => toggle(kind, e.target.checked)}
                    aria-describedby={`${id}-desc`}
                  />
                  <div className="notice-option-text">
                    <label htmlFor={id} className="notice-option-label">{NOTICE_KINDS[kind].label}</label>
                    <p id={`${id}-desc`} className="notice-option-desc">{NOTICE_KINDS[kind].description}</p>
                  </div>
                </div>
              );
            })}
          </fieldset>
          <p className="settings-hint">Every email has a link to stop that kind of email.</p>
          {refusal && (
            <p className="settings-error email-refusal" role="alert">
              <Icon name="alert" size={16} /> <span>{refusal}</span>
            </p>
          )}
          <div className="settings-actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending} aria-busy={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save email notifications'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
