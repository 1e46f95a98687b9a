import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { UNDO_LINK_DAYS } from '@auction/shared';
import { paths, type Portal } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { ApiError, errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { undoEmailChange } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
import { NewPasswordFields, isPasswordRefusal, useNewPasswordForm } from './NewPasswordForm';
import { LINK_USED } from './reset-rules';

/** A refusal that no second press can change: what it means, and what to do instead. */
function refusalText(error: unknown): { title: string; detail: string } | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'TOKEN_INVALID') return { title: LINK_USED, detail: `An undo link works once, for ${UNDO_LINK_DAYS} days.` };
  if (error.code === 'EMAIL_TAKEN') {
    return { title: 'Another account has confirmed this email address since.', detail: 'It can no longer be put back on your account.' };
  }
  return null;
}

/**
 * /undo-email?token=…(&portal=admin): mailed to the confirmed address an email change replaced or a
 * removal took away. Whoever did that knew the password (both ask for it), so the undo sets a new one,
 * typed twice as on the reset page. Nothing happens until the form is sent: the undo signs the account
 * out everywhere, and mail scanners and link previews open links by themselves.
 */
export function UndoEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // The links for bidders name no portal; those for admins say `portal=admin`.
  const portal: Portal = params.get('portal') === 'admin' ? 'admin' : 'user';
  const form = useNewPasswordForm('undo');
  const undo = useServerMutation({
    mutationFn: (password: string) => undoEmailChange({ token, password }),
    onError: form.serverRefused,
  });
  const refusal = undo.isError ? refusalText(undo.error) : null;
  const otherError = undo.isError && !refusal && !isPasswordRefusal(undo.error);

  const onSubmit = form.submitWith((password) => undo.mutate(password), undo.isPending);

  let body: ReactNode;
  if (undo.isSuccess) {
    body = (
      <div className="auth-result">
        <div className="auth-note auth-note-success" role="status">
          <Icon name="check" size={18} />
          <div>
            <p><strong>Your email address is back, and your new password is set.</strong></p>
            <p>Every device that was signed in to this account has been signed out. Sign in with your new password.</p>
          </div>
        </div>
        <div className="auth-actions">
          <Link to={paths[portal].login} className="btn btn-primary btn-block btn-lg">Sign in</Link>
        </div>
      </div>
    );
  } else if (!token || refusal) {
    body = (
      <div className="auth-result">
        <div className="auth-note auth-note-error" role="alert">
          <Icon name="alert" size={18} />
          <div>
            <p><strong>{refusal ? refusal.title : 'This link is incomplete.'}</strong></p>
            <p>{refusal ? refusal.detail : 'Open the link from the email again.'}</p>
          </div>
        </div>
        <div className="auth-note auth-note-info">
          <Icon name="info" size={18} />
          <p>Think someone else knows your password? <Link to={paths[portal].forgotPassword}>Reset your password</Link></p>
        </div>
      </div>
    );
  } else {
    body = (
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <NewPasswordFields form={form} />
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={undo.isPending} aria-busy={undo.isPending}>
          {undo.isPending ? 'Undoing…' : 'Undo the change'}
        </button>
        {otherError && (
          <p className="auth-form-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{errorText(undo.error, 'Could not undo the change. Please try again.')}</span>
          </p>
        )}
      </form>
    );
  }

  return (
    <AuthLayout
      portal={portal}
      title={undo.isSuccess ? 'Email address restored' : 'Undo the email change?'}
      subtitle={undo.isSuccess
        ? 'Your account is yours again.'
        : 'If you did not change or remove your account’s email address, put this one back. Choose a new password: whoever did it knew your old one. Every device signed in to the account will be signed out.'}
    >
      {body}
    </AuthLayout>
  );
}
