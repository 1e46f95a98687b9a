import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable, type Column } from './DataTable';

interface Row { id: number; name: string; amount: number; open: boolean }

const rows: Row[] = [{ id: 1, name: 'Vase', amount: 500, open: true }, { id: 2, name: 'Lamp', amount: 70, open: false }];
const columns: Column<Row>[] = [
  { key: 'name', header: 'Name', priority: 'primary', area: 'name', cell: (r) => r.name },
  { key: 'amount', header: 'Amount', align: 'end', area: 'amount', className: (r) => (r.amount > 100 ? 'big' : undefined), cell: (r) => `₹${r.amount}` },
  { key: 'action', header: 'Action', width: 'fit', pinned: true, label: false, hiddenOnCard: (r) => !r.open, cell: (r) => (r.open ? <button type="button">Close {r.name}</button> : 'N/A') },
];

describe('DataTable', () => {
  afterEach(cleanup);

  it('renders headings and one row per item, with the card labels and layout classes on the cells', () => {
    render(<DataTable caption="Things" className="things-table" columns={columns} rows={rows} rowKey={(r) => r.id} rowProps={(r) => ({ 'data-id': String(r.id) })} />);
    const table = screen.getByRole('table', { name: 'Things' });
    expect(table.className).toBe('table data-table data-table-lines things-table');
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Amount', 'Action']);
    const [, vase, lamp] = screen.getAllByRole('row');
    expect(vase!.getAttribute('data-id')).toBe('1');
    const [name, amount, action] = within(vase!).getAllByRole('cell');
    expect(name!.getAttribute('data-label')).toBeNull();
    expect(name!.className).toBe('dt-primary');
    expect(amount!.getAttribute('data-label')).toBe('Amount');
    expect(amount!.className).toBe('dt-end big');
    expect(action!.getAttribute('data-label')).toBeNull();
    expect(action!.className).toBe('dt-fit dt-pinned');
    expect(within(action!).getByRole('button', { name: 'Close Vase' })).toBeTruthy();
    expect(within(lamp!).getAllByRole('cell')[2]!.className).toBe('dt-fit dt-pinned dt-card-hidden');
  });

  it('lays grid cards out by area', () => {
    render(<DataTable columns={columns} rows={rows} rowKey={(r) => r.id} card={{ columns: 'minmax(0, 1fr) auto', areas: ['name amount', 'action action'] }} />);
    const table = screen.getByRole('table');
    expect(table.className).toBe('table data-table data-table-grid');
    expect(table.style.getPropertyValue('--dt-card-areas')).toBe("'name amount' 'action action'");
    expect(within(table).getAllByRole('cell')[1]!.style.gridArea).toBe('amount');
  });

  it('shows the empty state instead of a table when there are no rows', () => {
    render(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} empty={<p>Nothing yet</p>} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('Nothing yet')).toBeTruthy();
  });
});
