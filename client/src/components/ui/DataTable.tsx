import type { ComponentPropsWithoutRef, CSSProperties, Key, ReactNode } from 'react';
import './ui.css';

/** One column of a DataTable. */
export interface Column<T> {
  /** React key of the column (unique within the table). */
  key: string;
  /** The column heading; on a phone card, the label before the value (see `label`). */
  header: string;
  /** What the cell shows for one row. */
  cell: (row: T) => ReactNode;
  /** 'end' for numbers and actions (right-aligned headings and cells). Cards lay values out themselves. */
  align?: 'start' | 'end';
  /** A CSS width for the column, or 'fit': as narrow as its content allows (actions). */
  width?: string;
  /** 'primary': the row's heading on a phone card, shown first without a label. */
  priority?: 'primary';
  /** false: no label before the value on a card (a row of buttons). */
  label?: false;
  /** The cell's grid area when the table's cards are a grid (`DataTableProps.card`). */
  area?: string;
  /** Pinned to the table's right edge while the table scrolls sideways (the row's action). */
  pinned?: boolean;
  /** Extra classes of the cell (the heading's too when a string). */
  className?: string | ((row: T) => string | undefined);
  /** True where this row's cell says nothing on a card and is left out there (an action a row does not have). */
  hiddenOnCard?: (row: T) => boolean;
}

/** How a phone card lays its cells out, when not as one labelled line per cell. */
export interface CardGrid {
  /** grid-template-columns of the card, e.g. 'minmax(0, 1fr) auto'. */
  columns: string;
  /** grid-template-areas, one string per line, naming the columns' `area`s ('.' for an empty place). */
  areas: readonly string[];
  /** Labels above the values (true), or the values alone (default). */
  labels?: boolean;
}

type RowProps = ComponentPropsWithoutRef<'tr'> & { [data: `data-${string}`]: string | undefined };

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  /** The table's name for screen readers (a visually hidden caption). */
  caption?: string;
  /** A class of the table for its own cell styles (e.g. 'bids-table'). */
  className?: string;
  /** Attributes of a row's <tr> (class, data-* attributes). */
  rowProps?: (row: T) => RowProps;
  /** The phone card as a grid; without it each cell is one line, its label on the left and its value on the right. */
  card?: CardGrid;
}

const join = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * The app's one table: headings, cells and alignment from `columns`. At 720 px and below (ui.css) the
 * same markup shows each row as a card, so roles and test ids are the same at every width.
 */
export function DataTable<T>({ columns, rows, rowKey, empty = null, caption, className, rowProps, card }: DataTableProps<T>) {
  if (rows.length === 0) return <>{empty}</>;
  const grid = card
    ? ({ '--dt-card-columns': card.columns, '--dt-card-areas': card.areas.map((a) => `'${a}'`).join(' ') } as CSSProperties)
    : undefined;
  const mode = card ? (card.labels ? 'data-table-grid data-table-labelled' : 'data-table-grid') : 'data-table-lines';
  return (
    <div className="table-wrap">
      <table className={join('table data-table', mode, className)} style={grid}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={headClass(c)} style={c.width && c.width !== 'fit' ? { width: c.width } : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const props = rowProps?.(row);
            return (
              <tr key={rowKey(row)} {...props}>
                {columns.map((c) => (
                  <td
                    key={c.key}
                    data-label={c.priority === 'primary' || c.label === false ? undefined : c.header}
                    className={cellClass(c, row)}
                    style={card && c.area ? { gridArea: c.area } : undefined}
                  >
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function layoutClasses<T>(c: Column<T>) {
  return [c.align === 'end' && 'dt-end', c.width === 'fit' && 'dt-fit', c.pinned && 'dt-pinned'];
}

function headClass<T>(c: Column<T>) {
  return join(...layoutClasses(c), typeof c.className === 'string' && c.className);
}

function cellClass<T>(c: Column<T>, row: T) {
  const own = typeof c.className === 'function' ? c.className(row) : c.className;
  return join(...layoutClasses(c), c.priority === 'primary' && 'dt-primary', c.hiddenOnCard?.(row) && 'dt-card-hidden', own);
}
