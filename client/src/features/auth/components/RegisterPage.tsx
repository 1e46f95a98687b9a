import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths';
import type { Portal } from '../../../config/paths';
import { FormField } from '../../../components/ui/FormField';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { registerAdmin, registerUser } from '../api/auth-api';
import { AuthLayout } from './AuthLayout';
import { missingFields } from './required';

type Field = 'name' | 'username' | 'mobile_number' | 'password';
const LABELS: Record<Field, string> = {
  name: 'Full Name',
  username: 'Username',
  mobile_number: 'Mobile Number',
  password: 'Password',
};

const COPY = {
  user: {
    title: 'Create your account',
    subtitle: 'Register to join auctions and bid from your wallet.',
    success: 'Registration successful! Please login.',
  },
  admin: {
    title: 'Create an admin account',
    subtitle: 'Register to create auctions and manage products.',
    success: 'Admin registration successful! Please login.',
  },
} as const;

export function RegisterPage({ portal }: { portal: Portal }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({ name: '', username: '', mobile_number: '', password: '' });
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
    const missing = missingFields(values, LABELS);
    setErrors(missing);
    const first = (Object.keys(LABELS) as Field[]).find((key) => missing[key]);
    if (first) {
      document.getElementById(id(first))?.focus();
      return;
    }

    setSubmitting(true);
    const body = {
      name: values.name.trim(),
      username: values.username.trim(),
      mobile_number: values.mobile_number.trim(),
      password: values.password,
    };
    try {
      await (portal === 'user' ? registerUser(body) : registerAdmin(body));
      toast.success(copy.success);
      void navigate(paths[portal].login, { replace: true });
    } catch (err) {
      toast.error(errorText(err, 'Registration failed'));
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
          Already have an account? <Link to={paths[portal].login}>Login as {portal === 'admin' ? 'Admin' : 'User'}</Link>
        </p>
      }
    >
      <form className="auth-form" onSubmit={onSubmit} noValidate>
        <FormField id={id('name')} label={LABELS.name} name="name" autoComplete="name" required
          value={values.name} onValueChange={change('name')} error={errors.name} />
        <FormField id={id('username')} label={LABELS.username} name="username" autoComplete="username"
          autoCapitalize="none" spellCheck={false} required
          value={values.username} onValueChange={change('username')} error={errors.username} />
        <FormField id={id('mobile_number')} label={LABELS.mobile_number} name="mobile_number" type="tel"
          autoComplete="tel" inputMode="tel" required
          value={values.mobile_number} onValueChange={change('mobile_number')} error={errors.mobile_number} />
        <FormField id={id('password')} label={LABELS.password} name="password" type="password"
          autoComplete="new-password" required
          value={values.password} onValueChange={change('password')} error={errors.password} />
        <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={submitting}>
          {submitting ? 'Creating account…' : 'Register'}
        </button>
      </form>
    </AuthLayout>
  );
}
