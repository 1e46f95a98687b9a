import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { Icon } from '../../../components/ui/Icon';
import { ApiError, errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { unsubscribe } from '../api/email-links-api';
import { AuthLayout } from './AuthLayout';
import { LINK_USED } from './reset-rules';

/**
 * /unsubscribe?token=…: the link at the foot of every notice email. Nothing happens until the button
 * is pressed: mail scanners and link previews open links by themselves, and must not turn mail off.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const stop = useServerMutation({ mutationFn: () => unsubscribe(token) });
  const tokenRefused = stop.error instanceof ApiError && stop.error.code === 'TOKEN_INVALID';

  const account = (
    <p>
      Choose which emails you get under <Link to={paths.user.account}>Account</Link> (sign in first).
    </p>
  );

  let body;
  if (stop.isSuccess) {
    body = (
      <>
        <div className="auth-note auth-note-success" role="status">
          <Icon name="check" size={18} />
          <div>
            <p><strong>{stop.data.message}</strong></p>
            <p>Live notices on the site are not affected.</p>
          </div>
        </div>
        <div className="auth-note auth-note-info"><Icon name="info" size={18} />{account}</div>
      </>
    );
  } else if (!token || tokenRefused) {
    body = (
      <>
        <div className="auth-note auth-note-error" role="alert">
          <Icon name="alert" size={18} />
          <p><strong>{token ? LINK_USED : 'This link is incomplete.'}</strong></p>
        </div>
        <div className="auth-note auth-note-info"><Icon name="info" size={18} />{account}</div>
      </>
    );
  } else {
    body = (
      <>
        <button type="button" className="btn btn-primary btn-block btn-lg" onClick={() => stop.mutate()} disabled={stop.isPending} aria-busy={stop.isPending}>
          {stop.isPending ? 'Stopping…' : 'Stop these emails'}
        </button>
        {stop.isError && (
          <p className="auth-form-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{errorText(stop.error, 'Could not stop these emails. Please try again.')}</span>
          </p>
        )}
      </>
    );
  }

  return (
    <AuthLayout
      title={stop.isSuccess ? 'Unsubscribed' : 'Stop these emails?'}
      subtitle={stop.isSuccess ? 'Your email settings are saved.' : 'We will stop sending you this kind of email notice. You can turn it back on at any time under Account.'}
    >
      <div className="auth-result">{body}</div>
    </AuthLayout>
  );
}
