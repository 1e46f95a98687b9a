/**
 * A new password typed twice, as the reset page and the undo-email page ask for it: checked before it
 * is sent (reset-rules.ts), the first wrong field focused, and the server's length refusal said as the
 * form says it (never the API's field name).
 */
import { useState, type FormEvent } from 'react';
import { LIMITS } from '@auction/shared';
import { FormField } from '../../../components/ui/FormField';
import { ApiError } from '../../../lib/api-client';
import { newPasswordProblems, PASSWORD_RULE, type NewPasswordField as Field } from './reset-rules';

/** The form's state; `idPrefix` names its fields' ids (`${idPrefix}-password`, `${idPrefix}-confirm`). */
export function useNewPasswordForm(idPrefix: string) {
  const [values, setValues] = useState<Record<Field, string>>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const focus = (field: Field) => document.getElementById(`${idPrefix}-${field}`)?.focus();

  const change = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  /** A submit handler that calls `send` with the password once both fields are right. */
  const submitWith = (send: (password: string) => void, busy: boolean) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problems = newPasswordProblems(values.password, values.confirm);
    setErrors(problems);
    const first = (['password', 'confirm'] as const).find((f) => problems[f]);
    if (first) {
      focus(first);
      return;
    }
    send(values.password);
  };

  /** For the mutation's `onError`: the server's length refusal shown on the password field. */
  const serverRefused = (err: unknown) => {
    if (err instanceof ApiError && err.code === 'VALIDATION' && err.field === 'password') {
      setErrors({ password: PASSWORD_RULE });
      focus('password');
    }
  };

  return { idPrefix, values, errors, change, submitWith, serverRefused };
}

/** Whether `error` is one the password field already shows (the form need not say it again). */
export const isPasswordRefusal = (error: unknown) => error instanceof ApiError && error.field === 'password';

/** The two fields of `useNewPasswordForm`. */
export function NewPasswordFields({ form }: { form: ReturnType<typeof useNewPasswordForm> }) {
  const { idPrefix, values, errors, change } = form;
  return (
    <>
      <FormField id={`${idPrefix}-password`} label="New password" name="new-password" type="password" autoComplete="new-password" required
        value={values.password} onValueChange={change('password')} error={errors.password}
        hint={`At least ${LIMITS.passwordMin} characters`} maxLength={LIMITS.passwordMax} />
      <FormField id={`${idPrefix}-confirm`} label="Confirm password" name="confirm-password" type="password" autoComplete="new-password" required
        value={values.confirm} onValueChange={change('confirm')} error={errors.confirm} maxLength={LIMITS.passwordMax} />
    </>
  );
}
