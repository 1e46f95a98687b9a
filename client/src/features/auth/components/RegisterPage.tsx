import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { loginAdmin, loginUser, registerAdmin, registerUser } from '../api/auth-api';
import { afterSignIn, useSession } from '../../../lib/session';
import { AuthLayout } from './AuthLayout';
import { normaliseEmail } from '../../../lib/email';
import { ADMIN_EMAIL_HINT, fieldOfRefusal, normaliseMobile, REGISTER_HINTS, REGISTER_LABELS as LABELS, registerProblems, type RegisterField as Field } from './register-rules';

const COPY = {
  user: {
    title: 'Create your account',
    subtitle: 'Register to join auctions and bid from your wallet.',
    /** Signed in at once; the spec's "Please login." only when that sign-in fails. */
    welcome: 'Registration successful! You are signed in.',
    success: 'Registration successful! Please login.',
  },
  admin: {
    title: 'Create an admin account',
    subtitle: 'Register to create auctions and manage products.',
    welcome: 'Admin registration successful! You are signed in.',
    success: 'Admin registration successful! Please login.',
  },
} as const;

export function RegisterPage({ portal }: { portal: Portal }) {
  const navigate = useNavigate();
  // A visitor sent here to bid, save or register goes back to that page once signed in.
  const returnState: unknown = useLocation().state;
  const [values, setValues] = useState<Record<Field, string>>({ name: '', username: '', mobile_number: '', email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const copy = COPY[portal];
  const id = (field: Field) => `${portal}-register-${field}`;

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problems = registerProblems(values);
    setErrors(problems);
    const first = (Object.keys(LABELS) as Field[]).find((key) => problems[key]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }

    setSubmitting(true);
    const email = normaliseEmail(values.email);
    const body = {
      name: values.name.trim(),
      username: values.username.trim(),
      mobile_number: normaliseMobile(values.mobile_number),
      password: values.password,
      // Optional: sent only when given (the server mails it a link to confirm it).
      ...(email ? { email } : {}),
    };
    try {
      await (portal === 'user' ? registerUser(body) : registerAdmin(body));
    } catch (err) {
      // A refusal about one field goes under it, in the form's words; anything else is a toast.
      const refusal = fieldOfRefusal(err);
      if (refusal) {
        setErrors({ [refusal.field]: refusal.message });
        document.getElementById(id(refusal.field))?.focus();
      } else {
        toast.error(errorText(err, 'Registration failed'));
      }
      setSubmitting(false);
      return;
    }
    if (email) toast.info(`We sent a link to ${email}: open it to confirm your address.`);
    // The new account signs in at once; should that fail (a limit, the network), the login page.
    const credentials = { username: body.username, password: body.password };
    try {
      if (portal === 'user') useSession.getState().setUserSession(await loginUser(credentials));
      else useSession.getState().setAdminSession(await loginAdmin(credentials));
    } catch {
      toast.success(copy.success);
      void navigate(paths[portal].login, { replace: true, state: returnState });
      return;
    }
    toast.success(copy.welcome);
    void navigate(afterSignIn(returnState, portal), { replace: true });
  }

  return (
    <AuthLayout
      portal={portal}
      title={copy.title}
      subtitle={copy.subtitle}
      footer={
        <p>
          Already have an account? <Link to={paths[portal].login} state={returnState}>Login as {portal === 'admin' ? 'Admin' : 'User'}</Link>
        </p>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField id={id('name')} label={LABELS.name} name="name" autoComplete="name" required
          value={values.name} onValueChange={change('name')} error={errors.name} />
        <FormField id={id('username')} label={LABELS.username} name="username" autoComplete="username"
          autoCapitalize="none" spellCheck={false} required
          value={values.username} onValueChange={change('username')} error={errors.username} hint={REGISTER_HINTS.username} />
        <FormField id={id('mobile_number')} label={LABELS.mobile_number} name="mobile_number" type="tel"
          autoComplete="tel" inputMode="tel" required
          value={values.mobile_number} onValueChange={change('mobile_number')} error={errors.mobile_number} hint={REGISTER_HINTS.mobile_number} />
        <FormField id={id('email')} label={LABELS.email} name="email" type="email"
          autoComplete="email" autoCapitalize="none" spellCheck={false} inputMode="email"
          value={values.email} onValueChange={change('email')} error={errors.email} hint={portal === 'admin' ? ADMIN_EMAIL_HINT : REGISTER_HINTS.email} />
        <FormField id={id('password')} label={LABELS.password} name="password" type="password"
          autoComplete="new-password" required
          value={values.password} onValueChange={change('password')} error={errors.password} hint={REGISTER_HINTS.password} />
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={submitting}>
          {submitting ? 'Creating account…' : 'Register'}
        </button>
      </form>
    </AuthLayout>
  );
}
