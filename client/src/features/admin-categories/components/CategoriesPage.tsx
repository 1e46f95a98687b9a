import type { Category, CategoryBody } from '@auction/shared';
import { CATEGORY_NAME_MAX } from '@auction/shared';
import { useState, type FormEvent } from 'react';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { EmptyState } from '../../../components/ui/EmptyState';
import { FormField } from '../../../components/ui/FormField';
import { Icon } from '../../../components/ui/Icon';
import { ConfirmDialog, Modal } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation, useServerQuery } from '../../../lib/query';
import { categoriesChanged, categoriesQuery, createCategory, deleteCategory, updateCategory } from '../api/categories-api';
import { childCount, deleteRefusal, parentChoices } from '../model';
import './categories.css';

/**
 * /admin/categories: the two-level tree every seller sorts products into, each category with its
 * count of open lots; any admin adds, renames, moves and deletes (one that is in use is refused).
 */
export function CategoriesPage() {
  const read = useServerQuery(categoriesQuery(), { onError: (err) => toast.error(errorText(err, 'Failed to load data')) });
  const all = read.data;
  const [editing, setEditing] = useState<Category | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const remove = useServerMutation({
    mutationFn: (c: Category) => deleteCategory(c.id),
    onMutate: () => setRefusal(null),
    onSuccess: (_res, c) => {
      toast.success(`Deleted “${c.name}”`);
      categoriesChanged();
    },
    onError: (err, c) => setRefusal(deleteRefusal(err, c.name)),
    onSettled: () => setDeleting(null),
  });

  return (
    <div className="page page-stack categories-page">
      <p className="muted">Categories are shared by every seller. A top-level category may have subcategories; a subcategory has none of its own.</p>
      <AddCategory all={all ?? []} />
      <section className="card" aria-labelledby="categories-title">
        <div className="card-header">
          <h2 id="categories-title" className="card-title">All categories</h2>
        </div>
        {refusal && (
          <p className="categories-refusal" role="alert">
            <Icon name="alert" size={18} /> <span>{refusal}</span>
            <button type="button" className="icon-btn categories-dismiss" aria-label="Dismiss" onClick={() => setRefusal(null)}><Icon name="close" size={16} /></button>
          </p>
        )}
        {all === undefined ? (
          read.status === 'error' ? (
            <p className="categories-refusal" role="alert">
              <Icon name="alert" size={18} /> <span>{errorText(read.error, 'Failed to load data')}</span>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => void read.refetch()}>Try again</button>
            </p>
          ) : <Spinner label="Loading categories…" />
        ) : (
          <CategoryTable all={all} onEdit={setEditing} onDelete={(c) => { setRefusal(null); setDeleting(c); }} />
        )}
      </section>
      {editing && all && <EditCategory category={editing} all={all} onClose={() => setEditing(null)} />}
      {deleting && (
        <ConfirmDialog
          title="Delete category"
          message={`Delete “${deleting.name}”? Only a category without products or subcategories can be deleted.`}
          confirmLabel="Delete"
          danger
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function CategoryTable({ all, onEdit, onDelete }: { all: readonly Category[]; onEdit: (c: Category) => void; onDelete: (c: Category) => void }) {
  const columns: Column<Category>[] = [
    {
      key: 'name', header: 'Category', area: 'name', className: 'categories-name',
      cell: (c) => (
        <span className={c.parent_id === null ? 'categories-top' : 'categories-sub'}>
          {c.parent_id !== null && <Icon name="chevron-right" size={14} className="categories-branch" />}
          <span className="categories-name-text">
            <span>{c.name}</span>
            <code className="categories-slug">{c.slug}</code>
          </span>
        </span>
      ),
    },
    {
      key: 'kind', header: 'Level', area: 'kind', className: 'categories-kind',
      cell: (c) => (c.parent_id === null ? `Top level${childCount(all, c.id) ? ` · ${childCount(all, c.id)} sub` : ''}` : 'Subcategory'),
    },
    { key: 'open', header: 'Open lots', area: 'open', align: 'end', className: 'num', cell: (c) => c.open_lots },
    {
      key: 'actions', header: 'Actions', area: 'actions', align: 'end', width: 'fit', label: false,
      cell: (c) => (
        <div className="categories-actions">
          <button type="button" className="icon-btn" aria-label={`Edit ${c.name}`} title="Rename or move" onClick={() => onEdit(c)}><Icon name="edit" size={16} /></button>
          <button type="button" className="icon-btn categories-delete" aria-label={`Delete ${c.name}`} title="Delete" onClick={() => onDelete(c)}><Icon name="trash" size={16} /></button>
        </div>
      ),
    },
  ];
  return (
    <DataTable
      className="categories-table"
      columns={columns}
      rows={all}
      rowKey={(c) => c.id}
      rowProps={(c) => ({ className: c.parent_id === null ? 'categories-row-top' : 'categories-row-sub' })}
      empty={<EmptyState icon="box" title="No categories yet">Add the first one above.</EmptyState>}
      card={{ columns: 'minmax(0, 1fr) auto', areas: ['name actions', 'kind open'] }}
    />
  );
}

/** The category's name and parent as a form edits them. */
function CategoryFields({ idPrefix, name, onName, parent, onParent, choices, lockedReason }: {
  idPrefix: string;
  name: string;
  onName: (v: string) => void;
  parent: string;
  onParent: (v: string) => void;
  choices: readonly Category[];
  lockedReason?: string | undefined;
}) {
  return (
    <>
      <FormField id={`${idPrefix}-name`} label="Name" value={name} onValueChange={onName} maxLength={CATEGORY_NAME_MAX} autoComplete="off" />
      <div className="field">
        <label className="field-label" htmlFor={`${idPrefix}-parent`}>Parent</label>
        <select id={`${idPrefix}-parent`} className="input" value={parent} onChange={(e) => onParent(e.target.value)} disabled={lockedReason !== undefined} aria-describedby={lockedReason ? `${idPrefix}-locked` : undefined}>
          <option value="">None (a top-level category)</option>
          {choices.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
        {lockedReason && <p className="products-hint categories-hint" id={`${idPrefix}-locked`}>{lockedReason}</p>}
      </div>
    </>
  );
}

const bodyOf = (name: string, parent: string): CategoryBody => ({ name: name.trim(), parent_id: parent === '' ? null : Number(parent) });

function AddCategory({ all }: { all: readonly Category[] }) {
  const [name, setName] = useState('');
  const [parent, setParent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useServerMutation({
    mutationFn: (body: CategoryBody) => createCategory(body),
    onSuccess: (res) => {
      toast.success(`Created “${res.category.name}”`);
      setName('');
      setError(null);
      categoriesChanged();
    },
    onError: (err) => setError(errorText(err, 'Create failed')),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (add.isPending) return;
    if (!name.trim()) { setError('Please fill all fields'); return; }
    add.mutate(bodyOf(name, parent));
  }
  return (
    <section className="card" aria-labelledby="categories-add-title">
      <div className="card-header"><h2 id="categories-add-title" className="card-title">Add a category</h2></div>
      <form className="categories-add" onSubmit={submit} noValidate>
        <CategoryFields idPrefix="category-new" name={name} onName={(v) => { setName(v); setError(null); }} parent={parent} onParent={setParent} choices={parentChoices(all)} />
        <button type="submit" className="btn btn-primary categories-add-btn" disabled={add.isPending} aria-busy={add.isPending}>
          <Icon name="plus" size={16} /> {add.isPending ? 'Adding…' : 'Add Category'}
        </button>
        {error && <p className="field-error categories-add-error" role="alert">{error}</p>}
      </form>
    </section>
  );
}

function EditCategory({ category, all, onClose }: { category: Category; all: readonly Category[]; onClose: () => void }) {
  const [name, setName] = useState(category.name);
  const [parent, setParent] = useState(category.parent_id === null ? '' : String(category.parent_id));
  const [error, setError] = useState<string | null>(null);
  const subs = childCount(all, category.id);
  const save = useServerMutation({
    mutationFn: (body: CategoryBody) => updateCategory(category.id, body),
    onSuccess: () => {
      toast.success('Category saved');
      categoriesChanged();
      onClose();
    },
    onError: (err) => setError(errorText(err, 'Update failed')),
  });
  const formId = 'category-edit-form';
  function submit(e: FormEvent) {
    e.preventDefault();
    if (save.isPending) return;
    if (!name.trim()) { setError('Please fill all fields'); return; }
    save.mutate(bodyOf(name, parent));
  }
  return (
    <Modal
      title="Edit category"
      onClose={() => { if (!save.isPending) onClose(); }}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={save.isPending}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={save.isPending} aria-busy={save.isPending}>{save.isPending ? 'Saving…' : 'Save Changes'}</button>
        </>
      )}
    >
      <form id={formId} className="categories-edit" onSubmit={submit} noValidate>
        {error && <p className="categories-refusal" role="alert"><Icon name="alert" size={18} /> <span>{error}</span></p>}
        <CategoryFields
          idPrefix="category-edit" name={name} onName={(v) => { setName(v); setError(null); }} parent={parent} onParent={setParent}
          choices={parentChoices(all, category)}
          lockedReason={subs > 0 ? `It has ${subs} ${subs === 1 ? 'subcategory' : 'subcategories'}, so it stays a top-level category.` : undefined}
        />
      </form>
    </Modal>
  );
}
