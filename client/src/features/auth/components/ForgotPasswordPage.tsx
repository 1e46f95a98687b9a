import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { RESET_LINK_MINUTES } from '@auction/shared';
import { paths, type Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { requestPasswordReset } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';

const FIELD = 'Username or email';

/**
 * /user/forgot-password and /admin/forgot-password: one field, then the server's answer in place of
 * the form. The answer is the same whether or not an account matched (the server never says), so the
 * page shows it as it is and promises nothing more.
 */
export function ForgotPasswordPage({ portal }: { portal: Portal }) {
  // Whoever came from a sign-in page on their way back to a page keeps that way back.
  const returnState: unknown = useLocation().state;
  const id = `${portal}-forgot-identity`;
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState<string | undefined>();
  const send = useServerMutation({ mutationFn: (text: string) => requestPasswordReset(portal, text) });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    if (value.trim() === '') {
      setMissing(`${FIELD} is required`);
      document.getElementById(id)?.focus();
      return;
    }
    send.mutate(value);
  }

  const backToSignIn = <Link to={paths[portal].login} state={returnState}>Back to sign in</Link>;

  return (
    <AuthLayout
      portal={portal}
      title="Forgot your password?"
      subtitle={`Enter your username or email address. If the account has a confirmed email address, we will send it a link to choose a new password (the link works for ${RESET_LINK_MINUTES} minutes).`}
      footer={send.isSuccess ? undefined : <p>Remembered it? {backToSignIn}</p>}
    >
      {send.isSuccess ? (
        <div className="auth-result">
          <div className="auth-note auth-note-success" role="status">
            <Icon name="check" size={18} />
            <div>
              <p>{send.data.message}</p>
              <p>No email after a few minutes? Check your spam folder, or ask again.</p>
            </div>
          </div>
          <div className="auth-actions">
            <Link to={paths[portal].login} state={returnState} className="btn btn-primary btn-block btn-lg">Back to sign in</Link>
            <button type="button" className="btn btn-outline btn-block" onClick={() => send.reset()}>Send another link</button>
          </div>
        </div>
      ) : (
        <form className="auth-form" onSubmit={onSubmit} noValidate>
          <FormField
            id={id}
            label={FIELD}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            value={value}
            onValueChange={(next) => {
              setValue(next);
              setMissing(undefined);
              if (send.isError) send.reset();
            }}
            error={missing}
          />
          <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={send.isPending} aria-busy={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send reset link'}
          </button>
          {send.isError && (
            <p className="auth-form-error" role="alert">
              <Icon name="alert" size={16} />
              <span>{errorText(send.error, 'Could not send the link. Please try again.')}</span>
            </p>
          )}
        </form>
      )}
    </AuthLayout>
  );
}
