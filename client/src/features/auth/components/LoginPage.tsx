import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { loginAdmin, loginUser } from '../api/auth-api';
import { afterSignIn, useSession } from '../../../lib/session';
import { DemoHint } from '../../../components/demo/DemoHint';
import { AuthLayout } from './AuthLayout';
import { missingFields } from './required';

type Field = 'username' | 'password';
const LABELS: Record<Field, string> = { username: 'Username', password: 'Password' };

const COPY = {
  user: { title: 'User Login', subtitle: 'Sign in to browse auctions and place bids.', success: 'Login successful!' },
  admin: { title: 'Admin Login', subtitle: 'Sign in to manage auctions, products and reports.', success: 'Admin login successful!' },
} as const;

export function LoginPage({ portal }: { portal: Portal }) {
  const navigate = useNavigate();
  // A visitor sent here to bid, save or register goes back to that page once signed in.
  const returnState: unknown = useLocation().state;
  const [values, setValues] = useState<Record<Field, string>>({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  // The server's refusal, kept under the form: the toast goes after 5 s, the user may still be retyping.
  const [refusal, setRefusal] = useState<string | null>(null);
  const copy = COPY[portal];

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    setRefusal(null);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = missingFields(values, LABELS);
    setErrors(missing);
    const first = (Object.keys(LABELS) as Field[]).find((key) => missing[key]);
    if (first) {
      document.getElementById(`${portal}-login-${first}`)?.focus();
      return;
    }

    setSubmitting(true);
    setRefusal(null);
    const body = { username: values.username.trim(), password: values.password };
    try {
      if (portal === 'user') useSession.getState().setUserSession(await loginUser(body));
      else useSession.getState().setAdminSession(await loginAdmin(body));
      toast.success(copy.success);
      void navigate(afterSignIn(returnState, portal), { replace: true });
    } catch (err) {
      const message = errorText(err, 'Login failed');
      toast.error(message);
      setRefusal(message);
      setSubmitting(false);
    }
  }

  return (
    <AuthLayout
      portal={portal}
      title={copy.title}
      subtitle={copy.subtitle}
      footer={
        <p>
          Don&apos;t have an account? <Link to={paths[portal].register} state={returnState}>Register as {portal === 'admin' ? 'Admin' : 'User'}</Link>
        </p>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField
          id={`${portal}-login-username`}
          label={LABELS.username}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={values.username}
          onValueChange={change('username')}
          error={errors.username}
        />
        <FormField
          id={`${portal}-login-password`}
          label={LABELS.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={values.password}
          onValueChange={change('password')}
          error={errors.password}
        />
        <p className="auth-forgot">
          <Link to={paths[portal].forgotPassword} state={returnState}>Forgot password?</Link>
        </p>
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={submitting}>
          {submitting ? 'Signing in…' : 'Login'}
        </button>
        {refusal && (
          <p className="auth-form-error" role="alert">
            <Icon name="alert" size={16} />
            <span>{refusal}</span>
          </p>
        )}
      </form>
      <DemoHint portal={portal} />
    </AuthLayout>
  );
}
