import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { formatRupees, CATALOGUE_MESSAGES, type AdminAuction, type CreateAuctionBody, type Product } from '@auction/shared';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { auctionProductsQuery, unassignedProductsQuery } from '../../../lib/admin-products';
import { useServerQuery } from '../../../lib/query';
import { checkCreateAuction, checkEditAuction, defaultValidUntil, fromLocalInput, toLocalInput } from '../lib/forms';
import { useRuleDefaults } from '../hooks/use-rule-defaults';
import { MAX_EXTENSION_MAX_S, SOFT_CLOSE_MAX_S, parseSeconds } from '../lib/rules';
import { useAdminAuctionActions } from '../store/admin-auctions-store';
import { RuleFields, type RuleErrors, type RulesDraft } from './RuleFields';
import { checkSteps, stepsDraft, type StepsBody } from '../lib/steps';
import './admin-auctions.css';

type Props =
  | { mode: 'create'; onClose: () => void; onSaved?: () => void }
  /**
   * Edit; `withProducts` false is the detail page's short form (no product list), which says itself
   * whether a lot has bids (`ruleLocked`: steps and the cancel policy can no longer change).
   */
  | { mode: 'edit'; auction: AdminAuction; withProducts?: boolean; ruleLocked?: boolean; onClose: () => void; onSaved?: (auction: AdminAuction) => void };

type Rules = Pick<CreateAuctionBody, 'soft_close_s' | 'max_extension_s'> & { steps: StepsBody };

/** The rule fields as the body sends them (a blank seconds field is left out), or what is wrong with them. */
function checkRules(d: RulesDraft, stepsLocked: boolean): { ok: true; rules: Rules } | { ok: false; errors: RuleErrors } {
  const soft = parseSeconds(d.softClose, 'Soft close', SOFT_CLOSE_MAX_S);
  const max = parseSeconds(d.maxExtension, 'Max extension', MAX_EXTENSION_MAX_S);
  // Frozen steps are not checked (nor sent): they can only be the ones the auction has.
  const steps = stepsLocked ? { ok: true as const, body: {} } : checkSteps(d);
  if (!soft.ok || !max.ok || !steps.ok) {
    return { ok: false, errors: { softClose: soft.ok ? undefined : soft.error, maxExtension: max.ok ? undefined : max.error, steps: steps.ok ? undefined : steps.error } };
  }
  return {
    ok: true,
    rules: {
      steps: steps.body,
      ...(soft.value === undefined ? {} : { soft_close_s: soft.value }),
      ...(max.value === undefined ? {} : { max_extension_s: max.value }),
    },
  };
}

const NONE: Product[] = [];

interface Choice {
  product: Product;
  /** A leading bid holds it in the auction (the server refuses to take it out). */
  locked: boolean;
}

/**
 * Create Auction (id, name, valid until, unassigned products) and Edit Auction (name, valid until and
 * the auction's products plus the admin's unassigned ones), with the forms' fixed messages (lib/forms.ts).
 */
