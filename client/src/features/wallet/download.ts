/** Saves text as a file through a temporary object URL (the browser's own download flow). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // The byte-order mark makes spreadsheet apps read the file as UTF-8 (product names, ₹ in notes).
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
