import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";

export interface DataTableProps<Row> {
  /** What the table lists, for screen readers ("Payments"). */
  caption: string;
  columns: ColumnDef<Row, unknown>[];
  rows: Row[];
  rowId: (row: Row) => string;
  /** Opens a row: on click, and on Enter when the row has focus. */
  onOpen?: (row: Row) => void;
}

/**
 * A keyboard-usable table: every openable row is focusable (Tab), ArrowUp/ArrowDown move
 * between rows, Enter opens. Scrolls sideways on narrow screens rather than squeezing columns.
 */
export function DataTable<Row>({ caption, columns, rows, rowId, onOpen }: DataTableProps<Row>) {
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel(), getRowId: rowId });
  const move = (from: HTMLElement, step: 1 | -1) => {
    const sibling = step === 1 ? from.nextElementSibling : from.previousElementSibling;
    if (sibling instanceof HTMLElement) sibling.focus();
  };
  return (
    <div className="table-scroll">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} scope="col">
                  {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-row-id={row.id}
              tabIndex={onOpen ? 0 : undefined}
              className={onOpen ? "openable" : undefined}
              onClick={onOpen ? () => onOpen(row.original) : undefined}
              onKeyDown={(event) => {
                // Keys on a control inside the row (a Copy button) are that control's.
                if (!onOpen || event.target !== event.currentTarget) return;
                if (event.key === "Enter") onOpen(row.original);
                else if (event.key === "ArrowDown") {
                  event.preventDefault();
                  move(event.currentTarget, 1);
                } else if (event.key === "ArrowUp") {
                  event.preventDefault();
                  move(event.currentTarget, -1);
                }
              }}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} data-label={String(cell.column.columnDef.header ?? "")}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
