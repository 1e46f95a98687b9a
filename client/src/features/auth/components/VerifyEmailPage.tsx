import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { VERIFY_LINK_HOURS } from '@auction/shared';
import { paths } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { ApiError, errorText } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { queryRoots } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { verifyEmailOnce } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
import { LINK_USED } from './reset-rules';

type Outcome = { state: 'sending' } | { state: 'done' } | { state: 'failed'; error: unknown };

/** What a refusal means to the reader, and whether sending the token again could help. */
function failureText(error: unknown): { title: string; detail: string; retry: boolean } {
  if (error instanceof ApiError && error.code === 'TOKEN_INVALID') {
    return { title: LINK_USED, detail: `A confirmation link works once, for ${VERIFY_LINK_HOURS} hours. If your address is not confirmed yet, ask for a new link from your account settings.`, retry: false };
  }
  if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
    return { title: 'Another account has already confirmed this email address.', detail: 'Give a different address in your account settings.', retry: false };
  }
  return { title: errorText(error, 'Your email address could not be confirmed just now.'), detail: 'Check your connection and try again.', retry: true };
}

/**
 * /verify-email?token=…: confirms the address as soon as the page opens (the link was mailed to it, so
 * opening it is the proof). The token is sent once per page load (verifyEmailOnce): React's StrictMode
 * runs this effect twice in development, and a second POST would fail as already used.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'sending' });
  const signedIn = useSession((s) => (s.user ? 'user' : s.admin ? 'admin' : null));

  useEffect(() => {
    if (!token) return;
    let shown = true;
    verifyEmailOnce(token).then(
      () => {
        // Whatever of the account's address is cached is out of date now.
        void queryClient.invalidateQueries({ queryKey: queryRoots.me });
        void queryClient.invalidateQueries({ queryKey: queryRoots.notificationSettings });
        if (shown) setOutcome({ state: 'done' });
      },
      (error: unknown) => {
        if (shown) setOutcome({ state: 'failed', error });
      },
    );
    return () => {
      shown = false;
    };
  }, [token, attempt]);

  function tryAgain() {
    setOutcome({ state: 'sending' });
    setAttempt((n) => n + 1);
  }

  const next: ReactNode = signedIn === 'user' ? (
    <Link to={paths.user.account} className="btn btn-primary btn-block btn-lg">Go to your account</Link>
  ) : signedIn === 'admin' ? (
    <Link to={paths.admin.settings} className="btn btn-primary btn-block btn-lg">Go to Settings</Link>
  ) : (
    <>
      <Link to={paths.user.login} className="btn btn-primary btn-block btn-lg">Sign in as a bidder</Link>
      <Link to={paths.admin.login} className="btn btn-outline btn-block">Sign in as an admin</Link>
    </>
  );

  let body: ReactNode;
  if (!token) {
    body = (
      <div className="auth-note auth-note-error" role="alert">
        <Icon name="alert" size={18} />
        <div>
          <p><strong>This link is incomplete.</strong></p>
          <p>Open the link from the email again, or ask for a new one from your account settings.</p>
        </div>
      </div>
    );
  } else if (outcome.state === 'sending') {
    body = <Spinner label="Confirming your email address…" />;
  } else if (outcome.state === 'done') {
    body = (
      <div className="auth-note auth-note-success" role="status">
        <Icon name="check" size={18} />
        <div>
          <p><strong>Your email address is confirmed.</strong></p>
          <p>Password reset links, and the notices you choose, will go to it.</p>
        </div>
      </div>
    );
  } else {
    const why = failureText(outcome.error);
    body = (
      <>
        <div className="auth-note auth-note-error" role="alert">
          <Icon name="alert" size={18} />
          <div>
            <p><strong>{why.title}</strong></p>
            <p>{why.detail}</p>
          </div>
        </div>
        {why.retry && <button type="button" className="btn btn-outline btn-block" onClick={tryAgain}>Try again</button>}
      </>
    );
  }

  return (
    <AuthLayout title="Confirm your email address" subtitle="So that password resets and the notices you choose reach you.">
      <div className="auth-result">
        {body}
        {outcome.state !== 'sending' || !token ? <div className="auth-actions">{next}</div> : null}
      </div>
    </AuthLayout>
  );
}
