import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { LIMITS, RESET_LINK_MINUTES } from '@auction/shared';
import { paths, type Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { ApiError, errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { resetPassword } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
import { LINK_USED, newPasswordProblems, PASSWORD_RULE, type NewPasswordField as Field } from './reset-rules';

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
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const reset = useServerMutation({
    mutationFn: (password: string) => resetPassword({ token, password }),
    onError: (err) => {
      // The server's length rule, said as the form says it (never the API's field name).
      if (err instanceof ApiError && err.code === 'VALIDATION' && err.field === 'password') {
        setErrors({ password: PASSWORD_RULE });
        document.getElementById('reset-password')?.focus();
      }
    },
  });
  const tokenRefused = reset.error instanceof ApiError && reset.error.code === 'TOKEN_INVALID';
  const otherError = reset.isError && !tokenRefused && !(reset.error instanceof ApiError && reset.error.field === 'password');

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending) return;
    const problems = newPasswordProblems(values.password, values.confirm);
    setErrors(problems);
    const first = (['password', 'confirm'] as const).find((f) => problems[f]);
    if (first) {
      document.getElementById(`reset-${first}`)?.focus();
      return;
    }
    reset.mutate(values.password);
  }

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
        <FormField id="reset-password" label="New password" name="new-password" type="password" autoComplete="new-password" required
          value={values.password} onValueChange={change('password')} error={errors.password}
          hint={`At least ${LIMITS.passwordMin} characters`} maxLength={LIMITS.passwordMax} />
        <FormField id="reset-confirm" label="Confirm password" name="confirm-password" type="password" autoComplete="new-password" required
          value={values.confirm} onValueChange={change('confirm')} error={errors.confirm} maxLength={LIMITS.passwordMax} />
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
