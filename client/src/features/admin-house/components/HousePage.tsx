import { HOUSE_LIMITS, LIMITS, type House, type PutHouseBody } from '@auction/shared';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon, type IconName } from '../../../components/ui/Icon';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { useSession } from '../../../lib/session';
import { houseQuery, houseSaved, saveHouse } from '../api/house-api';
import {
  bodyOf, draftOf, fieldId, fieldsOf, missingText, newLocation, refusalField, validateHouse,
  type AddressDraft, type HouseDraft, type HouseErrors, type LocationDraft,
} from '../model';
import { AddressFields, TextAreaField } from './HouseFields';
import './house.css';
import { useFocusAfterRender } from '../../../lib/use-focus-after-render';

/**
 * /admin/house: the house's profile (docs/invoices.md): the seller of record on its invoices, its address,
 * how buyers reach it, its payout account and its pickup locations, saved whole with one button.
 * A banner says what settling an auction with bids still needs.
 */
export function HousePage() {
  const read = useServerQuery(houseQuery(), { onError: (err) => toast.error(errorText(err, 'Failed to load the house profile')) });
  // A different admin in this tab starts with a fresh form.
  const adminId = useSession((s) => s.admin?.id);
  const house = read.data;
  return (
    <div className="page page-stack house-page">
      {house && house.missing.length > 0 && (
        <p className="house-banner" role="status">
          <Icon name="warning" size={20} />
          <span>Your invoices will need these: please fill in {missingText(house.missing)}</span>
        </p>
      )}
      <p className="muted house-intro">Your invoices name this house as the seller; buyers see its contact details and pickup locations. Fields left empty are not filled in yet.</p>
      {house ? (
        <HouseForm key={adminId ?? 'none'} house={house} />
      ) : read.status === 'error' ? (
        <p className="house-refusal" role="alert">
          <Icon name="alert" size={18} /> <span>{errorText(read.error, 'Failed to load the house profile')}</span>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void read.refetch()}>Try again</button>
        </p>
      ) : <Spinner label="Loading the house profile…" />}
    </div>
  );
}

function Card({ id, icon, title, wide, children, hint }: { id: string; icon: IconName; title: string; wide?: boolean; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className={`card house-card${wide ? ' house-wide' : ''}`} aria-labelledby={`${id}-title`}>
      <div className="card-header">
        <div className="house-card-heading">
          <span className="house-card-icon" aria-hidden="true"><Icon name={icon} size={18} /></span>
          <h2 id={`${id}-title`} className="card-title">{title}</h2>
        </div>
        {hint}
      </div>
      <div className="card-body house-fields">{children}</div>
    </section>
  );
}

const upper = (v: string) => v.toUpperCase();