export function AuctionFormModal(props: Props) {
  const editing = props.mode === 'edit' ? props.auction : null;
  const withProducts = props.mode === 'create' || props.withProducts !== false;
  const formId = useId();
  const [id, setId] = useState('');
  const [name, setName] = useState(editing?.name ?? '');
  const [validUntil, setValidUntil] = useState(editing ? toLocalInput(editing.valid_until) : defaultValidUntil());
  const [selected, setSelected] = useState<string[]>(editing?.product_ids ?? []);
  // Create: flat steps and blank seconds (the server's defaults); edit: the auction's rules.
  const [rules, setRules] = useState<RulesDraft>({
    ...stepsDraft(editing),
    softClose: editing ? String(editing.soft_close_s) : '',
    maxExtension: editing ? String(editing.max_extension_s) : '',
  });
  const [ruleErrors, setRuleErrors] = useState<RuleErrors>({});
  // What a blank seconds field means on a new auction.
  const defaults = useRuleDefaults(editing === null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const create = useAdminAuctionActions((s) => s.create);
  const update = useAdminAuctionActions((s) => s.update);
  const editingId = editing?.id;

  // The choices: the auction's own products (when editing) and the admin's unassigned ones.
  const complain = (err: unknown) => toast.error(errorText(err, 'Failed to load data'));
  const unassigned = useServerQuery(unassignedProductsQuery(), { enabled: withProducts, onError: complain });
  const own = useServerQuery(auctionProductsQuery(editingId ?? ''), { enabled: withProducts && editingId !== undefined, onError: complain });
  const failed = unassigned.status === 'error' || own.status === 'error';
  const inAuction = editingId === undefined ? NONE : own.data;
  const choices = useMemo((): Choice[] | null => {
    if (!withProducts || failed) return [];
    if (inAuction === undefined || unassigned.data === undefined) return null;
    return [
      ...inAuction.map((product) => ({ product, locked: product.highest_bid > 0 && product.status !== 'sold' })),
      ...unassigned.data.filter((u) => !inAuction.some((p) => p.id === u.id)).map((product) => ({ product, locked: false })),
    ];
  }, [withProducts, failed, inAuction, unassigned.data]);
  // Editing starts from the products the auction has, once; a later re-read does not undo the admin's choice.
  const preselected = useRef(false);
  useEffect(() => {
    if (preselected.current || editingId === undefined || own.data === undefined || own.fetching) return;
    preselected.current = true;
    setSelected(own.data.map((p) => p.id));
  }, [editingId, own.data, own.fetching]);

  // A lot with a leading bid freezes the increment rule (the server refuses a change).
  const ruleLocked = props.mode === 'edit' && (props.ruleLocked ?? own.data?.some((p) => p.highest_bid > 0 && p.status !== 'sold') ?? false);

  const toggle = (productId: string, on: boolean) =>
    setSelected((s) => (on ? [...s.filter((x) => x !== productId), productId] : s.filter((x) => x !== productId)));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = editing
      ? checkEditAuction({ name, validUntil }) ?? (withProducts && selected.length === 0 ? CATALOGUE_MESSAGES.auctionProducts : null)
      : checkCreateAuction({ id, name, validUntil, productIds: selected });
    setError(problem);
    if (problem) {
      setRuleErrors({});
      return;
    }
    const checked = checkRules(rules, ruleLocked);
    setRuleErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setSaving(true);
    const { steps, ...seconds } = checked.rules;
    const body = { name: name.trim(), valid_until: fromLocalInput(validUntil), ...steps, ...seconds };
    if (props.mode === 'create') {
      const ok = await create({ id: id.trim(), ...body, product_ids: selected });
      setSaving(false);
      if (ok) {
        props.onSaved?.();
        props.onClose();
      }
    } else {
      const saved = await update(props.auction.id, withProducts ? { ...body, product_ids: selected } : body);
      setSaving(false);
      if (saved) {
        props.onSaved?.(saved);
        props.onClose();
      }
    }
  }

  const title = editing ? 'Edit Auction' : 'Create Auction';
  return (
    <Modal
      title={title}
      size="lg"
      onClose={props.onClose}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={props.onClose} disabled={saving}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={saving}>
            {saving ? 'Saving…' : editing ? 'Save Changes' : 'Create Auction'}
          </button>
        </>
      )}
    >
      <form id={formId} className="aa-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error && <p className="aa-form-error" role="alert"><Icon name="alert" size={16} /> {error}</p>}
        {editing ? (
          <p className="aa-form-id">Auction ID <code>{editing.id}</code></p>
        ) : (
          <FormField id={`${formId}-id`} label="Auction ID" value={id} onValueChange={setId} placeholder="e.g. spring-2026" autoComplete="off" maxLength={64} />
        )}
        <FormField id={`${formId}-name`} label="Auction Name" value={name} onValueChange={setName} autoComplete="off" maxLength={120} />
        <FormField
          id={`${formId}-until`}
          label={editing ? 'Valid Until' : 'Valid Until (date and time)'}
          type="datetime-local"
          value={validUntil}
          onValueChange={setValidUntil}
        />
        {withProducts && (
          <fieldset className="aa-products">
            <legend className="field-label">
              {editing ? 'Products' : 'Products (unassigned)'}
              {choices && choices.length > 0 && <span className="aa-products-count"> · {selected.length} selected</span>}
            </legend>
            {choices === null ? <Spinner label="Loading products…" /> : choices.length === 0 ? (
              <p className="aa-products-empty">No unassigned products available</p>
            ) : (
              <ul className="aa-products-list">
                {choices.map(({ product: p, locked }) => {
                  const checked = selected.includes(p.id);
                  return (
                    <li key={p.id}>
                      <label className={`aa-check${checked ? ' aa-check-on' : ''}`}>
                        <input
                          type="checkbox"
                          checked={checked}
                          disabled={locked && checked}
                          onChange={(e) => toggle(p.id, e.target.checked)}
                        />
                        <span className="aa-check-text">
                          <span className="aa-check-name">{p.name}</span>
                          <span className="aa-check-meta">
                            <code>{p.id}</code>
                            {locked ? <> · leading bid {formatRupees(p.highest_bid)}</> : p.starting_price > 0 && <> · from {formatRupees(p.starting_price)}</>}
                          </span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            )}
          </fieldset>
        )}
        <RuleFields idPrefix={formId} value={rules} onChange={setRules} errors={ruleErrors} ruleLocked={ruleLocked} editing={editing !== null} defaults={defaults} />
      </form>
    </Modal>
  );
}
