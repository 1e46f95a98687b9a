/** An address's five fields (and the labelled select they use for the state), wired like FormField. */
import { HOUSE_LIMITS } from '@auction/shared';
import type { ReactNode, SelectHTMLAttributes } from 'react';
import { FormField } from '../../components/ui/FormField';
import { STATE_OPTIONS, type AddressDraft, type FieldErrors } from './address';
import './address.css';

/** The field's error, else its hint, under the control; `describedBy` is the id the control points at. */
export function Under({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  if (error) return <p className="field-error" id={`${id}-error`}>{error}</p>;
  if (hint) return <p className="field-hint" id={`${id}-hint`}>{hint}</p>;
  return null;
}
export const describedBy = (id: string, error: string | undefined, hint: ReactNode) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}

export function SelectField({ id, label, value, onValueChange, error, hint, children, ...select }: SelectFieldProps) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <select
        {...select}
        id={id}
        className={`input${error ? ' input-invalid' : ''}`}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      >
        {children}
      </select>
      <Under id={id} error={error} hint={hint} />
    </div>
  );
}

/**
 * Line 1, line 2 (optional), city, PIN and state (by name, with its GST code), named `${prefix}.line1`
 * etc. in `errors`; `idOf` gives each field's element id from that name.
 */
export function AddressFields({ prefix, value, onChange, errors, idOf }: {
  prefix: string;
  value: AddressDraft;
  onChange: (field: keyof AddressDraft, value: string) => void;
  errors: FieldErrors;
  idOf: (field: string) => string;
}) {
  const f = (name: keyof AddressDraft) => ({
    id: idOf(`${prefix}.${name}`),
    value: value[name],
    onValueChange: (v: string) => onChange(name, v),
    error: errors[`${prefix}.${name}`],
  });
  return (
    <div className="address-fields">
      <div className="address-span"><FormField label="Address line 1" {...f('line1')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" /></div>
      <div className="address-span"><FormField label="Address line 2 (optional)" {...f('line2')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" /></div>
      <FormField label="City" {...f('city')} maxLength={HOUSE_LIMITS.cityMax} autoComplete="off" />
      <FormField label="PIN code" {...f('pin')} inputMode="numeric" maxLength={6} autoComplete="off" />
      <div className="address-span">
        <SelectField label="State" {...f('state_code')}>
          <option value="">Choose a state</option>
          {STATE_OPTIONS.map((s) => <option key={s.code} value={s.code}>{s.label}</option>)}
        </SelectField>
      </div>
    </div>
  );
}
