import type { RuleDefaults } from '../hooks/use-rule-defaults';
import { formatSeconds } from '../lib/rules';
import type { StepsDraft } from '../lib/steps';
import { StepFields } from './StepFields';

export interface RulesDraft extends StepsDraft {
  /** Seconds as typed; blank: the server's default (create) or the current value (edit). */
  softClose: string;
  maxExtension: string;
}

export interface RuleErrors {
  steps?: string | undefined;
  softClose?: string | undefined;
  maxExtension?: string | undefined;
}

interface Preset {
  label: string;
  seconds: number;
}

const SOFT_CLOSE_PRESETS: Preset[] = [
  { label: 'Off', seconds: 0 }, { label: '30 s', seconds: 30 }, { label: '1 min', seconds: 60 }, { label: '2 min', seconds: 120 }, { label: '5 min', seconds: 300 },
];
const MAX_EXTENSION_PRESETS: Preset[] = [
  { label: '15 min', seconds: 900 }, { label: '1 h', seconds: 3600 }, { label: '6 h', seconds: 21_600 }, { label: '24 h', seconds: 86_400 },
];

const whole = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** The auction form's bidding rules: the bid steps, the cancel policy, soft close and its maximum extension. */
export function RuleFields({ idPrefix, value, onChange, errors, ruleLocked, editing, defaults }: {
  idPrefix: string;
  value: RulesDraft;
  onChange: (next: RulesDraft) => void;
  errors: RuleErrors;
  /** A lot has bids: the server refuses other steps or another cancel policy. */
  ruleLocked: boolean;
  editing: boolean;
  /** The server's defaults, when known (create only). */
  defaults?: RuleDefaults | undefined;
}) {
  const blank = editing ? 'Blank: keeps the current value.' : 'Blank: the server’s default.';
  // A blank field on a new auction reads as the server's default, when known.
  const soft = whole(value.softClose) ?? defaults?.soft_close_s ?? null;
  const max = whole(value.maxExtension) ?? defaults?.max_extension_s ?? null;
  const prefix = !editing && value.softClose.trim() === '' && defaults ? `${blank} ` : '';
  const softHint = soft === null
    ? blank
    : prefix + (soft === 0 ? 'Off: the auction ends on time, whatever the bids.' : `Bids in the last ${soft} s extend the auction (to ${soft} s after the bid).`);
  const maxHint = max === null
    ? `${blank} The end never moves more than this past the end you set.`
    : `${!editing && value.maxExtension.trim() === '' && defaults ? `${blank} ` : ''}The end never moves more than ${formatSeconds(max)} past the end you set.`;
  return (
    <fieldset className="aa-rules">
      <legend className="field-label aa-rules-legend">Bidding rules</legend>
      <StepFields idPrefix={idPrefix} value={value} onChange={(steps) => onChange({ ...value, ...steps })} error={errors.steps} locked={ruleLocked} />
      <div className="aa-rules-row">
        <SecondsField
          id={`${idPrefix}-soft`}
          label="Soft close (seconds)"
          value={value.softClose}
          onValueChange={(softClose) => onChange({ ...value, softClose })}
          presets={SOFT_CLOSE_PRESETS}
          hint={softHint}
          error={errors.softClose}
          placeholder={editing ? undefined : defaults ? String(defaults.soft_close_s) : 'Server default'}
        />
        <SecondsField
          id={`${idPrefix}-max`}
          label="Max extension (seconds)"
          value={value.maxExtension}
          onValueChange={(maxExtension) => onChange({ ...value, maxExtension })}
          presets={MAX_EXTENSION_PRESETS}
          hint={maxHint}
          error={errors.maxExtension}
          placeholder={editing ? undefined : defaults ? String(defaults.max_extension_s) : 'Server default'}
        />
      </div>
    </fieldset>
  );
}

function SecondsField({ id, label, value, onValueChange, presets, hint, error, placeholder }: {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  presets: readonly Preset[];
  hint: string;
  error: string | undefined;
  placeholder: string | undefined;
}) {
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field aa-seconds">
      <label className="field-label" htmlFor={id}>{label}</label>
      <input
        id={id}
        className={`input${error ? ' input-invalid' : ''}`}
        inputMode="numeric"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        onChange={(e) => onValueChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      <div className="aa-presets" role="group" aria-label={`${label}: presets`}>
        {presets.map((p) => (
          <button
            key={p.seconds}
            type="button"
            className={`aa-preset${value.trim() === String(p.seconds) ? ' aa-preset-on' : ''}`}
            aria-pressed={value.trim() === String(p.seconds)}
            onClick={() => onValueChange(String(p.seconds))}
          >
            {p.label}
          </button>
        ))}
      </div>
      <p className="aa-hint" id={`${id}-hint`}>{hint}</p>
      {error && <p className="field-error" id={`${id}-error`} role="alert">{error}</p>}
    </div>
  );
}
