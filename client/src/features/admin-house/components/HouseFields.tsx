/** The House form's pieces: a select and a textarea wired like FormField, and an address's five fields. */
import { HOUSE_LIMITS } from '@auction/shared';
import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { fieldId, STATE_OPTIONS, type AddressDraft, type HouseErrors } from '../model';

/** The field's error, else its hint, under the control; `describedBy` is the id the control points at. */
function Under({ id, error, hint }: { id: string; error?: string | undefined; hint?: ReactNode }) {
  if (error) return <p className="field-error" id={`${id}-error`}>{error}</p>;
  if (hint) return <p className="field-hint" id={`${id}-hint`}>{hint}</p>;
  return null;
}
const describedBy = (id: string, error: string | undefined, hint: ReactNode) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

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

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
}

export function TextAreaField({ id, label, value, onValueChange, error, hint, ...area }: TextAreaFieldProps) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>{label}</label>
      <textarea
        {...area}
        id={id}
        className={`input house-textarea${error ? ' input-invalid' : ''}`}
        value={value}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
      <Under id={id} error={error} hint={hint} />
    </div>
  );
}

/** Line 1, line 2 (optional), city, state (by name, with its GST code) and PIN, named `${prefix}.line1` etc. */
export function AddressFields({ prefix, value, onChange, errors }: {
  prefix: string;
  value: AddressDraft;
  onChange: (field: keyof AddressDraft, value: string) => void;
  errors: HouseErrors;
}) {
  const f = (name: keyof AddressDraft) => ({
    id: fieldId(`${prefix}.${name}`),
    value: value[name],
    onValueChange: (v: string) => onChange(name, v),
    error: errors[`${prefix}.${name}`],
  });
  return (
    <div className="house-address">
      <div className="house-span"><FormField label="Address line 1" {...f('line1')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" /></div>
      <div className="house-span"><FormField label="Address line 2 (optional)" {...f('line2')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" /></div>
      <FormField label="City" {...f('city')} maxLength={HOUSE_LIMITS.cityMax} autoComplete="off" />
      <FormField label="PIN code" {...f('pin')} inputMode="numeric" maxLength={6} autoComplete="off" />
      <div className="house-span">
        <SelectField label="State" {...f('state_code')}>
          <option value="">Choose a state</option>
          {STATE_OPTIONS.map((s) => <option key={s.code} value={s.code}>{s.label}</option>)}
        </SelectField>
      </div>
    </div>
  );
}
