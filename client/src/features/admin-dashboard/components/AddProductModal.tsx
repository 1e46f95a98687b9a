import { useId, useState, type FormEvent } from 'react';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { adminApi, checkProduct } from '../../admin-auctions';

/** Add Product: id, name and description; 'Please fill all fields' when one is missing. */
export function AddProductModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const formId = useId();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const problem = checkProduct({ id, name, description });
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await adminApi.createProduct({ id: id.trim(), name: name.trim(), description: description.trim() });
      toast.success('Product added successfully!');
      onSaved();
      onClose();
    } catch (err) {
      toast.error(errorText(err, 'Failed to add product'));
      setSaving(false);
    }
  }

  return (
    <Modal
      title="Add Product"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={saving}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={saving}>{saving ? 'Adding…' : 'Add Product'}</button>
        </>
      )}
    >
      <form id={formId} className="adm-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        {error && <p className="adm-form-error" role="alert"><Icon name="alert" size={16} /> {error}</p>}
        <FormField id={`${formId}-id`} label="Product ID" value={id} onValueChange={setId} placeholder="e.g. watch-001" autoComplete="off" maxLength={64} />
        <FormField id={`${formId}-name`} label="Product Name" value={name} onValueChange={setName} autoComplete="off" maxLength={120} />
        <div className="field">
          <label className="field-label" htmlFor={`${formId}-desc`}>Description</label>
          <textarea
            id={`${formId}-desc`}
            className="input adm-textarea"
            rows={3}
            maxLength={2000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
      </form>
    </Modal>
  );
}