function HouseForm({ house }: { house: House }) {
  const [draft, setDraft] = useState<HouseDraft>(() => draftOf(house));
  const [errors, setErrors] = useState<HouseErrors>({});
  const focusNext = useFocusAfterRender();

  const save = useServerMutation({
    mutationFn: (body: PutHouseBody) => saveHouse(body),
    onSuccess: (saved) => {
      houseSaved(saved);
      setDraft(draftOf(saved));
      setErrors({});
      toast.success('House profile saved');
    },
    onError: (err) => {
      if (isSessionEnded(err)) return;
      const at = refusalField(err, new Set(fieldsOf(draft)));
      if (at) {
        setErrors({ [at.field]: at.message });
        focusNext(fieldId(at.field));
        return;
      }
      toast.error(errorText(err, 'Failed to save the house profile'));
    },
  });
  const saving = save.isPending;

  const clear = (...fields: string[]) => setErrors((e) => {
    if (!fields.some((f) => e[f])) return e;
    const next = { ...e };
    for (const f of fields) delete next[f];
    return next;
  });
  const top = (key: 'legal_name' | 'display_name' | 'gstin' | 'invoice_prefix' | 'phone' | 'email', map: (v: string) => string = (v) => v) => ({
    id: fieldId(key),
    value: draft[key],
    error: errors[key],
    onValueChange: (v: string) => {
      setDraft((d) => ({ ...d, [key]: map(v) }));
      clear(key);
    },
  });
  const payout = (key: keyof HouseDraft['payout'], map: (v: string) => string = (v) => v) => ({
    id: fieldId(`payout.${key}`),
    value: draft.payout[key],
    error: errors[`payout.${key}`],
    onValueChange: (v: string) => {
      setDraft((d) => ({ ...d, payout: { ...d.payout, [key]: map(v) } }));
      clear('payout.holder', 'payout.ifsc', 'payout.account_number');
    },
  });
  const setAddress = (field: keyof AddressDraft, v: string) => {
    setDraft((d) => ({ ...d, address: { ...d.address, [field]: v } }));
    clear('address.line1', 'address.line2', 'address.city', 'address.state_code', 'address.pin', ...(field === 'state_code' ? ['gstin'] : []));
  };
  const setLocation = (i: number, change: (l: LocationDraft) => LocationDraft, ...fields: string[]) => {
    setDraft((d) => ({ ...d, pickup_locations: d.pickup_locations.map((l, j) => (j === i ? change(l) : l)) }));
    clear(`pickup_locations[${i}].id`, ...fields.map((f) => `pickup_locations[${i}].${f}`));
  };
  /** Adding or removing renumbers the locations: their errors no longer name the right one. */
  const dropLocationErrors = () => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('pickup_locations'))));
  const addLocation = () => {
    const l = newLocation();
    focusNext(fieldId(`pickup_locations[${draft.pickup_locations.length}].name`));
    setDraft((d) => ({ ...d, pickup_locations: [...d.pickup_locations, l] }));
    dropLocationErrors();
  };
  const removeLocation = (i: number) => {
    focusNext('house-add-location');
    setDraft((d) => ({ ...d, pickup_locations: d.pickup_locations.filter((_l, j) => j !== i) }));
    dropLocationErrors();
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (saving) return;
    const found = validateHouse(draft);
    setErrors(found);
    const first = fieldsOf(draft).find((f) => found[f]);
    if (first) {
      focusNext(fieldId(first));
      return;
    }
    save.mutate(bodyOf(draft));
  }

  const stored = house.payout?.account_number ?? null;
  const atMax = draft.pickup_locations.length >= HOUSE_LIMITS.pickupLocationsMax;
  const errorCount = Object.values(errors).filter(Boolean).length;
  return (
    <form className="house-form" onSubmit={submit} noValidate aria-label="House profile">
      <div className="house-grid">
        <Card id="house-seller" icon="shield" title="Seller of record">
          <FormField label="Legal name" {...top('legal_name')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="organization" hint="As registered: it heads your invoices" />
          <FormField label="Display name" {...top('display_name')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" hint="What buyers see, if not the legal name" />
          <FormField
            label="GSTIN" {...top('gstin', upper)} maxLength={15} autoComplete="off" autoCapitalize="characters" spellCheck={false}
            hint="15 characters, beginning with the state code of your address, e.g. 27AAPFU0939F1ZV"
          />
          <FormField
            label="Invoice prefix" {...top('invoice_prefix', upper)} maxLength={5} autoComplete="off" autoCapitalize="characters" spellCheck={false}
            hint="1–5 capital letters or digits, e.g. RAO: your invoices are numbered RAO/2627/000001"
          />
        </Card>
        <Card id="house-address" icon="house" title="Address">
          <AddressFields prefix="address" value={draft.address} onChange={setAddress} errors={errors} />
        </Card>
        <Card id="house-contact" icon="mail" title="Contact for buyers">
          <FormField label="Phone" type="tel" inputMode="tel" {...top('phone')} maxLength={16} autoComplete="tel" hint="7–15 digits, an optional leading +" />
          <FormField label="Email" type="email" {...top('email')} maxLength={LIMITS.emailMax} autoComplete="email" />
        </Card>
        <Card id="house-payout" icon="wallet" title="Payout account">
          <FormField label="Account holder" {...payout('holder')} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off" />
          <FormField label="IFSC" {...payout('ifsc', upper)} maxLength={11} autoComplete="off" autoCapitalize="characters" spellCheck={false} hint="The branch’s code, e.g. HDFC0001234" />
          <FormField
            label="Account number" {...payout('account_number')} maxLength={24} inputMode="numeric" autoComplete="off" spellCheck={false}
            onFocus={(e) => { if (stored && e.currentTarget.value === stored) e.currentTarget.select(); }}
            hint={stored ? `Stored: ${stored}, only its last four digits are shown. Typing a new number replaces it.` : '9–18 digits'}
          />
        </Card>
        <Card
          id="house-pickup" icon="pin" title="Pickup locations" wide
          hint={<span className="house-count">{draft.pickup_locations.length} of at most {HOUSE_LIMITS.pickupLocationsMax}</span>}
        >
          {draft.pickup_locations.length === 0 && <p className="muted house-empty">No pickup locations yet: buyers collect from the address above, or add where they may.</p>}
          {errors.pickup_locations && <p className="field-error" id={fieldId('pickup_locations')} tabIndex={-1}>{errors.pickup_locations}</p>}
          <ol className="house-locations">
            {draft.pickup_locations.map((l, i) => (
              <PickupLocationFields key={l.key} index={i} location={l} errors={errors} onChange={setLocation} onRemove={removeLocation} />
            ))}
          </ol>
          <div>
            <button type="button" id="house-add-location" className="btn btn-outline" onClick={addLocation} disabled={atMax} aria-describedby={atMax ? 'house-add-max' : undefined}>
              <Icon name="plus" size={16} /> Add a pickup location
            </button>
            {atMax && <p className="field-hint" id="house-add-max">A house may have at most {HOUSE_LIMITS.pickupLocationsMax} pickup locations.</p>}
          </div>
        </Card>
      </div>
      <div className="card house-actions">
        <p className="house-actions-note" aria-live="polite">
          {errorCount > 0 ? `Check the ${errorCount === 1 ? 'field' : `${errorCount} fields`} marked above.` : 'Saves the whole profile: every card above.'}
        </p>
        <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
          {saving ? 'Saving…' : 'Save house profile'}
        </button>
      </div>
    </form>
  );
}

function PickupLocationFields({ index, location, errors, onChange, onRemove }: {
  index: number;
  location: LocationDraft;
  errors: HouseErrors;
  onChange: (i: number, change: (l: LocationDraft) => LocationDraft, ...fields: string[]) => void;
  onRemove: (i: number) => void;
}) {
  const p = `pickup_locations[${index}]`;
  const title = location.name.trim() || `Pickup location ${index + 1}`;
  const legendId = `${fieldId(p)}-legend`;
  const whole = errors[`${p}.id`];
  return (
    <li className="house-location">
      <div role="group" className="house-location-set" id={fieldId(`${p}.id`)} tabIndex={-1} aria-labelledby={legendId}>
        <div className="house-location-head">
          <h3 id={legendId} className="house-location-title">{index + 1}. {title}</h3>
          <button type="button" className="btn btn-outline btn-sm house-remove" onClick={() => onRemove(index)} aria-label={`Remove ${title}`}>
            <Icon name="trash" size={14} /> Remove
          </button>
        </div>
        {whole && <p className="field-error house-location-error">{whole}</p>}
        <div className="house-location-grid">
          <FormField
            id={fieldId(`${p}.name`)} label="Name" value={location.name} error={errors[`${p}.name`]} maxLength={HOUSE_LIMITS.lineMax} autoComplete="off"
            onValueChange={(v) => onChange(index, (l) => ({ ...l, name: v }), 'name')} hint="e.g. Pune warehouse"
          />
          <FormField
            id={fieldId(`${p}.hours`)} label="Opening hours (optional)" value={location.hours} error={errors[`${p}.hours`]} maxLength={HOUSE_LIMITS.hoursMax} autoComplete="off"
            onValueChange={(v) => onChange(index, (l) => ({ ...l, hours: v }), 'hours')} hint="e.g. Mon–Sat 10:00–18:00"
          />
          <div className="house-span">
            <AddressFields
              prefix={`${p}.address`} value={location.address} errors={errors}
              onChange={(field, v) => onChange(index, (l) => ({ ...l, address: { ...l.address, [field]: v } }), 'address.line1', 'address.line2', 'address.city', 'address.state_code', 'address.pin')}
            />
          </div>
          <div className="house-span">
            <TextAreaField
              id={fieldId(`${p}.instructions`)} label="Instructions for buyers (optional)" value={location.instructions} error={errors[`${p}.instructions`]}
              maxLength={HOUSE_LIMITS.instructionsMax} rows={3} onValueChange={(v) => onChange(index, (l) => ({ ...l, instructions: v }), 'instructions')}
              hint="e.g. Gate 2, bring your invoice"
            />
          </div>
        </div>
      </div>
    </li>
  );
}
