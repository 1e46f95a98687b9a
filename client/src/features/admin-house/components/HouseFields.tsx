/** The House form's pieces: a textarea wired like FormField, and an address's five fields (lib/address). */
import type { ComponentProps, ReactNode, TextareaHTMLAttributes } from 'react';
import { AddressFields as SharedAddressFields, describedBy, Under } from '../../../lib/address/AddressFields';
import { fieldId } from '../model';

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

/** The address's five fields (lib/address), named `${prefix}.line1` etc., with the House page's element ids. */
export function AddressFields(props: Omit<ComponentProps<typeof SharedAddressFields>, 'idOf'>) {
  return <SharedAddressFields {...props} idOf={fieldId} />;
}
