import { useId, useRef, useState, type DragEvent } from 'react';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { Icon } from '../../../components/ui/Icon';
import { Modal } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { errorText } from '../../../lib/api-client';
import { useServerMutation } from '../../../lib/query';
import { importProblems, importProducts, PRODUCT_CSV_HEADER, productsChanged, type ImportProblem } from '../api/products-api';
import { importedText, problemsText } from '../model';

type Outcome =
  | { kind: 'imported'; created: number }
  | { kind: 'problems'; rows: ImportProblem[] }
  | { kind: 'failed'; message: string }
  | null;

/**
 * Import CSV: a file chosen (or dropped) is uploaded at once; every row is created or, when any is
 * wrong, none, and the problems are listed by line. The columns the file may have are shown first.
 */
export function ImportProductsModal({ onClose }: { onClose: () => void }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();

  const upload = useServerMutation({
    mutationFn: (file: File) => importProducts(file),
    onMutate: () => setOutcome(null),
    onSuccess: (res) => {
      setOutcome({ kind: 'imported', created: res.created });
      toast.success(importedText(res.created));
      productsChanged();
    },
    onError: (err) => {
      const rows = importProblems(err);
      setOutcome(rows ? { kind: 'problems', rows } : { kind: 'failed', message: errorText(err, 'Import failed') });
    },
  });
  const busy = upload.isPending;

  function send(file: File | undefined) {
    if (!file || busy) return;
    setFileName(file.name);
    upload.mutate(file);
  }

  function drop(e: DragEvent) {
    e.preventDefault();
    setDragging(false);
    send(e.dataTransfer.files[0]);
  }

  return (
    <Modal
      title="Import products"
      size="lg"
      describedBy={hintId}
      onClose={() => { if (!busy) onClose(); }}
      footer={<button type="button" className="btn btn-primary" onClick={onClose} disabled={busy}>{outcome?.kind === 'imported' ? 'Done' : 'Close'}</button>}
    >
      <div className="products-import">
        <div id={hintId} className="products-import-hint">
          <p>A CSV file with a header line naming its columns, in any order; <code>id</code>, <code>name</code> and <code>description</code> are required:</p>
          <pre className="products-import-columns">{PRODUCT_CSV_HEADER}</pre>
          <p className="products-hint">Category: a category’s slug or id. Prices in rupees, blank for none. Every row is created, or none of them when any row is wrong.</p>
        </div>
        <div
          className={`products-drop${dragging ? ' products-drop-over' : ''}`}
          onDragOver={(e) => { e.preventDefault(); setDragging(true); }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          data-testid="import-drop"
        >
          <Icon name="upload" size={24} />
          <p>Drop a CSV file here, or</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => input.current?.click()} disabled={busy} aria-busy={busy}>
            {busy ? 'Importing…' : 'Choose a CSV file'}
          </button>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label="CSV file to import"
            data-testid="import-file"
            onChange={(e) => {
              send(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
          {fileName && <p className="products-hint">{busy ? `Uploading ${fileName}…` : fileName}</p>}
        </div>
        <ImportOutcome outcome={outcome} />
      </div>
    </Modal>
  );
}

function ImportOutcome({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if (outcome.kind === 'imported') {
    return <p className="products-created" role="status"><Icon name="check" size={18} /> <span>{importedText(outcome.created)}</span></p>;
  }
  if (outcome.kind === 'failed') {
    return <p className="products-form-error" role="alert"><Icon name="alert" size={18} /> <span>{outcome.message}</span></p>;
  }
  const columns: Column<ImportProblem>[] = [
    { key: 'line', header: 'Line', area: 'line', width: 'fit', className: 'num', cell: (r) => r.line },
    { key: 'field', header: 'Field', area: 'field', width: 'fit', cell: (r) => <code>{r.field}</code> },
    { key: 'message', header: 'Problem', area: 'message', cell: (r) => r.message },
  ];
  return (
    <div className="products-import-problems">
      <p className="products-form-error" role="alert"><Icon name="alert" size={18} /> <span>{problemsText(outcome.rows.length)}</span></p>
      <DataTable
        className="products-problems-table"
        columns={columns}
        rows={outcome.rows}
        rowKey={(r) => `${r.line}:${r.field}:${r.message}`}
        card={{ columns: 'auto minmax(0, 1fr)', areas: ['line field', 'message message'], labels: true }}
      />
    </div>
  );
}
