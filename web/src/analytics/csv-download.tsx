import { useState } from 'react';

/**
 * A button that saves `rows` (exactly the API's rows of the view) as CSV, written by the same
 * code as `orgctl analytics … --output csv` (src/client/csv-rows.ts), so both give the same bytes.
 * The CSV writer is loaded on the first click only.
 */
export function CsvDownload({ rows, filename, label = 'Download CSV' }: { rows: readonly object[] | undefined; filename: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!rows) return;
    setBusy(true);
    try {
      const [{ stringify }, { rowsToCsv }] = await Promise.all([import('csv-stringify/browser/esm/sync'), import('../../../src/client/csv-rows.js')]);
      const csv = rowsToCsv((records, options) => stringify(records, options), rows as Record<string, unknown>[]);
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="secondary" disabled={!rows || busy} onClick={() => void save()}>
      {label}
    </button>
  );
}
