import { useState, type FormEvent } from 'react';
import { LIMITS, VERIFY_LINK_HOURS, type Me } from '@auction/shared';
import type { Portal } from '../../../config/paths';
import { Badge } from '../../../components/ui/Badge';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { ApiError, errorText } from '../../../lib/api-client';
import { EMAIL_INVALID, EMAIL_TAKEN_TEXT, emailProblem, normaliseEmail } from '../../../lib/email';
import { patchQuery } from '../../../lib/live-query';
import { queryClient } from '../../../lib/query-client';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { meKey, meQuery, notificationSettingsKey, removeEmail, setEmail } from '../api/account-api';
import { emailState } from '../account-model';

const STATE_BADGE = {
  none: { tone: 'neutral', text: 'None' },
  pending: { tone: 'warning', text: 'Waiting for confirmation' },
  confirmed: { tone: 'success', text: 'Confirmed' },
} as const;

/**
 * The account's email address (GET /me): its state, a form to give or change it with the current
 * password (PUT /me/email, which mails a link to confirm it) and Remove, with the password too (DELETE
 * /me/email, which mails the confirmed address a link to put it back). Bidders and admins alike; only a
 * bidder's address also gets notices.
 */
export function EmailCard({ portal }: { portal: Portal }) {
  const { data: me, status, error, refetch } = useServerQuery(meQuery(portal));
  const [draft, setDraft] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<string | null>(null);
  // The server's words once a link is on its way ("We sent a link to …"): kept until the next change.
  const [sent, setSent] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const titleId = `${portal}-email-title`;
  const inputId = `${portal}-email-input`;
  const passwordId = `${portal}-email-password`;

  // The address and its state changed: what the notice settings say of it is out of date too.
  function addressChanged(change: Partial<Pick<Me, 'email' | 'email_verified' | 'confirmed_email'>>) {
    patchQuery<Me>(meKey(portal), (current) => ({ ...current, ...change }));
    if (portal === 'user') void queryClient.invalidateQueries({ queryKey: notificationSettingsKey });
  }

  /** A refusal of the password typed (none, or not the current one): said on its field. */
  function passwordRefused(err: unknown): boolean {
    if (!(err instanceof ApiError && (err.code === 'WRONG_PASSWORD' || (err.code === 'VALIDATION' && err.field === 'password')))) return false;
    setPasswordError(err.code === 'WRONG_PASSWORD' ? errorText(err, 'Current password is incorrect') : 'Enter your password');
    document.getElementById(passwordId)?.focus();
    return true;
  }

  /** Whether a password was typed; if not, its field asks for one. */
  function hasPassword(): boolean {
    if (password !== '') return true;
    setPasswordError('Enter your password');
    document.getElementById(passwordId)?.focus();
    return false;
  }

  const save = useServerMutation({
    mutationFn: (body: { email: string; password: string }) => setEmail(portal, body),
    onSuccess: (res) => {
      addressChanged({ email: res.email, email_verified: res.email_verified, ...(res.email_verified ? { confirmed_email: res.email } : {}) });
      setDraft('');
      setPassword('');
      setSent(res.message);
    },
    onError: (err) => {
      if (passwordRefused(err)) return;
      if (err instanceof ApiError && err.code === 'EMAIL_TAKEN') setFieldError(EMAIL_TAKEN_TEXT);
      else if (err instanceof ApiError && err.code === 'VALIDATION' && err.field === 'email') setFieldError(EMAIL_INVALID);
      else {
        setRefusal(errorText(err, 'Could not save your email address. Please try again.'));
        return;
      }
      document.getElementById(inputId)?.focus();
    },
  });

  const remove = useServerMutation({
    mutationFn: (body: { password: string }) => removeEmail(portal, body),
    onSuccess: () => {
      addressChanged({ email: null, email_verified: false, confirmed_email: null });
      setConfirmRemove(false);
      setPassword('');
      setSent(null);
      toast.success('Email address removed');
    },
    onError: (err) => {
      setConfirmRemove(false);
      if (!passwordRefused(err)) setRefusal(errorText(err, 'Could not remove your email address. Please try again.'));
    },
  });

  /** Remove asks for the password first, then for a confirmation. */
  function askRemove() {
    setRefusal(null);
    if (!hasPassword()) return;
    setPasswordError(undefined);
    setConfirmRemove(true);
  }

  /** Sends `email` with the password typed, or asks for the password first (the form and "Send the link again" alike). */
  function send(email: string) {
    setRefusal(null);
    setSent(null);
    if (!hasPassword()) return;
    setPasswordError(undefined);
    save.mutate({ email, password });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending) return;
    const problem = normaliseEmail(draft) === '' ? 'Enter an email address' : emailProblem(draft);
    setFieldError(problem ?? undefined);
    if (problem) {
      document.getElementById(inputId)?.focus();
      return;
    }
    send(normaliseEmail(draft));
  }

  const state = me ? emailState(me) : null;
  const uses = portal === 'user' ? 'Password reset links and the email notices you choose go to it.' : 'Password reset links go to it.';

  return (
    <section className="card settings-card" aria-labelledby={titleId}>
      <div className="card-header">
        <div className="settings-card-heading">
          <span className="settings-card-icon" aria-hidden="true"><Icon name="mail" size={18} /></span>
          <h2 id={titleId} className="card-title">Email</h2>
        </div>
        {state && <Badge tone={STATE_BADGE[state].tone}>{STATE_BADGE[state].text}</Badge>}
      </div>
      {status === 'error' && !me ? (
        <p className="settings-error" role="alert">
          <Icon name="alert" size={18} /> <span>{errorText(error, 'Failed to load your email address')}</span>
          <button type="button" className="settings-link-btn" onClick={() => void refetch()}>Try again</button>
        </p>
      ) : !me || !state ? (
        <Spinner label="Loading your email address…" />
      ) : (
        <div className="card-body settings-form">
          <div className="email-current">
            {state === 'none' ? (
              <p className="settings-hint">
                No email address yet. Add one to be able to reset a forgotten password{portal === 'user' ? ' and to get notices by email' : ''}.
              </p>
            ) : (
              <>
                <p className="email-address">{me.email}</p>
                {state === 'confirmed' ? (
                  <p className="settings-hint">Confirmed. {uses}</p>
                ) : (
                  <p className="settings-hint">
                    Waiting for confirmation: open the link we sent to this address (it works for {VERIFY_LINK_HOURS} hours).{' '}
                    <button type="button" className="settings-link-btn email-resend" disabled={save.isPending} onClick={() => send(me.email ?? '')}>
                      Send the link again
                    </button>
                    {me.confirmed_email && me.confirmed_email !== me.email && (
                      <> Until then, mail goes to <strong>{me.confirmed_email}</strong>.</>
                    )}
                  </p>
                )}
              </>
            )}
          </div>
          {sent && (
            <p className="email-sent" role="status">
              <Icon name="check" size={16} /> <span>{sent}</span>
            </p>
          )}
          <form className="settings-form" onSubmit={submit} noValidate>
            <FormField
              id={inputId}
              label={state === 'none' ? 'Email address' : 'New email address'}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={LIMITS.emailMax}
              value={draft}
              onValueChange={(value) => {
                setDraft(value);
                setFieldError(undefined);
                setRefusal(null);
              }}
              error={fieldError}
              hint="We will email a link to confirm it."
            />
            <FormField
              id={passwordId}
              label="Your password"
              name="current-password"
              type="password"
              autoComplete="current-password"
              maxLength={LIMITS.passwordMax}
              value={password}
              onValueChange={(value) => {
                setPassword(value);
                setPasswordError(undefined);
                setRefusal(null);
              }}
              error={passwordError}
              hint="Your current password, to change or remove your address (sending the link again too)."
            />
            {refusal && (
              <p className="settings-error email-refusal" role="alert">
                <Icon name="alert" size={16} /> <span>{refusal}</span>
              </p>
            )}
            <div className="settings-actions email-actions">
              {state !== 'none' && (
                <button type="button" className="btn btn-outline" onClick={askRemove} disabled={remove.isPending}>
                  Remove
                </button>
              )}
              <button type="submit" className="btn btn-primary" disabled={save.isPending} aria-busy={save.isPending}>
                {save.isPending ? 'Sending…' : state === 'none' ? 'Add email' : 'Change email'}
              </button>
            </div>
          </form>
        </div>
      )}
      {confirmRemove && (
        <ConfirmDialog
          title="Remove your email address?"
          message={`We will forget ${me?.email ?? 'this address'}. Without a confirmed address you cannot reset a forgotten password${portal === 'user' ? ' or get notices by email' : ''}.${me?.confirmed_email ? ` We will email ${me.confirmed_email} a link that puts it back, in case this was not you.` : ''}`}
          confirmLabel="Remove"
          danger
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ password })}
          onCancel={() => setConfirmRemove(false)}
        />
      )}
    </section>
  );
}
