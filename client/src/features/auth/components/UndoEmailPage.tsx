import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { UNDO_LINK_DAYS } from '@auction/shared';
import { paths, type Portal } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { ApiError, errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { undoEmailChange } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
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
 * /undo-email?token=…(&portal=admin): mailed to the confirmed address an email change replaced. Nothing
 * happens until the button is pressed: the undo signs the account out everywhere, and mail scanners and
 * link previews open links by themselves. The password stays as it was, so the page sends the reader on
 * to reset it (the reset link now goes to the address put back).
 */
export function UndoEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // The links for bidders name no portal; those for admins say `portal=admin`.
  const portal: Portal = params.get('portal') === 'admin' ? 'admin' : 'user';
  const undo = useServerMutation({ mutationFn: () => undoEmailChange(token) });
  const refusal = undo.isError ? refusalText(undo.error) : null;

  const forgot = paths[portal].forgotPassword;
  let body: ReactNode;
  if (undo.isSuccess) {
    body = (
      <>
        <div className="auth-note auth-note-success" role="status">
          <Icon name="check" size={18} />
          <div>
            <p><strong>Your email address is back.</strong></p>
            <p>Every session of this account was signed out. Whoever changed the address may know your password: reset it now. The link goes to this address.</p>
          </div>
        </div>
        <div className="auth-actions">
          <Link to={forgot} className="btn btn-primary btn-block btn-lg">Reset your password</Link>
        </div>
      </>
    );
  } else if (!token || refusal) {
    body = (
      <>
        <div className="auth-note auth-note-error" role="alert">
          <Icon name="alert" size={18} />
          <div>
            <p><strong>{refusal ? refusal.title : 'This link is incomplete.'}</strong></p>
            <p>{refusal ? refusal.detail : 'Open the link from the email again.'}</p>
          </div>
        </div>
        <div className="auth-note auth-note-info">
          <Icon name="info" size={18} />
          <p>Think someone else knows your password? <Link to={forgot}>Reset your password</Link></p>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <button type="button" className="btn btn-primary btn-block btn-lg" onClick={() => undo.mutate()} disabled={undo.isPending} aria-busy={undo.isPending}>
          {undo.isPending ? 'Undoing…' : 'Undo the change'}
        </button>
        {undo.isError && (
          <p className="auth-form-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{errorText(undo.error, 'Could not undo the change. Please try again.')}</span>
          </p>
        )}
      </>
    );
  }

  return (
    <AuthLayout
      portal={portal}
      title={undo.isSuccess ? 'Email address restored' : 'Undo the email change?'}
      subtitle={undo.isSuccess
        ? 'One more step keeps your account yours.'
        : 'If you did not change your account’s email address, put this one back. Every device signed in to the account will be signed out.'}
    >
      <div className="auth-result">{body}</div>
    </AuthLayout>
  );
}
