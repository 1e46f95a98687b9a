import { Link, useSearchParams } from 'react-router-dom';
import { RESET_LINK_MINUTES } from '@auction/shared';
import { paths, type Portal } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { ApiError, errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { resetPassword } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
import { NewPasswordFields, isPasswordRefusal, useNewPasswordForm } from './NewPasswordForm';
import { LINK_USED } from './reset-rules';

/** `?portal=admin` (or user) when a link says it; the links we mail do not, and the page works without. */
function portalOf(value: string | null): Portal | undefined {
  return value === 'admin' || value === 'user' ? value : undefined;
}

/**
 * /reset-password?token=…: a new password, typed twice. The token is the proof; it works once, for
 * RESET_LINK_MINUTES. Once changed, every session of the account is signed out and the page offers
 * the sign-in page (both, as the token does not say which portal).
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const portal = portalOf(params.get('portal'));
  const form = useNewPasswordForm('reset');
  const reset = useServerMutation({
    mutationFn: (password: string) => resetPassword({ token, password }),
    onError: form.serverRefused,
  });
  const tokenRefused = reset.error instanceof ApiError && reset.error.code === 'TOKEN_INVALID';
  const otherError = reset.isError && !tokenRefused && !isPasswordRefusal(reset.error);

  const onSubmit = form.submitWith((password) => reset.mutate(password), reset.isPending);

  const signIn = (
    <div className="auth-actions">
      {portal ? (
        <Link to={paths[portal].login} className="btn btn-primary btn-block btn-lg">Sign in</Link>
      ) : (
        <>
          <Link to={paths.user.login} className="btn btn-primary btn-block btn-lg">Sign in as a bidder</Link>
          <Link to={paths.admin.login} className="btn btn-outline btn-block">Sign in as an admin</Link>
        </>
      )}
    </div>
  );

  const requestNew = portal ? (
    <p><Link to={paths[portal].forgotPassword}>Request a new link</Link></p>
  ) : (
    <p>
      Request a new link: <Link to={paths.user.forgotPassword}>bidder account</Link> · <Link to={paths.admin.forgotPassword}>admin account</Link>
    </p>
  );

  let body;
  if (reset.isSuccess) {
    body = (
      <div className="auth-result">
        <div className="auth-note auth-note-success" role="status">
          <Icon name="check" size={18} />
          <div>
            <p><strong>Your password has been changed.</strong></p>
            <p>Every device that was signed in to this account has been signed out. Sign in with your new password.</p>
          </div>
        </div>
        {signIn}
      </div>
    );
  } else if (!token || tokenRefused) {
    body = (
      <div className="auth-result">
        <div className="auth-note auth-note-error" role="alert">
          <Icon name="alert" size={18} />
          <div>
            <p><strong>{token ? LINK_USED : 'This link is incomplete.'}</strong></p>
            <p>{token ? `A reset link works once, for ${RESET_LINK_MINUTES} minutes.` : 'Open the link from the email again, or ask for a new one.'}</p>
          </div>
        </div>
        <div className="auth-note auth-note-info">
          <Icon name="info" size={18} />
          {requestNew}
        </div>
      </div>
    );
  } else {
    body = (
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        {/* For password managers: which account the new password belongs to is not known here. */}
        <NewPasswordFields form={form} />
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={reset.isPending} aria-busy={reset.isPending}>
          {reset.isPending ? 'Changing…' : 'Change password'}
        </button>
        {otherError && (
          <p className="auth-form-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{errorText(reset.error, 'Could not change your password. Please try again.')}</span>
          </p>
        )}
      </form>
    );
  }

  return (
    <AuthLayout
      portal={portal}
      title={reset.isSuccess ? 'Password changed' : 'Reset your password'}
      subtitle={reset.isSuccess ? 'You can sign in again now.' : 'Pick a password you do not use anywhere else.'}
      footer={reset.isSuccess ? undefined : <p>Remembered it after all? <Link to={portal ? paths[portal].login : paths.user.login}>Back to sign in</Link></p>}
    >
      {body}
    </AuthLayout>
  );
}
